import { describe, expect, it } from 'vitest';
import type { Workflow } from '../bindings';
import { backEdges, edgeKey, flowEdges } from './flow';

const wf = (states: { name: string; next?: string[]; interrupt?: boolean }[]) => ({ version: 1, name: 'w', states: states.map((s) => ({ checks: [], ...s })) }) as unknown as Workflow;
const keys = (s: Set<string>) => [...s].map((k) => k.replace('\u0000', '>')).sort();

describe('the flow', () => {
  it('is the next edges between distinct states that are not interrupts, each once', () => {
    const w = wf([
      { name: 'A', next: ['B', 'B', 'A', 'Popup', 'Nowhere'] },
      { name: 'B', next: ['A'] },
      { name: 'Popup', interrupt: true, next: ['A'] },
    ]);
    expect(flowEdges(w)).toEqual([
      { from: 'A', to: 'B' },
      { from: 'B', to: 'A' },
    ]);
  });

  it('leads back where a depth-first walk from the start meets a state still on its path', () => {
    // Start → Search → Loading → Results, and Loading → Search again.
    const w = wf([
      { name: 'Results' },
      { name: 'Loading', next: ['Results', 'Search'] },
      { name: 'Search', next: ['Loading'] },
      { name: 'Start', next: ['Search'] },
    ]);
    expect(keys(backEdges(w, flowEdges(w)))).toEqual(['Loading>Search']);
  });

  it('finds no back edge in a flow without cycles, however its edges cross', () => {
    const w = wf([
      { name: 'D' },
      { name: 'C', next: ['D'] },
      { name: 'B', next: ['C', 'D'] },
      { name: 'A', next: ['C', 'B'] },
    ]);
    expect(backEdges(w, flowEdges(w)).size).toBe(0);
  });

  it('walks a long chain without running out of stack', () => {
    const n = 20000;
    const w = wf(Array.from({ length: n }, (_, i) => ({ name: `S${i}`, next: [`S${(i + 1) % n}`] })));
    expect(keys(backEdges(w, flowEdges(w)))).toEqual([edgeKey(`S${n - 1}`, 'S0').replace('\u0000', '>')]);
  });
});
