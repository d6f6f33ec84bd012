//! A workflow as React Flow nodes and edges: `next` edges (solid, labelled), transitions
//! seen in past runs that no `next` declares (dashed), the edge just taken (highlighted).

import type { Edge, Node } from '@xyflow/react';
import { MarkerType } from '@xyflow/react';
import type { Diagnostic, State, Workflow } from '../bindings';
import type { Positions } from './layout';

export interface StateNodeData extends Record<string, unknown> {
  state: State;
  /** 1-based: the order in which states are checked. */
  priority: number;
  active: boolean;
  visited: boolean;
  problems: number;
}

export type StateNode = Node<StateNodeData, 'state'>;

/** Transition counts from past runs, keyed by `edgeKey(from, to)`. */
export type SeenTransitions = Map<string, number>;
export const edgeKey = (from: string, to: string) => `${from}\u0000${to}`;

export function problemsByState(diagnostics: Diagnostic[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const d of diagnostics) {
    const m = /^states\[(\d+)\]/.exec(d.path);
    if (m && d.severity === 'error') counts.set(Number(m[1]), (counts.get(Number(m[1])) ?? 0) + 1);
  }
  return counts;
}

export function toNodes(
  wf: Workflow,
  positions: Positions,
  opts: { active?: string | null; visited?: Set<string>; selected?: string | null; diagnostics?: Diagnostic[] } = {},
): StateNode[] {
  const problems = problemsByState(opts.diagnostics ?? []);
  return wf.states.map((state, i) => ({
    id: state.name,
    type: 'state',
    position: positions.get(state.name) ?? { x: (i % 6) * 280, y: Math.floor(i / 6) * 160 },
    selected: opts.selected === state.name,
    data: {
      state,
      priority: i + 1,
      active: opts.active === state.name,
      visited: opts.visited?.has(state.name) ?? false,
      problems: problems.get(i) ?? 0,
    },
  }));
}

export function toEdges(wf: Workflow, seen: SeenTransitions = new Map(), lastEdge: { from: string; to: string } | null = null): Edge[] {
  const names = new Set(wf.states.map((s) => s.name));
  const edges: Edge[] = [];
  const declared = new Set<string>();
  const isLast = (from: string, to: string) => lastEdge?.from === from && lastEdge?.to === to;
  for (const s of wf.states) {
    for (const n of s.next ?? []) {
      if (!names.has(n)) continue;
      const key = edgeKey(s.name, n);
      declared.add(key);
      const count = seen.get(key);
      edges.push({
        id: `next:${key}`,
        source: s.name,
        target: n,
        label: count ? `next · seen ${count}×` : 'next',
        className: isLast(s.name, n) ? 'edge-next edge-last' : 'edge-next',
        animated: isLast(s.name, n),
        markerEnd: { type: MarkerType.ArrowClosed },
      });
    }
  }
  const seenKeys = new Set(seen.keys());
  if (lastEdge) seenKeys.add(edgeKey(lastEdge.from, lastEdge.to));
  for (const key of seenKeys) {
    if (declared.has(key)) continue;
    const [from, to] = key.split('\u0000');
    if (!names.has(from) || !names.has(to) || from === to) continue;
    edges.push({
      id: `seen:${key}`,
      source: from,
      target: to,
      label: seen.get(key) ? `seen ${seen.get(key)}×` : 'taken',
      className: isLast(from, to) ? 'edge-seen edge-last' : 'edge-seen',
      animated: isLast(from, to),
      markerEnd: { type: MarkerType.Arrow },
    });
  }
  return edges;
}
