import { useState } from 'react';
import { actionShort } from '../editor/summary';
import type { ActionView, StepView } from './reducer';
import { ValuePreview } from './ValuePreview';

/** What an extract read, under its action: the variable and its value. */
function ExtractedValue({ a }: { a: ActionView }) {
  if (a.action?.type !== 'extract' || a.value === undefined) return null;
  return (
    <div className="extracted" data-testid="extracted-value" data-into={a.action.into}>
      <span className="hint">
        <code>{a.action.into}</code> =
      </span>{' '}
      <ValuePreview value={a.value} />
    </div>
  );
}

/** One step opened: checks, actions with arguments, durations and errors (the screenshot
 * is the viewer's centre); and, for a workflow with prompt-only states, *Synthesise from this page*. */
export function StepDetail({ step, promptStates = [], onSynthesize }: { step: StepView; promptStates?: string[]; onSynthesize?: (state: string) => void }) {
  const [target, setTarget] = useState(promptStates[0] ?? '');
  return (
    <section className="step-detail" data-testid="step-detail" aria-label={`step ${step.step}`}>
      <h3>
        Step {step.step}: {step.state} <span className="hint">visit {step.visit} · at {(step.elapsedMs / 1000).toFixed(2)} s{step.durationMs != null && ` · ${step.durationMs} ms`}</span>
      </h3>
      <p className="step-url">
        {step.url}
        {step.title && ` — ${step.title}`}
      </p>
      <h4>Checks</h4>
      <ul className="checks">
        {step.checks.map((c, i) => (
          <li key={i} className={c.passed ? 'pass' : 'fail'}>
            {c.passed ? '✓' : '✗'} {c.check}
          </li>
        ))}
      </ul>
      <h4>Actions</h4>
      {step.actions.length === 0 && <p className="hint">none</p>}
      <ol className="actions">
        {step.actions.map((a) => (
          <li key={a.index} className={`action-${a.status}`}>
            <strong>{a.action ? actionShort(a.action) : `action ${a.index + 1}`}</strong> <span className="hint">{a.status}{a.durationMs != null && ` · ${a.durationMs} ms`}{a.attempts != null && a.attempts > 1 && ` · ${a.attempts} attempts`}</span>
            {a.detail && <div className="hint">{a.detail}</div>}
            {a.error && <div className="problem error">{a.error}</div>}
            <ExtractedValue a={a} />
            {a.action && <pre className="args">{JSON.stringify(a.action, null, 1)}</pre>}
          </li>
        ))}
      </ol>
      {step.notices.length > 0 && (
        <ul className="notices">
          {step.notices.map((n, i) => (
            <li key={i} className={`notice ${n.level}`}>
              {n.text}
            </li>
          ))}
        </ul>
      )}
      {onSynthesize && promptStates.length > 0 && (
        <p className="synthesize" data-testid="synthesize">
          <select aria-label="state to synthesise" value={target} onChange={(e) => setTarget(e.target.value)}>
            {promptStates.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>{' '}
          <button onClick={() => onSynthesize(target || promptStates[0])}>Synthesise from this page</button>
          <span className="hint"> the model writes the state's checks and actions; you review them in the editor</span>
        </p>
      )}
    </section>
  );
}
