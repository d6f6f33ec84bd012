//! The ways a person can unblock a run: retry, skip, corrective actions, declare the
//! state, create a state from this page, abort. Each can be previewed as a diff and saved.

import { useState } from 'react';
import type { Action, Check } from '../bindings';
import { ACTION_FIELDS, ACTION_TYPES, newAction, retype } from '../editor/fields';
import { ObjectForm } from '../editor/ObjectForm';
import { checkShort } from '../editor/summary';
import type { PageElement, Resolution, ReviewView } from '../bindings';
import { actionOn, elementLabel, likelyState, switchTo, tabLabel, targetFor } from './describe';

// What a person answers here; `synthesized` comes from the model only.
type Kind = Exclude<Resolution['kind'], 'synthesized'>;
const KINDS: [Kind, string][] = [
  ['retry', 'Retry'],
  ['skip', 'Skip the action'],
  ['actions', 'Corrective actions'],
  ['declare_state', 'Declare the state'],
  ['new_state', 'New state from this page'],
  ['abort', 'Abort the run'],
];

export function ResolutionForm({ review, picked, canSave, onPreview, onResolve }: { review: ReviewView; picked: PageElement | null; canSave: boolean; onPreview: (r: Resolution) => void; onResolve: (r: Resolution, save: boolean) => void }) {
  const [kind, setKind] = useState<Kind>('retry');
  const [actions, setActions] = useState<Action[]>([]);
  const likely = likelyState(review);
  const [declared, setDeclared] = useState(likely);
  const [stateName, setStateName] = useState('');
  const [checks, setChecks] = useState<boolean[]>(review.suggested_checks.map(() => true));
  const [reason, setReason] = useState('');
  const [save, setSave] = useState(false);

  const resolution = (): Resolution => {
    switch (kind) {
      case 'actions':
        return { kind, actions };
      case 'declare_state':
        return { kind, state: declared };
      case 'new_state':
        return { kind, state: { name: stateName.trim(), checks: review.suggested_checks.filter((_, i) => checks[i]) as Check[] } };
      case 'abort':
        return reason.trim() ? { kind, reason: reason.trim() } : { kind };
      default:
        return { kind };
    }
  };
  const incomplete = (kind === 'actions' && actions.length === 0) || (kind === 'new_state' && (!stateName.trim() || !checks.some(Boolean))) || (kind === 'declare_state' && !declared);
  const savable = canSave && (kind === 'actions' || kind === 'skip' || kind === 'new_state' || kind === 'declare_state');

  return (
    <section className="resolution-form" aria-label="resolve review">
      <div className="resolution-kinds" role="radiogroup">
        {KINDS.map(([k, label]) => (
          <label key={k} className={kind === k ? 'chosen' : ''}>
            <input type="radio" name="resolution" value={k} checked={kind === k} onChange={() => setKind(k)} /> {label}
          </label>
        ))}
      </div>
      {kind === 'actions' && (
        <div>
          {actions.map((a, i) => (
            <div key={i} className="list-item">
              <div className="list-item-head">
                <span>{i + 1}.</span>
                <select aria-label={`corrective action ${i + 1} type`} value={a.type} onChange={(e) => setActions(actions.map((x, j) => (j === i ? retype(x, e.target.value as Action['type']) : x)))}>
                  {ACTION_TYPES.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </select>
                <button aria-label={`remove corrective action ${i + 1}`} onClick={() => setActions(actions.filter((_, j) => j !== i))}>
                  ✕
                </button>
              </div>
              <ObjectForm value={a} fields={ACTION_FIELDS[a.type]} path={`actions[${i}]`} onChange={(v) => setActions(actions.map((x, j) => (j === i ? v : x)))} />
              {a.type === 'drag' && picked && (
                <button onClick={() => setActions(actions.map((x, j) => (j === i ? { ...a, to: targetFor(picked) } : x)))}>let go on {elementLabel(picked)}</button>
              )}
            </div>
          ))}
          <button onClick={() => setActions([...actions, picked ? actionOn(picked) : newAction('click')])}>
            + action{picked ? ` on ${elementLabel(picked)}` : ''}
          </button>
          {(review.tabs ?? []).map((tab, i) => (
            <button key={i} onClick={() => setActions([...actions, switchTo(tab)])}>
              + switch to {tabLabel(tab)}
            </button>
          ))}
        </div>
      )}
      {kind === 'declare_state' && (
        <label className="field">
          <span className="field-label">this page is</span>
          <select aria-label="declared state" value={declared} onChange={(e) => setDeclared(e.target.value)}>
            {review.states.map((s) => (
              <option key={s} value={s}>
                {s === likely ? `${s} (closest match)` : s}
              </option>
            ))}
          </select>
        </label>
      )}
      {kind === 'new_state' && (
        <div>
          <label className="field">
            <span className="field-label">name</span>
            <input aria-label="new state name" value={stateName} onChange={(e) => setStateName(e.target.value)} />
          </label>
          <p className="hint">Checks suggested from this page:</p>
          {review.suggested_checks.map((c, i) => (
            <label key={i} className="suggested-check">
              <input type="checkbox" checked={checks[i]} onChange={(e) => setChecks(checks.map((x, j) => (j === i ? e.target.checked : x)))} /> {checkShort(c as Check)}
            </label>
          ))}
        </div>
      )}
      {kind === 'abort' && (
        <label className="field">
          <span className="field-label">reason</span>
          <input aria-label="abort reason" value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
      )}
      {!canSave && (
        <p className="hint">
          To save a fix into the workflow file: <code>statewright review resolve {review.id} … --save</code>
        </p>
      )}
      <div className="modal-actions">
        {savable && (
          <label>
            <input type="checkbox" aria-label="save into workflow" checked={save} onChange={(e) => setSave(e.target.checked)} /> save the fix into the workflow
          </label>
        )}
        {savable && (
          <button disabled={incomplete} onClick={() => onPreview(resolution())}>
            Preview diff
          </button>
        )}
        <button className={kind === 'abort' ? 'danger' : 'primary'} disabled={incomplete} onClick={() => onResolve(resolution(), savable && save)}>
          Resolve
        </button>
      </div>
    </section>
  );
}
