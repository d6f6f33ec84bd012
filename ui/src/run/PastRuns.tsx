//! Past runs from the store: filter by workflow and status, open one to scrub through it.

import { useEffect, useState } from 'react';
import type { Backend } from '../backend/types';
import type { RunSummary } from '../bindings';

const STATUSES = ['', 'succeeded', 'failed', 'running', 'needs_human_review', 'cancelled', 'interrupted'];

export function PastRuns({ backend, workflow, refreshKey, current, onOpen }: { backend: Backend; workflow: string | null; refreshKey: number; current: string | null; onOpen: (id: string) => void }) {
  const [runs, setRuns] = useState<RunSummary[]>([]);
  const [onlyThis, setOnlyThis] = useState(true);
  const [status, setStatus] = useState('');
  useEffect(() => {
    let live = true;
    backend
      .listRuns({ workflow: onlyThis ? workflow : null, status: status || null, limit: 200 })
      .then((r) => live && setRuns(r))
      .catch(() => live && setRuns([]));
    return () => {
      live = false;
    };
  }, [backend, workflow, onlyThis, status, refreshKey]);
  return (
    <section className="past-runs" aria-label="past runs">
      <div className="filters">
        <label>
          <input type="checkbox" checked={onlyThis} onChange={(e) => setOnlyThis(e.target.checked)} /> this workflow
        </label>
        <select aria-label="status filter" value={status} onChange={(e) => setStatus(e.target.value)}>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s || 'any status'}
            </option>
          ))}
        </select>
      </div>
      <ul className="run-list">
        {runs.map((r) => (
          <li key={r.id} className={r.id === current ? 'current' : ''}>
            <button className="link" onClick={() => onOpen(r.id)} data-testid="past-run">
              <span className={`phase phase-${r.status}`}>{r.status}</span> {r.workflow} · {r.steps} steps · {new Date(r.started_ms).toLocaleString()}
            </button>
          </li>
        ))}
        {runs.length === 0 && <li className="hint">No runs yet.</li>}
      </ul>
    </section>
  );
}
