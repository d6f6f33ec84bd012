import type { ReactFlowState } from '@xyflow/react';
import { describe, expect, it } from 'vitest';
import { edgesNear, nearView, parseArea } from './nearEdges';

const view = (x: number, y: number, zoom = 1) => nearView({ transform: [-x * zoom, -y * zoom, zoom], width: 1000, height: 600 } as unknown as ReactFlowState)!;

describe('the edges drawn near the view', () => {
  it('holds the view and half of it again on every side, and moves only now and then', () => {
    const a = parseArea(view(5000, 3000));
    expect(a.x).toBeLessThanOrEqual(5000 - 500);
    expect(a.y).toBeLessThanOrEqual(3000 - 300);
    expect(a.x + a.width).toBeGreaterThanOrEqual(6000 + 500);
    expect(a.y + a.height).toBeGreaterThanOrEqual(3600 + 300);
    // Beyond the view by two views at most.
    expect(a.x).toBeGreaterThanOrEqual(5000 - 2000);
    expect(a.x + a.width).toBeLessThanOrEqual(6000 + 2000);
    expect(view(5010, 3010)).toBe(view(5000, 3000));
    expect(view(6000, 3000)).not.toBe(view(5000, 3000));
    // Zoomed out, the area grows with the view.
    expect(parseArea(view(5000, 3000, 0.25)).width).toBeGreaterThanOrEqual(4000 * 2);
  });

  it('keeps the edges with a state in the area at either end, or a state not placed yet', () => {
    const positions = new Map([
      ['in', { x: 100, y: 100 }],
      ['far', { x: 90_000, y: 0 }],
      ['farther', { x: 0, y: 90_000 }],
    ]);
    const edges = [
      { id: 'a', source: 'in', target: 'far' },
      { id: 'b', source: 'far', target: 'in' },
      { id: 'c', source: 'far', target: 'farther' },
      { id: 'd', source: 'far', target: 'new' },
    ];
    expect(edgesNear(edges, positions, { x: 0, y: 0, width: 2000, height: 2000 }).map((e) => e.id)).toEqual(['a', 'b', 'd']);
  });
});
