import { describe, expect, it } from 'vitest';
import { type Box, freeSpot, GAP } from './placement';

const size = { width: 250, height: 62 };
const clear = (a: Box, b: Box) => a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

describe('freeSpot', () => {
  it('puts a node just below the selected one when that is free', () => {
    const sel = { x: 100, y: 100, width: 250, height: 80 };
    expect(freeSpot([sel], sel, size)).toEqual({ x: 100, y: 100 + 80 + GAP });
  });

  it('moves aside when the spot below is taken, and stays close', () => {
    const sel = { x: 0, y: 0, width: 250, height: 80 };
    const below = { x: 0, y: 120, width: 250, height: 80 };
    const spot = freeSpot([sel, below], sel, size);
    const placed = { ...spot, ...size };
    expect(clear(placed, sel) && clear(placed, below)).toBe(true);
    expect(Math.hypot(spot.x, spot.y)).toBeLessThan(500);
  });

  it('centres on a point (the middle of the view) when nothing is selected', () => {
    expect(freeSpot([], { x: 500, y: 300 }, size)).toEqual({ x: 375, y: 269 });
  });

  it('never overlaps in a crowded grid', () => {
    const taken: Box[] = [];
    for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) taken.push({ x: i * 280, y: j * 120, width: 250, height: 80 });
    const spot = freeSpot(taken, taken[27], size);
    for (const t of taken) expect(clear({ ...spot, ...size }, t)).toBe(true);
  });
});
