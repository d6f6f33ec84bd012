//! *Batch…*'s browsers: one launched per row (the default), N shared browsers launched once
//! for the batch, or running browsers' DevTools endpoints (URLs, a pool file, or both) —
//! `statewright batch`'s `--shared-browsers`, `--cdp-url` with `--per-endpoint`, `--pool`.

import type { BrowserFields, BrowsersMode } from './browsers';

const MODES: { mode: BrowsersMode; label: string; help: string }[] = [
  { mode: 'launch', label: 'launch one per row', help: 'each run starts its own Chromium and closes it' },
  { mode: 'shared', label: 'share browsers', help: 'headless Chromiums launched once for the batch: no launch per row' },
  { mode: 'endpoints', label: 'connect to endpoints', help: 'running browsers (--remote-debugging-port, a grid, Browserless…)' },
];

export function BrowsersField({ fields, onChange }: { fields: BrowserFields; onChange: (f: BrowserFields) => void }) {
  const set = (change: Partial<BrowserFields>) => onChange({ ...fields, ...change });
  const number = (key: 'shared' | 'perBrowser' | 'perEndpoint', aria: string, label: string) => (
    <label className="field">
      <span className="field-label">{label}</span>
      <input aria-label={aria} type="number" min={1} value={fields[key]} onChange={(e) => set({ [key]: e.target.value })} />
    </label>
  );
  return (
    <fieldset className="browsers-field">
      <legend className="field-label">browsers</legend>
      {MODES.map((m) => (
        <label key={m.mode} className="field" title={m.help}>
          <input type="radio" name="batch-browsers" aria-label={m.label} checked={fields.mode === m.mode} onChange={() => set({ mode: m.mode })} />
          <span>{m.label}</span>
          <span className="hint">{m.help}</span>
        </label>
      ))}
      {fields.mode === 'shared' && (
        <div className="browsers-settings">
          {number('shared', 'shared browsers', 'browsers')}
          {number('perBrowser', 'runs per shared browser', 'runs in each')}
        </div>
      )}
      {fields.mode === 'endpoints' && (
        <div className="browsers-settings">
          <label className="field">
            <span className="field-label">DevTools URLs</span>
            <textarea aria-label="endpoint urls" rows={3} value={fields.urls} placeholder={'http://127.0.0.1:9222\nws://grid:4444/session/…/se/cdp'} onChange={(e) => set({ urls: e.target.value })} />
            <span className="hint">one per line; a ?token= or user:password@ in them is shown masked</span>
          </label>
          {number('perEndpoint', 'runs per endpoint', 'runs on each')}
          <label className="field">
            <span className="field-label">pool file</span>
            <input aria-label="pool file" value={fields.poolFile} placeholder="/path/to/pool.json (optional)" onChange={(e) => set({ poolFile: e.target.value })} />
            <span className="hint">{'{"endpoints": [{"cdp_url": "ws://…", "max_runs": 2}]}'}, with the URLs above or alone</span>
          </label>
        </div>
      )}
    </fieldset>
  );
}
