//! Auto-layout of a workflow with ELK's layered algorithm (what Stately's editor uses):
//! the flow runs top to bottom along `next` edges, crossings minimised, and every edge is
//! routed orthogonally between ports on the states' borders. Interrupts are laid out apart
//! (lane.ts). A flow too large for ELK to lay out in a few seconds (`ELK_MOST_NODES`) gets
//! plain layers instead (coarseLayout.ts). Pure: the worker runs it with ELK, tests run it
//! with ELK in Node.
//!
//! Ports: each edge has a port of its own at each end, so edges into one state spread
//! along its border instead of meeting in one point. An edge going down the flow leaves
//! by the bottom and enters at the top; an edge leading back (a retry, a "search again")
//! leaves by the right side and enters the state it returns to on its right side, so loops
//! climb the right-hand side of the flow where they are told apart from the way forward.
//! Only the loops' ports are declared: ELK gives the other edges ports of their own on
//! the flow's sides by itself, and faster than declared ones on a large workflow.

import type { ElkExtendedEdge, ElkNode, ElkPort } from 'elkjs/lib/elk-api';
import type { State, Workflow } from '../bindings';
import { coarseLayout, layerOf } from './coarseLayout';
import { backEdges, edgeKey, type FlowEdge, flowEdges, pushTo, startState } from './flow';
import { type Box, type Point, type Positions, sideOf } from './geometry';
import { placeInterrupts } from './lane';
import { NODE_WIDTH, stateHeight } from './nodeSize';

export interface EdgeRoute {
  /** Start (on the source's border), bends, end (on the target's border). */
  points: Point[];
}

export interface Layout {
  positions: Positions;
  /** The flow's edges as routed, by `edgeKey(from, to)`. */
  routes: Map<string, EdgeRoute>;
  /** The band the interrupts sit in; null when there are none. */
  lane: Box | null;
  /** Laid out in plain layers instead of by ELK (the flow was too large for it to finish in
   * a few seconds, `ELK_MOST_NODES`, or ran it out of stack): no edge is routed. The editor
   * says so. */
  coarse: boolean;
}

/** The most nodes ELK's layered graph may have: the flow's states and one more for each layer
 * an edge passes (ELK places a dummy node there), counted on the longest-path layers, which
 * are never fewer than ELK's own. ELK's time follows those nodes, not the states: measured in
 * Node on a loaded 2-core machine, a chain of 2,000 states took 1.9 s, of 4,000 6.4 s (of
 * 5,000 it overflowed ELK's stack); one with a skip every 7 states, 2,000 (3,100 nodes)
 * 3.4 s; 100 states each also leading to one failure state at the end (4,950 nodes) 2.8 s,
 * 120 of them (7,300) 6.3 s, 300 (45,000) 17.5 s; 200 random states with 2 edges each
 * (5,600) 10 s, 1,000 (134,000) two minutes. So above about 5,000 ELK keeps
 * the person waiting 5 s or far longer, and `coarseLayout` (linear: 10,000 states in a third
 * of a second) takes over; below it, every workflow of a few hundred states that mostly goes
 * forward keeps ELK's layout. */
export const ELK_MOST_NODES = 5000;

/** What lays out an ELK graph: ELK itself, in the worker or in a test. */
export interface ElkEngine {
  layout(graph: ElkNode): Promise<ElkNode>;
}

/** The flow's states in an order every edge but the back edges follows (a topological order
 * of what is left once they are set aside), ties in priority order. ELK's model-order cycle
 * breaking then turns round exactly the edges whose ports say they lead back. */
function downTheFlow(names: string[], edges: FlowEdge[], back: Set<string>): string[] {
  const into = new Map(names.map((n) => [n, 0]));
  const out = new Map<string, string[]>();
  for (const e of edges) {
    if (back.has(edgeKey(e.from, e.to))) continue;
    into.set(e.to, (into.get(e.to) ?? 0) + 1);
    pushTo(out, e.from, e.to);
  }
  const order: string[] = [];
  const ready = names.filter((n) => !into.get(n));
  const rank = new Map(names.map((n, i) => [n, i]));
  while (ready.length) {
    const n = ready.shift()!;
    order.push(n);
    for (const to of out.get(n) ?? []) {
      into.set(to, into.get(to)! - 1);
      if (!into.get(to)) {
        // Kept in priority order, found by halving: a state leading to thousands of others
        // makes them ready at once.
        let lo = 0;
        let hi = ready.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (rank.get(ready[mid])! > rank.get(to)!) hi = mid;
          else lo = mid + 1;
        }
        ready.splice(lo, 0, to);
      }
    }
  }
  return order;
}

