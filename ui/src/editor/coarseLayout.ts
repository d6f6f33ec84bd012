//! The layout of a flow too large for ELK (elkLayout.ts decides): plain layers, in time
//! linear in the states and edges. ELK's layered algorithm makes a dummy node at every layer
//! a long edge crosses and spends most of its time on those; a random workflow of 2,000
//! states took it over two minutes. Here each state sits one layer below the lowest state
//! leading to it (longest path, the loops set aside), so every edge but a loop points down
//! the page and the start is on top; a layer wider than `MOST_COLUMNS` wraps into rows, and
//! the states of a layer are ordered by where the states leading to them are, which undoes
//! most crossings of a tree-like flow. No edge is routed: the canvas draws each one as a
//! plain step line between its states (RoutedEdge.tsx).

import type { FlowEdge } from './flow';
import { pushTo } from './flow';
import type { Positions } from './geometry';
import { NODE_WIDTH } from './nodeSize';

/** States side by side in one row of a layer before it wraps: 16 states are ~4,500 units
 * wide, which a person pans across; a layer of 500 in one row would be 140,000. */
export const MOST_COLUMNS = 16;
// The spacing ELK is given (elkLayout.ts), so both layouts look alike.
const COLUMN_GAP = 30;
const ROW_GAP = 30;
const LAYER_GAP = 50;

/** Each state's layer: one below the lowest of the states leading to it, so every forward
 * edge points down. `order`: the flow's states in an order every forward edge follows
 * (elkLayout's `downTheFlow`); `forward`: the edges that are not loops. */
export function layerOf(order: string[], forward: FlowEdge[]): Map<string, number> {
  const out = new Map<string, string[]>();
  for (const e of forward) pushTo(out, e.from, e.to);
  const layer = new Map<string, number>();
  for (const s of order) {
    const l = layer.get(s) ?? 0;
    layer.set(s, l);
    for (const to of out.get(s) ?? []) layer.set(to, Math.max(layer.get(to) ?? 0, l + 1));
  }
  return layer;
}

/** The layers as `layerOf` gives them, in rows of at most `MOST_COLUMNS`; `first`: the state
 * to put first on top (the start). Returns where each state goes and the widest row's width. */
export function coarseLayout(
  order: string[],
  forward: FlowEdge[],
  layer: Map<string, number>,
  height: (state: string) => number,
  first: string | null,
): { positions: Positions; width: number } {
  const into = new Map<string, string[]>();
  for (const e of forward) pushTo(into, e.to, e.from);
  const layers: string[][] = [];
  for (const s of order) (layers[layer.get(s)!] ??= []).push(s);
  // Layers are filled in `order`, so each one already lists its states in that order.
  if (first && layer.get(first) === 0) layers[0] = [first, ...layers[0].filter((s) => s !== first)];

  const pitch = NODE_WIDTH + COLUMN_GAP;
  const columns = Math.min(MOST_COLUMNS, layers.reduce((most, l) => Math.max(most, l.length), 0));
  const width = columns ? columns * pitch - COLUMN_GAP : 0;
  const positions: Positions = new Map();
  let y = 0;
  for (const [l, states] of layers.entries()) {
    if (l > 0) {
      // Under the states leading to them, left to right. Each has one in a layer above: that
      // is what put it in this layer.
      const rank = new Map(states.map((s, i) => [s, i]));
      const centre = new Map<string, number>();
      for (const s of states) {
        const from = into.get(s)!;
        centre.set(s, from.reduce((sum, f) => sum + positions.get(f)!.x, 0) / from.length);
      }
      states.sort((a, b) => centre.get(a)! - centre.get(b)! || rank.get(a)! - rank.get(b)!);
    }
    for (let row = 0; row * columns < states.length; row++) {
      const inRow = states.slice(row * columns, (row + 1) * columns);
      const left = ((columns - inRow.length) * pitch) / 2;
      let tallest = 0;
      for (const [col, s] of inRow.entries()) {
        positions.set(s, { x: left + col * pitch, y });
        tallest = Math.max(tallest, height(s));
      }
      y += tallest + ROW_GAP;
    }
    y += LAYER_GAP - ROW_GAP;
  }
  return { positions, width };
}
