//! *Batch…*: the workflow once per row of a data file (`statewright batch`), the file's
//! columns its parameters and the values here the defaults under them; or *Run with a
//! goal…*'s task file: the model once per task (`statewright agent --tasks`), a
//! benchmark's tasks as they come. The browsers are launched per row, shared, or running
//! ones connected to ([`BrowsersField`]).

import { useState } from 'react';
import type { Workflow } from '../bindings';
import { parseParams } from '../app/RecordDialog';
import type { BatchRequest } from '../bindings';
import { browsersFrom, defaultBrowserFields, endpointUrls, type BrowserFields } from './browsers';
import { BrowsersField } from './BrowsersField';

/** What runs once per row: the open workflow, or the model towards each task's goal. */
export type BatchSubject = { kind: 'workflow'; id: string; workflow: Workflow } | { kind: 'goals' };

export interface BatchDialogProps {
  of: BatchSubject;
  /** Resolves when the batch started; on a refusal the dialog stays for the path to be fixed. */
  onStart: (r: BatchRequest) => Promise<void>;
  onClose: () => void;
}

export function BatchDialog({ of, onStart, onClose }: BatchDialogProps) {
  const [form, setForm] = useState({ data: '', concurrency: '2', params: '', steps: '25', limit: '', demo: true, headed: false });
  const [browsers, setBrowsers] = useState<BrowserFields>(defaultBrowserFields);
  const [starting, setStarting] = useState(false);
  const goals = of.kind === 'goals';
  const names = of.kind === 'workflow' ? Object.keys(of.workflow.parameters ?? {}) : [];
  // Only a browser launched for the row can be shown: shared ones are headless, endpoints run elsewhere.
  const launching = browsers.mode === 'launch';
  const noEndpoint = browsers.mode === 'endpoints' && !endpointUrls(browsers.urls).length && !browsers.poolFile.trim();
  const start = async () => {
    setStarting(true);
    const concurrency = Math.floor(Number(form.concurrency));
    const steps = Math.floor(Number(form.steps));
    const limit = Number(form.limit);
    await onStart({
      each: of.kind === 'workflow' ? { kind: 'workflow', workflow: of.id } : { kind: 'goals', max_steps: steps > 0 ? steps : null },
      data: form.data.trim(),
      params: parseParams(form.params),
      concurrency: concurrency > 0 ? concurrency : null,
      demo_site: form.demo,
      headed: launching && form.headed,
      browsers: browsersFrom(browsers),
      run_timeout: form.limit.trim() && limit > 0 ? limit : null,
    }).finally(() => setStarting(false));
  };
  const check = (key: 'demo' | 'headed', aria: string, label: string, help: string, disabled = false) => (
    <label className="field">
      <span className="field-label">{label}</span>
      <input type="checkbox" aria-label={aria} disabled={disabled} checked={form[key] && !disabled} onChange={(e) => setForm({ ...form, [key]: e.target.checked })} />
      <span className="hint">{help}</span>
    </label>
  );
  return (
    <div className="modal-backdrop">
      <form className="modal batch-dialog" role="dialog" aria-label={goals ? 'task file run' : 'batch run'} onSubmit={(e) => (e.preventDefault(), void start())}>
        <h3>{of.kind === 'workflow' ? `Batch ${of.workflow.name}` : 'Run a task file'}</h3>
        {goals ? (
          <p className="hint">The model set under Model… drives one run per task; a failing task does not stop the others. The results table, with each answer, is written next to the task file (tasks.jsonl → tasks.results.csv and .json); run it again and the tasks that succeeded are skipped.</p>
        ) : (
          <p className="hint">One run per row; a failing row does not stop the others. The results table is written next to the data file (orders.csv → orders.results.csv and .json); run it again and the rows that succeeded are skipped.</p>
        )}
        <label className="field">
          <span className="field-label">{goals ? 'task file' : 'data file'}</span>
          <input aria-label="batch data" value={form.data} placeholder={goals ? '/path/to/WebVoyager_data.jsonl' : '/path/to/orders.csv'} onChange={(e) => setForm({ ...form, data: e.target.value })} />
          <span className="hint">
            {goals
              ? 'JSON Lines, a JSON array or CSV: each task a goal and a first page (goal and url; WebVoyager’s ques and web; Online-Mind2Web’s confirmed_task and website; WebArena’s intent and start_url)'
              : 'CSV with a header line of parameter names, JSON Lines or a JSON array'}
          </span>
        </label>
        <label className="field">
          <span className="field-label">at a time</span>
          <input aria-label="batch concurrency" type="number" min={1} value={form.concurrency} onChange={(e) => setForm({ ...form, concurrency: e.target.value })} />
          {!launching && <span className="hint">never more than the browsers take together; empty: all they take</span>}
        </label>
        <label className="field">
          <span className="field-label">defaults</span>
          <textarea aria-label="batch params" rows={3} value={form.params} placeholder={names.length ? names.map((n) => `${n}=…`).join('\n') : 'NAME=VALUE'} onChange={(e) => setForm({ ...form, params: e.target.value })} />
          <span className="hint">{goals ? 'NAME=VALUE per line: values the model may type as {{NAME}}, under a task’s own' : 'NAME=VALUE per line, for the columns the file does not have'}</span>
        </label>
        {goals && (
          <label className="field">
            <span className="field-label">step budget</span>
            <input aria-label="batch max steps" type="number" min={1} value={form.steps} onChange={(e) => setForm({ ...form, steps: e.target.value })} />
            <span className="hint">the most steps the model may take on each task</span>
          </label>
        )}
        <label className="field">
          <span className="field-label">time limit</span>
          <input aria-label="batch run timeout" type="number" min={1} step="any" value={form.limit} placeholder="none" onChange={(e) => setForm({ ...form, limit: e.target.value })} />
          <span className="hint">seconds a {goals ? 'task' : 'row'}’s run may take; one that takes longer is stopped and ends timed_out, the others go on</span>
        </label>
        <BrowsersField fields={browsers} onChange={setBrowsers} />
        {check('demo', 'batch demo site', 'demo site', 'serve the bundled demo site as {{site}} (on this machine’s loopback)')}
        {check('headed', 'batch headed', 'headed', launching ? 'show the browser windows' : 'only for browsers launched per row', !launching)}
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!form.data.trim() || noEndpoint || starting}>
            Start batch
          </button>
        </div>
      </form>
    </div>
  );
}
