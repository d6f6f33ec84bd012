import { describe, expect, it } from 'vitest';
import type { State, Workflow } from '../bindings';
import { searchStates } from './search';

/** A state that counts how often its checks are read. */
function counted(name: string, url: string, reads: { n: number }): State {
  const checks = [{ type: 'url', match: 'prefix', value: url }];
  return new Proxy({ name, checks } as unknown as State, {
    get: (t, k) => (k === 'checks' && reads.n++, Reflect.get(t, k)),
  });
}

describe('searching states', () => {
  it('lists name hits first, then states found by a check', () => {
    const reads = { n: 0 };
    const wf = { version: 1, name: 'w', states: [counted('Home', 'https://shop/cart', reads), counted('Cart', 'https://shop/basket', reads)] } as unknown as Workflow;
    expect(searchStates(wf, 'cart')).toEqual(['Cart', 'Home']);
    expect(searchStates(wf, 'BASKET')).toEqual(['Cart']);
    expect(searchStates(wf, '  ')).toEqual([]);
  });

  it('reads each state once while it is unchanged, and an edited state again', () => {
    const reads = { n: 0 };
    const states = Array.from({ length: 100 }, (_, i) => counted(`S${i}`, `https://x/${i}`, reads));
    const wf = { version: 1, name: 'w', states } as unknown as Workflow;
    expect(searchStates(wf, 'x/42')).toEqual(['S42']);
    const first = reads.n;
    expect(searchStates(wf, 'x/4')).toHaveLength(11);
    expect(reads.n).toBe(first);
    // An edit makes a new state object: that one is read, no other.
    const edited = { ...wf, states: states.map((st, i) => (i === 7 ? counted('S7', 'https://y/7', reads) : st)) };
    expect(searchStates(edited, 'y/7')).toEqual(['S7']);
    const oneState = reads.n - first;
    expect(oneState).toBeGreaterThan(0);
    expect(oneState).toBeLessThanOrEqual(first / 100);
  });
});
