import { describe, expect, it } from 'vitest';
import { overlaps } from './geometry';
import { placeInterrupts } from './lane';

const popup = (id: string, height = 80) => ({ id, width: 250, height });

describe('the interrupt lane', () => {
  it('is not there without interrupts', () => {
    expect(placeInterrupts([], 600)).toBeNull();
  });

  it('sits above the flow, holding its interrupts in a row', () => {
    const { positions, lane } = placeInterrupts([popup('Consent'), popup('Expired', 110)], 800)!;
    expect(lane.y + lane.height).toBeLessThan(0);
    const boxes = ['Consent', 'Expired'].map((id) => ({ ...positions.get(id)!, width: 250, height: id === 'Consent' ? 80 : 110 }));
    expect(boxes[0].y).toBe(boxes[1].y);
    expect(overlaps(boxes[0], boxes[1])).toBe(false);
    for (const b of boxes) {
      expect(b.x).toBeGreaterThanOrEqual(lane.x);
      expect(b.x + b.width).toBeLessThanOrEqual(lane.x + lane.width);
      expect(b.y).toBeGreaterThan(lane.y + 20);
      expect(b.y + b.height).toBeLessThanOrEqual(lane.y + lane.height);
    }
  });

  it('wraps at the flow’s width, and is never narrower than one state', () => {
    const { positions, lane } = placeInterrupts([popup('A'), popup('B'), popup('C')], 600)!;
    expect(positions.get('A')!.y).toBe(positions.get('B')!.y);
    expect(positions.get('C')!.y).toBeGreaterThan(positions.get('A')!.y + 80);
    expect(lane.width).toBe(600);
    const narrow = placeInterrupts([popup('A'), popup('B')], 100)!;
    expect(narrow.lane.width).toBeGreaterThanOrEqual(250);
    expect(narrow.positions.get('B')!.y).toBeGreaterThan(narrow.positions.get('A')!.y);
  });
});
