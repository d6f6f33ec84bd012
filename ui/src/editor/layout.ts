//! Auto-layout of a workflow graph with ELK's layered algorithm (what Stately's editor
//! uses): states flow top to bottom along `next` edges, crossings minimised.

import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';
import type { Workflow } from '../bindings';

export type Positions = Map<string, { x: number; y: number }>;

export const NODE_WIDTH = 250;
const LINE = 16;
const MAX_LINES = 4;

/** The height a state node needs for its short-form lines (what StateNode renders). */
export function nodeHeight(checks: number, actions: number): number {
  const lines = Math.min(checks, MAX_LINES) + Math.min(actions, MAX_LINES) + (checks > MAX_LINES ? 1 : 0) + (actions > MAX_LINES ? 1 : 0);
  return 46 + lines * LINE;
}

export const SHOWN_LINES = MAX_LINES;

const elk = new ELK();

export async function layout(wf: Workflow): Promise<Positions> {
  const names = new Set(wf.states.map((s) => s.name));
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.layered.spacing.nodeNodeBetweenLayers': '50',
      'elk.spacing.nodeNode': '30',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      // States without edges (popups, interstitials) go in a row instead of one each.
      'elk.separateConnectedComponents': 'true',
      // Fewer crossing-minimisation sweeps on large graphs keep layout well under a second
      // (300 states: ~0.7 s at the default of 7, ~0.2 s at 1 on these machines).
      'elk.layered.thoroughness': wf.states.length > 100 ? '1' : '7',
      // React Flow draws the edges itself from node positions: skip ELK's orthogonal routing.
      'elk.edgeRouting': 'POLYLINE',
      'elk.layered.crossingMinimization.greedySwitch.type': 'OFF',
    },
    children: wf.states.map((s) => ({ id: s.name, width: NODE_WIDTH, height: nodeHeight((s.checks?.length ?? 0), s.actions?.length ?? 0) })),
    edges: wf.states.flatMap((s) =>
      (s.next ?? []).filter((n) => names.has(n) && n !== s.name).map((n, i) => ({ id: `${s.name}\u0000${n}\u0000${i}`, sources: [s.name], targets: [n] })),
    ),
  };
  const out = await elk.layout(graph);
  const positions: Positions = new Map();
  for (const c of out.children ?? []) positions.set(c.id, { x: c.x ?? 0, y: c.y ?? 0 });
  return positions;
}

/** Lays out a small graph once while the app is idle, so the first real layout does not
 * pay for ELK's start-up (about half of a 300-state layout when cold). */
export function warmUpLayout() {
  const states = Array.from({ length: 30 }, (_, i) => ({ name: `w${i}`, checks: [], next: i < 29 ? [`w${i + 1}`] : [] }));
  const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 200));
  idle(() => void layout({ version: 1, name: 'warm-up', states } as unknown as Workflow));
}
