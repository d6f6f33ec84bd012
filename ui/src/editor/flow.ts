//! The workflow as a directed graph: the flow is its states that are not interrupts and the
//! declared `next` edges between them. Interrupts stand apart: one may show up at any
//! point and the run resumes where it was, so an edge to or from one says nothing about
//! the way through (see lane.ts).

import type { Workflow } from '../bindings';

export const edgeKey = (from: string, to: string) => `${from}\u0000${to}`;

export interface FlowEdge {
  from: string;
  to: string;
}

/** The declared `next` edges between two distinct flow states, each once, in file order. */
export function flowEdges(wf: Workflow): FlowEdge[] {
  const flow = new Set(wf.states.filter((s) => !s.interrupt).map((s) => s.name));
  const seen = new Set<string>();
  const edges: FlowEdge[] = [];
  for (const s of wf.states) {
    if (!flow.has(s.name)) continue;
    for (const to of s.next ?? []) {
      const key = edgeKey(s.name, to);
      if (to === s.name || !flow.has(to) || seen.has(key)) continue;
      seen.add(key);
      edges.push({ from: s.name, to });
    }
  }
  return edges;
}

/** Adds `to` to the list under `key`, in place: copying the list for each one is quadratic
 * in a state's edges (a state leading to 20,000 others took half a minute). */
export function pushTo(lists: Map<string, string[]>, key: string, to: string) {
  const list = lists.get(key);
  if (list) list.push(to);
  else lists.set(key, [to]);
}

/** Where a run begins, for the view to open on: a state that checks for the blank page
 * the browser starts on, else the first state nothing leads to, else the first state. */
export function startState(wf: Workflow): string | null {
  const blank = wf.states.find((s) => (s.checks ?? []).some((c) => c.type === 'url' && c.value === 'about:blank'));
  if (blank) return blank.name;
  const targets = new Set(wf.states.flatMap((s) => (s.next ?? []).filter((n) => n !== s.name)));
  return (wf.states.find((s) => !s.interrupt && !targets.has(s.name)) ?? wf.states[0])?.name ?? null;
}

/** The edges that lead back to a state the way from the start already passed (a retry, a
 * "search again"), by a depth-first walk from the start: without them the flow has no
 * cycle, so every other edge can point down the page. */
export function backEdges(wf: Workflow, edges: FlowEdge[]): Set<string> {
  const out = new Map<string, string[]>();
  for (const e of edges) pushTo(out, e.from, e.to);
  const start = startState(wf);
  const roots = [...(start ? [start] : []), ...wf.states.filter((s) => !s.interrupt).map((s) => s.name)];
  // 1: on the walk's current path; 2: done.
  const mark = new Map<string, 1 | 2>();
  const back = new Set<string>();
  for (const root of roots) {
    if (mark.has(root)) continue;
    // Iterative, so a long chain of states cannot overflow the stack.
    const stack: { state: string; next: number }[] = [{ state: root, next: 0 }];
    mark.set(root, 1);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const to = (out.get(top.state) ?? [])[top.next++];
      if (to === undefined) {
        mark.set(top.state, 2);
        stack.pop();
      } else if (mark.get(to) === 1) back.add(edgeKey(top.state, to));
      else if (!mark.has(to)) {
        mark.set(to, 1);
        stack.push({ state: to, next: 0 });
      }
    }
  }
  return back;
}
