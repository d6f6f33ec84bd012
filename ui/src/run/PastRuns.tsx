//! Past runs from the store: filter by workflow and status, open one to scrub through it.
//! The store is shared with the terminal, which announces nothing: the list asks again
//! every few seconds while it is on screen, so runs started elsewhere show up by themselves.
//! Each run shows what it needed: its model calls, reviews, heals and retries (from the
//! store's summary).

import { useEffect, useRef, useState } from 'react';
import type { Backend } from '../backend/types';
import type { RunSummary } from '../bindings';
import { HelpBadges } from './HelpBadges';

const POLL_MS = 3000;

const STATUSES = ['', 'succeeded', 'failed', 'running', 'needs_human_review', 'cancelled', 'interrupted'];

export function PastRuns({ backend, workflow, refreshKey, current, onOpen }: { backend: Backend; workflow: string | null; refreshKey: number; current: string | null; onOpen: (id: string) => void }) {
  const [runs, setRuns] = useState<RunSummary[]>([]);
  const [onlyThis, setOnlyThis] = useState(true);
  const [status, setStatus] = useState('');
  const list = useRef<HTMLElement>(null);
  useEffect(() => {
    let live = true;
    let shown = '';
    const load = () =>
      backend
        .listRuns({ workflow: onlyThis ? workflow : null, status: status || null, limit: 200 })
        .then((r) => {
          // Re-render only on a change: most polls find the same runs.
          const key = JSON.stringify(r.map((x) => [x.id, x.status, x.steps, x.reviews]));
          if (live && key !== shown) (shown = key), setRuns(r);
        })
        .catch(() => live && setRuns([]));
    void load();
    const timer = window.setInterval(() => {
      const visible = !document.hidden && !!list.current?.offsetParent;
      if (visible) void load();
    }, POLL_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [backend, workflow, onlyThis, status, refreshKey]);
  return (
    <section className="past-runs" aria-label="past runs" ref={list}>
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
            <button className="link" onClick={() => onOpen(r.id)} data-testid="past-run" data-run={r.id}>
              <span className={`phase phase-${r.status}`}>{r.status}</span> {r.workflow} · {r.steps} steps · {new Date(r.started_ms).toLocaleString()} <HelpBadges help={{ modelCalls: r.llm_calls, reviews: r.reviews, heals: r.heals, retries: r.retries }} />
            </button>
          </li>
        ))}
        {runs.length === 0 && <li className="hint">No runs yet.</li>}
      </ul>
    </section>
  );
}