export async function computeLayout(elk: ElkEngine, wf: Workflow): Promise<Layout> {
  const flowStates = wf.states.filter((s) => !s.interrupt);
  const edges = flowEdges(wf);
  const back = backEdges(wf, edges);
  const order = downTheFlow(
    flowStates.map((s) => s.name),
    edges,
    back,
  );
  const byName = new Map(flowStates.map((s) => [s.name, s]));
  const forward = edges.filter((e) => !back.has(edgeKey(e.from, e.to)));
  const layer = layerOf(order, forward);
  let nodes = flowStates.length;
  for (const e of edges) nodes += Math.max(0, Math.abs(layer.get(e.to)! - layer.get(e.from)!) - 1);
  const byElk =
    nodes > ELK_MOST_NODES
      ? null
      : await elkLayout(elk, flowStates, edges, back, order).catch((e: unknown) => {
          // ELK recurses along the layers: a chain of 5,000 states overflows its stack in Node
          // (a webview's worker may have less), which is no reason to fail the layout.
          if (e instanceof RangeError) return null;
          throw e;
        });
  const coarse = !byElk;
  const flow = byElk ?? { ...coarseLayout(order, forward, layer, (name) => stateHeight(byName.get(name)!), startState(wf)), routes: new Map<string, EdgeRoute>() };

  const interrupts = wf.states.filter((s) => s.interrupt).map((s) => ({ id: s.name, width: NODE_WIDTH, height: stateHeight(s) }));
  const apart = placeInterrupts(interrupts, flow.width);
  const positions = flow.positions;
  for (const [name, p] of apart?.positions ?? []) positions.set(name, p);
  return { positions, routes: flow.routes, lane: apart?.lane ?? null, coarse };
}

/** The flow laid out by ELK: where each state goes, the edges' routes, the flow's width. */
async function elkLayout(
  elk: ElkEngine,
  flowStates: State[],
  edges: FlowEdge[],
  back: Set<string>,
  order: string[],
): Promise<{ positions: Positions; routes: Map<string, EdgeRoute>; width: number }> {
  const byName = new Map(flowStates.map((s) => [s.name, s]));
  const ports = new Map<string, ElkPort[]>(flowStates.map((s) => [s.name, []]));
  const port = (state: string, id: string) => {
    ports.get(state)!.push({ id, width: 0, height: 0, layoutOptions: { 'elk.port.side': 'EAST' } });
    return id;
  };
  const elkEdges: ElkExtendedEdge[] = edges.map((e) => {
    const id = edgeKey(e.from, e.to);
    if (!back.has(id)) return { id, sources: [e.from], targets: [e.to] };
    return { id, sources: [port(e.from, `out\u0000${id}`)], targets: [port(e.to, `in\u0000${id}`)] };
  });
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.layered.cycleBreaking.strategy': 'MODEL_ORDER',
      'elk.layered.spacing.nodeNodeBetweenLayers': '50',
      'elk.spacing.nodeNode': '30',
      'elk.spacing.edgeEdge': '12',
      'elk.spacing.edgeNode': '16',
      'elk.layered.spacing.edgeEdgeBetweenLayers': '12',
      'elk.layered.spacing.edgeNodeBetweenLayers': '16',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      // States without edges (orphans, drafts) go in a row instead of one each.
      'elk.separateConnectedComponents': 'true',
      // Fewer crossing-minimisation sweeps on large graphs keep layout well under a second
      // (300 states: ~0.7 s at the default of 7, ~0.2 s at 1 on these machines).
      'elk.layered.thoroughness': flowStates.length > 100 ? '1' : '7',
      'elk.layered.crossingMinimization.greedySwitch.type': 'OFF',
    },
    children: order.map((name) => ({
      id: name,
      width: NODE_WIDTH,
      height: stateHeight(byName.get(name)!),
      ...(ports.get(name)!.length ? { ports: ports.get(name), layoutOptions: { 'elk.portConstraints': 'FIXED_SIDE' } } : {}),
    })),
    edges: elkEdges,
  };
  const out = await elk.layout(graph);

  const positions: Positions = new Map();
  for (const c of out.children ?? []) positions.set(c.id, { x: c.x ?? 0, y: c.y ?? 0 });
  const box = (name: string) => ({ ...positions.get(name)!, width: NODE_WIDTH, height: stateHeight(byName.get(name)!) });
  const routes = new Map<string, EdgeRoute>();
  const byKey = new Map(edges.map((e) => [edgeKey(e.from, e.to), e]));
  for (const e of out.edges ?? []) {
    const edge = byKey.get(e.id);
    const section = e.sections?.[0];
    if (!edge || !section) continue;
    const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map(({ x, y }) => ({ x, y }));
    // Drawn only from border to border (routes.ts holds them to that while states stay put).
    if (sideOf(points[0], box(edge.from)) && sideOf(points[points.length - 1], box(edge.to))) routes.set(e.id, { points });
  }

  return { positions, routes, width: out.width ?? 0 };
}
