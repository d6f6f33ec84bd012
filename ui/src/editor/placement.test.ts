import { describe, expect, it } from 'vitest';
import { type Box, freeSpot, GAP, panToShow } from './placement';

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

describe('panToShow', () => {
  const view = { x: 0, y: 0, width: 800, height: 600 };
  it('leaves the view alone when the box is in it', () => {
    expect(panToShow({ x: 100, y: 100, width: 250, height: 62 }, view)).toEqual({ x: 0, y: 0 });
  });
  it('moves down just enough to show a box below the view, with the margin', () => {
    expect(panToShow({ x: 100, y: 580, width: 250, height: 62 }, view)).toEqual({ x: 0, y: 580 + 62 + GAP - 600 });
  });
  it('moves left and up to show a box beyond the top-left corner', () => {
    expect(panToShow({ x: -300, y: -10, width: 250, height: 62 }, view)).toEqual({ x: -300 - GAP, y: -10 - GAP });
  });
  it('shows the top-left corner of a box larger than the view', () => {
    expect(panToShow({ x: 50, y: 50, width: 1000, height: 62 }, view)).toEqual({ x: 50, y: 0 });
  });
  it('puts what it shows inside the view', () => {
    const box = { x: 1200, y: 900, width: 250, height: 62 };
    const d = panToShow(box, view);
    const moved = { ...view, x: view.x + d.x, y: view.y + d.y };
    expect(box.x >= moved.x && box.y >= moved.y && box.x + box.width <= moved.x + moved.width && box.y + box.height <= moved.y + moved.height).toBe(true);
  });
});
