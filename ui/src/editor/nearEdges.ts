//! In plain layers (coarseLayout.ts) edges run between any two layers: at 10,000 states
//! thousands of them cross any view, and React Flow draws every edge whose bounding box meets
//! the view (4,677 after a search centred a state; a pan there took up to 0.7 s a frame).
//! There the canvas draws only the edges of states near the view; the others appear as the
//! view reaches one of their states.

import type { ReactFlowState } from '@xyflow/react';
import type { Box, Positions } from './geometry';
import { NODE_WIDTH } from './nodeSize';

/** Taller than any state's box (nodeSize.ts: at most 46 + 10 lines of 16). */
const TALLEST = 210;

/** The area whose states' edges are drawn: the view and at least half of it again on every
 * side, on a grid of a power of two, so that a pan moves it only every half a view or so,
 * and a zoom only when the scale doubles. As a string, so the store compares it by value. */
export function nearView({ transform: [tx, ty, zoom], width, height }: ReactFlowState): string | null {
  if (!width || !height) return null;
  const w = width / zoom;
  const h = height / zoom;
  const cell = 2 ** Math.ceil(Math.log2(Math.max(w, h) / 2));
  const x = -tx / zoom;
  const y = -ty / zoom;
  const x0 = Math.floor((x - cell) / cell) * cell;
  const y0 = Math.floor((y - cell) / cell) * cell;
  return `${x0} ${y0} ${Math.ceil((x + w + cell) / cell) * cell - x0} ${Math.ceil((y + h + cell) / cell) * cell - y0}`;
}

export function parseArea(area: string): Box {
  const [x, y, width, height] = area.split(' ').map(Number);
  return { x, y, width, height };
}

/** The edges with a state in `area` at either end, or whose state has no place yet. */
export function edgesNear<E extends { source: string; target: string }>(edges: E[], positions: Positions, area: Box): E[] {
  const near = (state: string) => {
    const p = positions.get(state);
    return !p || (p.x + NODE_WIDTH >= area.x && p.x <= area.x + area.width && p.y + TALLEST >= area.y && p.y <= area.y + area.height);
  };
  return edges.filter((e) => near(e.source) || near(e.target));
}
