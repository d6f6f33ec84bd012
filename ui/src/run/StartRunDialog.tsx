//! Starting a run: a value for each parameter (secrets masked), headed or headless.

import { useState } from 'react';
import type { RunRequest, Workflow } from '../bindings';

export function StartRunDialog({ id, workflow, onStart, onClose }: { id: string; workflow: Workflow; onStart: (r: RunRequest) => void; onClose: () => void }) {
  const params = Object.entries(workflow.parameters ?? {});
  const [values, setValues] = useState<Record<string, string>>({});
  const [headed, setHeaded] = useState(false);
  const [demoSite, setDemoSite] = useState(params.some(([k]) => k === 'site'));
  const missing = params.filter(([k, p]) => p.default == null && !values[k] && !(demoSite && k === 'site')).map(([k]) => k);
  return (
    <div className="modal-backdrop">
      <form
        className="modal"
        role="dialog"
        aria-label="start run"
        onSubmit={(e) => {
          e.preventDefault();
          const supplied = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
          onStart({ workflow: id, params: supplied, headed, demo_site: demoSite });
        }}
      >
        <h3>Run {workflow.name}</h3>
        {params.length === 0 && <p className="hint">This workflow has no parameters.</p>}
        {params.map(([k, p]) => (
          <label key={k} className="field">
            <span className="field-label">
              {k}
              {p.secret && ' 🔒'}
            </span>
            <input
              aria-label={`param ${k}`}
              type={p.secret ? 'password' : 'text'}
              autoComplete="off"
              placeholder={p.secret ? (p.default != null ? '(default set)' : 'required') : (p.default ?? 'required')}
              value={values[k] ?? ''}
              onChange={(e) => setValues({ ...values, [k]: e.target.value })}
            />
          </label>
        ))}
        <label className="field">
          <span className="field-label">headed</span>
          <input type="checkbox" aria-label="headed" checked={headed} onChange={(e) => setHeaded(e.target.checked)} />
          <span className="hint">show the browser window</span>
        </label>
        {params.some(([k]) => k === 'site') && (
          <label className="field">
            <span className="field-label">demo site</span>
            <input type="checkbox" aria-label="demo site" checked={demoSite} onChange={(e) => setDemoSite(e.target.checked)} />
            <span className="hint">serve the bundled demo site as {'{{site}}'}</span>
          </label>
        )}
        {missing.length > 0 && <p className="problem error">Needs a value: {missing.join(', ')}</p>}
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={missing.length > 0}>
            Start run
          </button>
        </div>
      </form>
    </div>
  );
}
