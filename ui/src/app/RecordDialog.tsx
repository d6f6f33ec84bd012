//! *Record…*: show Statewright the task once in a Chromium window; the recording is compiled
//! into a workflow of the folder (merged into it when the name is taken) and opened here.

import { useState } from 'react';
import type { Backend, RecordedWorkflow } from '../backend/types';

/** `NAME=VALUE` lines, as `--param` takes them. */
export function parseParams(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

export function RecordDialog(p: {
  backend: Backend;
  onRecorded: (r: RecordedWorkflow) => void;
  onClose: () => void;
  notify: (m: string, level?: 'info' | 'error') => void;
}) {
  const [form, setForm] = useState({ name: '', url: '{{site}}/', params: '', demo: true, until: '' });
  const [recording, setRecording] = useState(false);
  const start = async () => {
    setRecording(true);
    try {
      const r = await p.backend.recordWorkflow({
        name: form.name,
        url: form.url,
        params: parseParams(form.params),
        demo_site: form.demo,
        until_url: form.until.trim() || null,
      });
      p.notify(`Recorded ${r.acts} acts → ${r.states} states, ${r.actions} actions${r.merged ? ' (merged into the existing workflow)' : ''}`);
      r.notes.forEach((n) => p.notify(n));
      p.onRecorded(r);
    } catch (e) {
      p.notify((e as Error).message, 'error');
      setRecording(false);
    }
  };
  if (recording) {
    return (
      <div className="modal-backdrop">
        <div className="modal" role="dialog" aria-label="recording">
          <h3>Recording…</h3>
          <p>Do the task in the Chromium window. Close its tab, reach the stop address, or press Stop when you are done.</p>
          <div className="modal-actions">
            <button className="primary" onClick={() => void p.backend.stopRecording().catch((e) => p.notify((e as Error).message, 'error'))}>
              Stop
            </button>
          </div>
        </div>
      </div>
    );
  }
  const input = (key: 'name' | 'url' | 'until', label: string, help: string) => (
    <label className="field">
      <span className="field-label">{label}</span>
      <input aria-label={`record ${key}`} value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
      <span className="hint">{help}</span>
    </label>
  );
  return (
    <div className="modal-backdrop">
      <form className="modal" role="dialog" aria-label="record a workflow" onSubmit={(e) => (e.preventDefault(), void start())}>
        <h3>Record a workflow</h3>
        {input('name', 'name', 'the workflow file; an existing one gets what this recording adds')}
        {input('url', 'first page', '{{NAME}} is filled from the values below')}
        <label className="field">
          <span className="field-label">values</span>
          <textarea aria-label="record params" rows={4} value={form.params} placeholder={'product=Stainless steel kettle\npassword=…'} onChange={(e) => setForm({ ...form, params: e.target.value })} />
          <span className="hint">NAME=VALUE per line: what you type that equals one becomes {'{{NAME}}'}; names with password, token or secret are masked</span>
        </label>
        {input('until', 'stop at', 'an address pattern that ends the recording (optional)')}
        <label className="field">
          <span className="field-label">demo site</span>
          <input type="checkbox" aria-label="record demo site" checked={form.demo} onChange={(e) => setForm({ ...form, demo: e.target.checked })} />
          <span className="hint">serve the bundled demo site as {'{{site}}'}</span>
        </label>
        <div className="modal-actions">
          <button type="button" onClick={p.onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!form.name.trim() || !form.url.trim()}>
            Record
          </button>
        </div>
      </form>
    </div>
  );
}
