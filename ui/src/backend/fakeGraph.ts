//! The fake backend's stand-in for `statewright-graph`: declared edges with the stored
//! runs' counts and times, states nothing leads to, and breadth-first routes. The app asks
//! the Rust analysis; this only has to be faithful enough for the UI's browser tests.

import type { Edge, Finding, GraphReport, Route, RunDetail, Workflow } from '../bindings';

const key = (from: string, to: string) => `${from}\u0000${to}`;

function edges(wf: Workflow, runs: RunDetail[]): Edge[] {
  const byKey = new Map<string, Edge & { total: number }>();
  for (const s of wf.states) for (const n of s.next ?? []) byKey.set(key(s.name, n), { from: s.name, to: n, declared: true, taken: 0, total: 0 });
  for (const run of runs) {
    run.steps.forEach((step, i) => {
      const prev = run.steps[i - 1];
      if (!prev || prev.state === step.state) return;
      const k = key(prev.state, step.state);
      const e = byKey.get(k) ?? { from: prev.state, to: step.state, declared: false, taken: 0, total: 0 };
      byKey.set(k, { ...e, taken: e.taken + 1, total: e.total + (step.elapsed_ms - prev.elapsed_ms) });
    });
  }
  return [...byKey.values()].map(({ total, ...e }) => ({ ...e, mean_ms: e.taken ? Math.round(total / e.taken) : null }));
}

/** Where each state's edges lead: a breadth-first walk over a list of every edge took
 * seconds at 10,000 states, after each pause in typing. */
function successors(all: Edge[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of all) {
    const to = out.get(e.from);
    if (to) to.push(e.to);
    else out.set(e.from, [e.to]);
  }
  return out;
}

const startsBlank = (wf: Workflow) => wf.states.filter((s) => (s.checks ?? []).some((c) => c.type === 'url' && c.value === 'about:blank')).map((s) => s.name);

export function fakeReport(wf: Workflow, runs: RunDetail[]): GraphReport {
  const all = edges(wf, runs);
  const next = successors(all);
  const seen = new Set(startsBlank(wf));
  const queue = [...seen];
  for (let i = 0; i < queue.length; i++) for (const to of next.get(queue[i]) ?? []) if (!seen.has(to)) (seen.add(to), queue.push(to));
  const findings: Finding[] = wf.states
    .filter((s) => !s.interrupt && !seen.has(s.name))
    .map((s) => ({
      kind: 'unreachable',
      states: [s.name],
      message: `state \`${s.name}\` cannot be reached`,
      help: `add \`${s.name}\` to the \`next\` of the state whose actions lead to it`,
    }));
  return { findings, edges: all, runs: runs.length };
}

export function fakeRoute(wf: Workflow, runs: RunDetail[], to: string): Route | null {
  const next = successors(edges(wf, runs));
  const via = new Map<string, string | null>(startsBlank(wf).map((s) => [s, null]));
  const queue = [...via.keys()];
  while (queue.length) {
    const at = queue.shift()!;
    if (at === to) {
      const states = [at];
      for (let p = via.get(at); p != null; p = via.get(p)) states.unshift(p);
      return { states, cost_ms: (states.length - 1) * 1000 };
    }
    for (const to of next.get(at) ?? []) if (!via.has(to)) (via.set(to, at), queue.push(to));
  }
  return null;
}
