// Large generated workflows through everything the layout does besides ELK's own work (a
// stand-in engine puts the states in a row): ordering the flow and finding its loops must
// stay linear, or a state leading to thousands of others holds the layout up for minutes.
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../bindings';
import { computeLayout, type ElkEngine } from './elkLayout';
import { backEdges, edgeKey, flowEdges } from './flow';

const inRow: ElkEngine = {
  layout: async (graph) => ({ ...graph, children: graph.children?.map((c, i) => ({ ...c, x: i * 300, y: 0 })), edges: [] }),
};

function workflow(n: number, next: (i: number) => number[]): Workflow {
  const states = Array.from({ length: n }, (_, i) => ({
    name: `s${i}`,
    checks: [{ type: 'url', match: 'prefix', value: i ? `https://x/${i}` : 'about:blank' }],
    actions: [],
    next: next(i).map((j) => `s${j}`),
  }));
  return { version: 1, name: 'large', states } as unknown as Workflow;
}

describe('a large workflow laid out', () => {
  it('a hub leading to 20,000 states, each leading back to it', async () => {
    const n = 20_001;
    const wf = workflow(n, (i) => (i === 0 ? Array.from({ length: n - 1 }, (_, j) => j + 1) : [0]));
    const edges = flowEdges(wf);
    const back = backEdges(wf, edges);
    expect(edges.length).toBe(2 * (n - 1));
    expect(back.size).toBe(n - 1);
    expect(back.has(edgeKey('s5', 's0'))).toBe(true);
    const laid = await computeLayout(inRow, wf);
    expect(laid.positions.size).toBe(n);
  });

  it('a chain of 50,000 states', async () => {
    const n = 50_000;
    const wf = workflow(n, (i) => (i < n - 1 ? [i + 1] : [0]));
    const back = backEdges(wf, flowEdges(wf));
    expect([...back]).toEqual([edgeKey(`s${n - 1}`, 's0')]);
    const laid = await computeLayout(inRow, wf);
    expect(laid.positions.size).toBe(n);
  });
});
