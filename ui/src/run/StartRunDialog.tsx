//! Starting a run: a value for each parameter (secrets masked), headed or headless, or in a
//! browser that is already running (carrying on from the page it shows); with a goal, the
//! run goes to that state (*Go here*).

import { useState } from 'react';
import type { RunRequest, Workflow } from '../bindings';
import { LockIcon } from '../app/LockIcon';

export interface StartRunDialogProps {
  id: string;
  workflow: Workflow;
  /** Go to this state instead of running to a terminal one. */
  goal?: string | null;
  onStart: (r: RunRequest) => void;
  onClose: () => void;
}

export function StartRunDialog({ id, workflow, goal = null, onStart, onClose }: StartRunDialogProps) {
  const params = Object.entries(workflow.parameters ?? {});
  const [values, setValues] = useState<Record<string, string>>({});
  const [headed, setHeaded] = useState(false);
  const [demoSite, setDemoSite] = useState(params.some(([k]) => k === 'site'));
  const [cdpUrl, setCdpUrl] = useState('');
  const [resume, setResume] = useState(false);
  const attach = cdpUrl.trim() !== '';
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
          onStart({ workflow: id, params: supplied, headed: headed && !attach, demo_site: demoSite, cdp_url: attach ? cdpUrl.trim() : null, resume: resume || goal != null, goal });
        }}
      >
        <h3>{goal ? `Go to ${goal}` : `Run ${workflow.name}`}</h3>
        {goal && <p className="hint">The run plans its way from whatever state the page is in, and ends when it reaches {goal}.</p>}
        {params.length === 0 && <p className="hint">This workflow has no parameters.</p>}
        {params.map(([k, p]) => (
          <label key={k} className="field">
            <span className="field-label">
              {k}
              {p.secret && <> <LockIcon title="secret: masked in logs and run records" /></>}
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
          <input type="checkbox" aria-label="headed" checked={headed && !attach} disabled={attach} onChange={(e) => setHeaded(e.target.checked)} />
          <span className="hint">show the browser window</span>
        </label>
        <label className="field">
          <span className="field-label">browser</span>
          <input aria-label="cdp url" placeholder="launch one (or a DevTools URL, http://127.0.0.1:9222)" value={cdpUrl} onChange={(e) => setCdpUrl(e.target.value)} />
        </label>
        {goal == null && (
          <label className="field">
            <span className="field-label">resume</span>
            <input type="checkbox" aria-label="resume" checked={resume} onChange={(e) => setResume(e.target.checked)} />
            <span className="hint">carry on from the state the page is in{attach ? ' (the tab already open)' : ''}</span>
          </label>
        )}
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
            {goal ? 'Go' : 'Start run'}
          </button>
        </div>
      </form>
    </div>
  );
}
