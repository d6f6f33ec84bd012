//! A workflow as React Flow nodes and edges. Edges are the declared `next` edges (solid)
//! and transitions stored runs took that no `next` declares (dashed); with evidence, an
//! edge is labelled with how often and how fast runs took it, and a declared edge no run
//! ever took is marked. No edge goes to or from an interrupt: it sits in its own lane with
//! a marker instead (lane.ts says why). Nodes carry the graph's findings; a planned route
//! and the edge just taken are lit.

import type { Node } from '@xyflow/react';
import { MarkerType } from '@xyflow/react';
import type { Diagnostic, Finding, GraphReport, State, Workflow } from '../bindings';
import { edgeKey } from './flow';
import type { Positions } from './geometry';
import { stateHeight } from './nodeSize';
import type { RoutedEdge } from './routes';

export interface StateNodeData extends Record<string, unknown> {
  state: State;
  /** 1-based: the order in which states are checked. */
  priority: number;
  active: boolean;
  visited: boolean;
  problems: number;
  /** The graph's findings about this state, in words. */
  findings: string[];
  /** On the planned route (*Go here*, or a run with a goal). */
  onRoute: boolean;
}

export type StateNode = Node<StateNodeData, 'state'>;

export function problemsByState(diagnostics: Diagnostic[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const d of diagnostics) {
    const m = /^states\[(\d+)\]/.exec(d.path);
    if (m && d.severity === 'error') counts.set(Number(m[1]), (counts.get(Number(m[1])) ?? 0) + 1);
  }
  return counts;
}

/** Findings about states (not edges), by the state they ask to change. */
export function findingsByState(findings: Finding[]): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const f of findings) {
    if (f.kind === 'edge_never_taken' || f.kind === 'undeclared_transition' || !f.states[0]) continue;
    by.set(f.states[0], [...(by.get(f.states[0]) ?? []), f.message]);
  }
  return by;
}

export function toNodes(
  wf: Workflow,
  positions: Positions,
  opts: { active?: string | null; visited?: Set<string>; selected?: string | null; diagnostics?: Diagnostic[]; findings?: Finding[]; route?: string[] } = {},
): StateNode[] {
  const problems = problemsByState(opts.diagnostics ?? []);
  const findings = findingsByState(opts.findings ?? []);
  const route = new Set(opts.route ?? []);
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
      findings: findings.get(state.name) ?? [],
      onRoute: route.has(state.name),
    },
  }));
}

const sameList = (a: string[] | undefined, b: string[] | undefined) => a === b || ((a?.length ?? 0) === (b?.length ?? 0) && (a ?? []).every((x, i) => x === b![i]));

/** Whether two versions of a workflow draw the same edges between the same boxes: the same
 * states in the same order, with the same names, `next`, interrupt marks and heights. Most
 * edits (a description, a check's value, typed a character at a time) change none of these,
 * and need not make every edge again. */
export function sameEdgesAndBoxes(a: Workflow, b: Workflow): boolean {
  if (a === b) return true;
  if (a.states.length !== b.states.length) return false;
  return a.states.every((s, i) => {
    const t = b.states[i];
    return s === t || (s.name === t.name && !!s.interrupt === !!t.interrupt && sameList(s.next, t.next) && stateHeight(s) === stateHeight(t));
  });
}

/** Whether two graph reports label and mark the edges alike: toEdges reads their number of
 * runs and their edges' evidence only. The analysis answers after each pause in typing with
 * a new report, most often the same as the last. */
export function sameEvidence(a: GraphReport | undefined, b: GraphReport | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.runs !== b.runs || a.edges.length !== b.edges.length) return false;
  return a.edges.every((e, i) => {
    const f = b.edges[i];
    return e.from === f.from && e.to === f.to && e.declared === f.declared && e.taken === f.taken && e.mean_ms === f.mean_ms;
  });
}

/** "12× · 1.4 s": how often stored runs took an edge and how long it took on average. */
export function evidenceLabel(taken: number, meanMs: number | null | undefined): string {
  if (!taken) return '';
  const time = meanMs == null ? '' : meanMs < 1000 ? ` · ${meanMs} ms` : ` · ${(meanMs / 1000).toFixed(1)} s`;
  return `${taken}×${time}`;
}

export interface EdgeOptions {
  report?: GraphReport;
  lastEdge?: { from: string; to: string } | null;
  /** The planned route's states, in order: its consecutive pairs are lit. */
  route?: string[];
}

export function toEdges(wf: Workflow, opts: EdgeOptions = {}): RoutedEdge[] {
  const names = new Set(wf.states.map((s) => s.name));
  const interrupts = new Set(wf.states.filter((s) => s.interrupt).map((s) => s.name));
  const drawn = (from: string, to: string) => names.has(from) && names.has(to) && !interrupts.has(from) && !interrupts.has(to);
  const evidence = new Map((opts.report?.edges ?? []).map((e) => [edgeKey(e.from, e.to), e]));
  const exercised = (opts.report?.runs ?? 0) > 0;
  const routeKeys = new Set((opts.route ?? []).slice(1).map((to, i) => edgeKey(opts.route![i], to)));
  const last = opts.lastEdge;
  const classes = (base: string, key: string, from: string, to: string) =>
    [base, routeKeys.has(key) ? 'edge-route' : '', last?.from === from && last?.to === to ? 'edge-last' : ''].filter(Boolean).join(' ');
  // Where it follows no route (routes.ts), an edge leaves by the bottom and enters at the top.
  const edge = (id: string, from: string, to: string) => ({ id, type: 'routed' as const, source: from, target: to, sourceHandle: 'out', targetHandle: 'in' });
  const edges: RoutedEdge[] = [];
  const declared = new Set<string>();
  for (const s of wf.states) {
    for (const n of s.next ?? []) {
      const key = edgeKey(s.name, n);
      // A state named twice in a `next` is one edge (React Flow keys edges by id).
      if (declared.has(key)) continue;
      declared.add(key);
      if (!drawn(s.name, n)) continue;
      const e = evidence.get(key);
      // A declared edge no stored run took, once there are runs to tell.
      const never = exercised && !e?.taken;
      edges.push({
        ...edge(`next:${key}`, s.name, n),
        label: evidenceLabel(e?.taken ?? 0, e?.mean_ms) || undefined,
        className: classes(never ? 'edge-next edge-never' : 'edge-next', key, s.name, n),
        animated: last?.from === s.name && last?.to === n,
        markerEnd: { type: MarkerType.ArrowClosed },
      });
    }
  }
  const observed = [...evidence.values()].filter((e) => !declared.has(edgeKey(e.from, e.to)));
  if (last && !declared.has(edgeKey(last.from, last.to)) && !evidence.has(edgeKey(last.from, last.to))) {
    observed.push({ from: last.from, to: last.to, declared: false, taken: 0, mean_ms: null });
  }
  for (const e of observed) {
    if (!drawn(e.from, e.to) || e.from === e.to) continue;
    const key = edgeKey(e.from, e.to);
    edges.push({
      ...edge(`seen:${key}`, e.from, e.to),
      label: evidenceLabel(e.taken, e.mean_ms) || 'taken',
      className: classes('edge-seen', key, e.from, e.to),
      animated: last?.from === e.from && last?.to === e.to,
      markerEnd: { type: MarkerType.Arrow },
    });
  }
  return edges;
}
