//! The interrupt lane: interrupt states (a consent banner, a "session expired" modal) in a
//! labelled band above the flow, laid out on their own.
//!
//! Why apart and without edges: an interrupt is recognised before every other state and,
//! once handled, the run resumes where it was. Drawn in the flow, it collected an edge from
//! nearly every state (or from the one that happened to declare it) and pulled the layout
//! around itself; those edges carried no information about the way through. So the band
//! says once what holds for all of them, each interrupt carries a "from any state" marker,
//! and no edge is drawn to or from one. The band goes above the flow because interrupts are
//! checked first, and a layered flow runs down the page, so a row on top costs little room.

import type { Box, Positions } from './geometry';
import { NODE_WIDTH } from './nodeSize';

export const LANE_TITLE = 'Interrupts — checked before every state';
const PAD = 16;
const TITLE_HEIGHT = 30;
const GAP = 30;
/** Between the band and the flow's top. */
const MARGIN = 40;

export interface Sized {
  id: string;
  width: number;
  height: number;
}

/** Rows of interrupts left to right, wrapping at the flow's width, in a band whose bottom
 * sits `MARGIN` above the flow's top edge (y = 0). Null without interrupts. */
export function placeInterrupts(states: Sized[], flowWidth: number): { positions: Positions; lane: Box } | null {
  if (!states.length) return null;
  const room = Math.max(flowWidth - 2 * PAD, NODE_WIDTH);
  const positions: Positions = new Map();
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  let widest = 0;
  for (const s of states) {
    if (x > 0 && x + s.width > room) {
      y += rowHeight + GAP;
      x = 0;
      rowHeight = 0;
    }
    positions.set(s.id, { x, y });
    widest = Math.max(widest, x + s.width);
    rowHeight = Math.max(rowHeight, s.height);
    x += s.width + GAP;
  }
  const height = TITLE_HEIGHT + y + rowHeight + PAD;
  const lane = { x: 0, y: -MARGIN - height, width: Math.max(flowWidth, widest + 2 * PAD), height };
  for (const [id, p] of positions) positions.set(id, { x: lane.x + PAD + p.x, y: lane.y + TITLE_HEIGHT + p.y });
  return { positions, lane };
}
