// Which layout a workflow gets by its size, and what the plain layers of a large one look
// like. A stand-in engine records whether ELK was asked (and refuses the large graphs, which
// it would take minutes over), so no test depends on how fast anything runs.
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../bindings';
import { MOST_COLUMNS } from './coarseLayout';
import { computeLayout, ELK_MOST_NODES, type ElkEngine, type Layout } from './elkLayout';
import { type Box, overlaps } from './geometry';
import { NODE_WIDTH, stateHeight } from './nodeSize';

function workflow(n: number, next: (i: number) => number[], interrupts = 0): Workflow {
  const states = Array.from({ length: n }, (_, i) => ({
    name: `s${i}`,
    checks: [{ type: 'url', match: 'prefix', value: i ? `https://x/${i}` : 'about:blank' }],
    actions: Array.from({ length: i % 3 }, () => ({ type: 'click', target: { css: '#go' } })),
    next: next(i).map((j) => `s${j}`),
  }));
  const apart = Array.from({ length: interrupts }, (_, i) => ({ name: `popup${i}`, interrupt: true, checks: [{ type: 'text', value: 'Accept' }], actions: [] }));
  return { version: 1, name: 'large', states: [...states, ...apart] } as unknown as Workflow;
}

/** Two edges a state: from a random earlier state (all reachable from s0), to any state. */
function random(n: number, seed = 7): Workflow {
  let r = seed;
  const rand = () => ((r = (r * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const next: number[][] = Array.from({ length: n }, () => []);
  for (let i = 1; i < n; i++) next[Math.floor(rand() * i)].push(i);
  for (let i = 0; i < n; i++) next[i].push(Math.floor(rand() * n));
  return workflow(n, (i) => next[i]);
}

/** ELK as far as the choice goes: records what it was given, lays states in a column. */
function recording(refuse = false) {
  const asked: string[] = [];
  const engine: ElkEngine = {
    layout: async (graph) => {
      asked.push(graph.layoutOptions?.['elk.algorithm'] ?? '');
      if (refuse) throw new Error('ELK asked for a graph it would take minutes over');
      return { ...graph, width: NODE_WIDTH, children: graph.children?.map((c, i) => ({ ...c, x: 0, y: i * 200 })), edges: [] };
    },
  };
  return { engine, asked };
}

const boxes = (wf: Workflow, laid: Layout): Box[] => wf.states.map((s) => ({ ...laid.positions.get(s.name)!, width: NODE_WIDTH, height: stateHeight(s) }));

/** Two boxes that overlap, if any: each box is compared with those in the grid cells it
 * touches, so that 10,000 states are checked in linear time. */
function overlapping(all: Box[]): [Box, Box] | null {
  const cells = new Map<string, Box[]>();
  const [w, h] = [NODE_WIDTH, 100];
  for (const b of all)
    for (let cx = Math.floor(b.x / w); cx <= Math.floor((b.x + b.width) / w); cx++)
      for (let cy = Math.floor(b.y / h); cy <= Math.floor((b.y + b.height) / h); cy++) {
        const cell = cells.get(`${cx},${cy}`) ?? [];
        const other = cell.find((o) => overlaps(o, b));
        if (other) return [other, b];
        cells.set(`${cx},${cy}`, [...cell, b]);
      }
  return null;
}

/** The states (by index) not below the state they follow. */
const notBelow = (laid: Layout, n: number, parent: (i: number) => number) =>
  Array.from({ length: n - 1 }, (_, j) => j + 1).filter((i) => !(laid.positions.get(`s${i}`)!.y > laid.positions.get(`s${parent(i)}`)!.y));

describe('the layout chosen by size', () => {
  it('keeps ELK’s layered layout for hundreds of states going forward, and for the demo’s shape', async () => {
    for (const wf of [workflow(300, (i) => (i < 299 ? [i + 1, ...(i % 7 === 0 && i + 5 < 300 ? [i + 5] : [])] : [0])), random(40)]) {
      const { engine, asked } = recording();
      const laid = await computeLayout(engine, wf);
      expect(asked).toEqual(['layered']);
      expect(laid.coarse).toBe(false);
    }
  });

  it('lays out plain layers, without asking ELK, when ELK’s graph would be too large', async () => {
    for (const wf of [random(2000), random(300), workflow(ELK_MOST_NODES + 1, (i) => [i + 1])]) {
      const { engine, asked } = recording(true);
      const laid = await computeLayout(engine, wf);
      expect(asked).toEqual([]);
      expect(laid.coarse).toBe(true);
      expect(laid.routes.size).toBe(0);
    }
  });

  it('lays out plain layers when ELK runs out of stack, and fails with ELK’s other errors', async () => {
    const wf = workflow(50, (i) => [i + 1]);
    const failing = (e: Error): ElkEngine => ({ layout: async () => Promise.reject(e) });
    const laid = await computeLayout(failing(new RangeError('Maximum call stack size exceeded')), wf);
    expect(laid.coarse).toBe(true);
    expect(notBelow(laid, 50, (i) => i - 1)).toEqual([]);
    await expect(computeLayout(failing(new Error('unknown layout option')), wf)).rejects.toThrow('unknown layout option');
  });
});

describe('a large workflow in plain layers', () => {
  it('gives 2,000 random states each a finite place, none overlapping, the start on top', async () => {
    const wf = random(2000);
    const laid = await computeLayout(recording(true).engine, wf);
    expect(laid.positions.size).toBe(2000);
    for (const p of laid.positions.values()) expect(Number.isFinite(p.x) && Number.isFinite(p.y)).toBe(true);
    expect(overlapping(boxes(wf, laid))).toBeNull();
    const top = Math.min(...[...laid.positions.values()].map((p) => p.y));
    expect(laid.positions.get('s0')!.y).toBe(top);
    // Rows wrap: a picture a person can pan across, not one row of hundreds of states.
    const xs = [...laid.positions.values()].map((p) => p.x);
    expect(Math.max(...xs) - Math.min(...xs)).toBeLessThan(MOST_COLUMNS * (NODE_WIDTH + 30));
  });

  it('runs a chain down the page, each state below the one before, loops aside', async () => {
    const n = 10_000;
    const wf = workflow(n, (i) => (i < n - 1 ? [i + 1, ...(i % 100 === 99 ? [i - 50] : [])] : [0]));
    const laid = await computeLayout(recording(true).engine, wf);
    expect(laid.coarse).toBe(true);
    expect(notBelow(laid, n, (i) => i - 1)).toEqual([]);
    expect(overlapping(boxes(wf, laid))).toBeNull();
  });

  it('puts a tree’s children a layer below their parent, under it, and the interrupts above', async () => {
    // A binary tree of 4,095 states, and from each leaf a loop back to the root.
    const n = 4095;
    const wf = workflow(n, (i) => (2 * i + 2 < n ? [2 * i + 1, 2 * i + 2] : [0]), 3);
    const laid = await computeLayout(recording(true).engine, wf);
    expect(laid.coarse).toBe(true);
    const y = (i: number) => laid.positions.get(`s${i}`)!.y;
    expect(notBelow(laid, n, (i) => Math.floor((i - 1) / 2))).toEqual([]);
    // Siblings in their parents' order: the left subtree's leaves before the right one's.
    const x = (i: number) => laid.positions.get(`s${i}`)!.x;
    expect(x(1)).toBeLessThan(x(2));
    expect(x(3)).toBeLessThan(x(6));
    expect(laid.lane).not.toBeNull();
    for (let i = 0; i < 3; i++) expect(laid.positions.get(`popup${i}`)!.y).toBeLessThan(y(0));
    expect(overlapping(boxes(wf, laid))).toBeNull();
  });
});
