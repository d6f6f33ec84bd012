//! *Run with a goal*: the model drives a Chromium window towards a goal in words, one checked
//! step at a time (`statewright agent`); watched live like any run, and when it is stuck it
//! waits in the review queue. `statewright compile RUN` makes the run a workflow. *Task
//! file…* runs a goal per task of a file instead (a benchmark's), in the Batch tab.

import { useState } from 'react';
import type { AgentRunRequest } from '../backend/types';
import { parseParams } from './RecordDialog';

export function GoalRunDialog(p: { onStart: (r: AgentRunRequest) => void; onTaskFile: () => void; onClose: () => void }) {
  const [form, setForm] = useState({ goal: '', url: '{{site}}/', params: '', steps: '25', demo: true, headed: false });
  const start = () =>
    p.onStart({
      goal: form.goal.trim(),
      url: form.url.trim(),
      params: parseParams(form.params),
      headed: form.headed,
      demo_site: form.demo,
      max_steps: Number(form.steps) > 0 ? Math.floor(Number(form.steps)) : null,
    });
  const check = (key: 'demo' | 'headed', label: string, help: string) => (
    <label className="field">
      <span className="field-label">{label}</span>
      <input type="checkbox" aria-label={`goal ${key}`} checked={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.checked })} />
      <span className="hint">{help}</span>
    </label>
  );
  return (
    <div className="modal-backdrop">
      <form className="modal" role="dialog" aria-label="run with a goal" onSubmit={(e) => (e.preventDefault(), start())}>
        <h3>Run with a goal</h3>
        <p className="hint">The model configured under Model… drives, one checked step at a time; when it is stuck it asks you in the Review tab.</p>
        <label className="field">
          <span className="field-label">goal</span>
          <textarea aria-label="goal text" rows={3} value={form.goal} placeholder="Buy {{quantity}} of {{product}} and tell me the order number" onChange={(e) => setForm({ ...form, goal: e.target.value })} />
          <span className="hint">in words; {'{{NAME}}'} is filled from the values below</span>
        </label>
        <label className="field">
          <span className="field-label">first page</span>
          <input aria-label="goal url" value={form.url} onChange={(e) => setForm({ ...form, url: e.target.value })} />
          <span className="hint">only this page’s site may be visited</span>
        </label>
        <label className="field">
          <span className="field-label">values</span>
          <textarea aria-label="goal params" rows={3} value={form.params} placeholder={'username=demo\npassword=…'} onChange={(e) => setForm({ ...form, params: e.target.value })} />
          <span className="hint">NAME=VALUE per line; the model never sees values of names with password, token or secret</span>
        </label>
        <label className="field">
          <span className="field-label">step budget</span>
          <input aria-label="goal max steps" type="number" min={1} value={form.steps} onChange={(e) => setForm({ ...form, steps: e.target.value })} />
          <span className="hint">the most steps the model may take</span>
        </label>
        {check('demo', 'demo site', 'serve the bundled demo site as {{site}}')}
        {check('headed', 'show browser', 'open a visible Chromium window')}
        <div className="modal-actions">
          <button type="button" className="modal-aside" onClick={p.onTaskFile} title="a goal per task of a file, a benchmark’s tasks as they come">
            Task file…
          </button>
          <button type="button" onClick={p.onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!form.goal.trim() || !form.url.trim()}>
            Start
          </button>
        </div>
      </form>
    </div>
  );
}
