// The real ELK (the bundle the worker loads) on the demo workflow.
import { readFileSync } from 'node:fs';
import ELK from 'elkjs/lib/elk.bundled.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workflow } from '../bindings';
import { computeLayout, type Layout } from './elkLayout';
import { edgeKey, flowEdges } from './flow';
import { type Box, overlaps, sideOf } from './geometry';
import { NODE_WIDTH, stateHeight } from './nodeSize';

const demo = JSON.parse(readFileSync(new URL('../../../workflows/demo-shop.json', import.meta.url), 'utf8')) as Workflow;
let laid: Layout;
const box = (name: string): Box => ({ ...laid.positions.get(name)!, width: NODE_WIDTH, height: stateHeight(demo.states.find((s) => s.name === name)!) });

beforeAll(async () => {
  laid = await computeLayout(new ELK(), demo);
}, 30000);

describe('the demo workflow laid out', () => {
  it('routes every flow edge in horizontal and vertical segments, from border to border', () => {
    const edges = flowEdges(demo);
    expect(laid.routes.size).toBe(edges.length);
    for (const e of edges) {
      const r = laid.routes.get(edgeKey(e.from, e.to))!;
      for (const [i, b] of r.points.slice(1).entries()) {
        const a = r.points[i];
        expect(Math.abs(a.x - b.x) < 0.01 || Math.abs(a.y - b.y) < 0.01, `${e.from} → ${e.to}: segment ${i} is slanted`).toBe(true);
      }
      expect(sideOf(r.points[0], box(e.from)), `${e.from} → ${e.to} leaves its source's border`).not.toBeNull();
      expect(sideOf(r.points.at(-1)!, box(e.to)), `${e.from} → ${e.to} ends on its target's border`).not.toBeNull();
    }
  });

  it('sends the flow down the page and its one loop back up the right-hand side', () => {
    const sides = (key: string) => {
      const [from, to] = key.split('\u0000');
      const { points } = laid.routes.get(key)!;
      return [sideOf(points[0], box(from)), sideOf(points.at(-1)!, box(to))];
    };
    const loop = edgeKey('Results loading', 'Search page');
    expect(sides(loop)).toEqual(['right', 'right']);
    expect(box('Search page').y).toBeLessThan(box('Results loading').y);
    for (const key of laid.routes.keys()) if (key !== loop) expect(sides(key), key).toEqual(['bottom', 'top']);
  });

  it('keeps the consent popup apart, in a lane above the flow, and overlaps nothing', () => {
    expect(laid.lane).not.toBeNull();
    const flow = demo.states.filter((s) => !s.interrupt).map((s) => box(s.name));
    const popup = box('Consent popup');
    expect(overlaps(popup, laid.lane!)).toBe(true);
    for (const b of flow) expect(overlaps(b, laid.lane!)).toBe(false);
    expect([...laid.routes.keys()].some((k) => k.split('\u0000').includes('Consent popup'))).toBe(false);
    const all = [...flow, popup];
    for (const [i, a] of all.entries()) for (const b of all.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
  });
});
