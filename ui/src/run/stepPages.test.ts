import { describe, expect, it } from 'vitest';
import type { PageRecord } from '../bindings';
import { FakeBackend } from '../backend/fake';
import { eventsFromDetail } from './events';
import { stepElementsOf } from './stepPages';

const page = (step: number): PageRecord => ({ url: `http://x/${step}`, title: `page ${step}`, text: 'lots of text', elements: [{ id: `e${step}` }] });

describe('a stored run’s pages, one step at a time', () => {
  it('asks for each step’s page once, even while the first ask is under way', async () => {
    const asked: number[] = [];
    const elements = stepElementsOf(async (step) => {
      asked.push(step);
      return step === 3 ? null : page(step);
    });
    const [a, b] = await Promise.all([elements(2), elements(2)]);
    expect(a).toEqual([{ id: 'e2' }]);
    expect(b).toBe(a);
    expect(await elements(3)).toBeNull();
    await elements(2);
    expect(asked).toEqual([2, 3]);
  });

  it('asks again after a failure', async () => {
    let fail = true;
    const elements = stepElementsOf(async (step) => {
      if (fail) throw new Error('the store is busy');
      return page(step);
    });
    await expect(elements(1)).rejects.toThrow('busy');
    fail = false;
    expect(await elements(1)).toEqual([{ id: 'e1' }]);
  });

  it('a stored run opens without its pages, and its steps’ elements are not yet known', async () => {
    const detail = {
      run: { id: 'r1', workflow: 'w', status: 'succeeded', started_ms: 0, finished_ms: 1, outputs: {} },
      steps: [{ step: 1, state: 'Start', state_index: 0, visit: 1, elapsed_ms: 0, entered_ms: 0, url: 'http://x/1', checks: [], screenshot: null, page_title: 'page 1', page: page(1) }],
      actions: [],
      model_calls: [],
      healed: [],
      healed_checks: [],
      retries: [],
    } as unknown as Parameters<typeof eventsFromDetail>[0];
    const backend = new FakeBackend({ recording: { detail } });
    const opened = await backend.openRun('r1');
    expect(opened.steps[0]).not.toHaveProperty('page');
    const observed = eventsFromDetail(opened).find((e) => e.event === 'observed') as { elements: unknown; title: string };
    expect(observed.elements).toBeNull();
    expect(observed.title).toBe('page 1');
    expect(await stepElementsOf((step) => backend.openStepPage('r1', step))(1)).toEqual([{ id: 'e1' }]);
  });
});
