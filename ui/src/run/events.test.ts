import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunDetail } from '../bindings';
import { eventsFromDetail } from './events';
import { emptyRun, reduceAll } from './reducer';

// A real run of workflows/demo-shop.json, as `statewright runs show --json` printed it (its
// last step's two extracts added by hand until it is re-recorded: see the fixture's note).
const detail = JSON.parse(readFileSync(new URL('../../fixtures-public/fixtures/demo-run/recording.json', import.meta.url), 'utf8')).detail as RunDetail;

describe('past runs through the live reducer', () => {
  it('rebuilds every step, action and screenshot of a stored run', () => {
    const view = reduceAll(emptyRun, eventsFromDetail(detail));
    expect(view.phase).toBe(detail.run.status);
    expect(view.steps.map((s) => s.state)).toEqual(detail.steps.map((s) => s.state));
    expect(view.steps.map((s) => s.screenshot)).toEqual(detail.steps.map((s) => s.screenshot));
    expect(view.steps.flatMap((s) => s.actions)).toHaveLength(detail.actions.length);
    expect(view.activeState).toBe(detail.run.end_state);
    expect(view.notices.filter((n) => n.kind === 'unknown')).toEqual([]);
  });
});

describe('what stored runs extracted', () => {
  const load = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures-public/fixtures/${name}/recording.json`, import.meta.url), 'utf8')).detail as RunDetail;

  it('puts each extract’s value back on its action and the run’s outputs on its end', () => {
    const view = reduceAll(emptyRun, eventsFromDetail(detail));
    const confirmed = view.steps.find((s) => s.state === 'Order confirmed')!;
    expect(confirmed.actions.map((a) => [a.action?.type, a.value])).toEqual([
      ['extract', 'NW-542052'],
      ['extract', '78.00'],
    ]);
    expect(view.outputs).toEqual({ order_number: 'NW-542052', total: '78.00' });
    expect(view.steps[0].actions[0].value).toBeUndefined();
  });

  it('keeps counts, lists and tables as the JSON they were read as', () => {
    const orders = load('demo-orders');
    const view = reduceAll(emptyRun, eventsFromDetail(orders));
    expect(view.outputs).toEqual(orders.run.outputs);
    expect(view.outputs.shown_rows).toBe(4);
    expect(view.outputs.order_numbers).toHaveLength(4);
    expect((view.outputs.orders as Record<string, string>[])[0]).toMatchObject({ Order: 'NW-204871', Status: 'Shipped' });
  });

  it('has no outputs for a record from before extraction', () => {
    const old = { ...detail, run: { ...detail.run, outputs: undefined }, actions: detail.actions.map(({ value: _, ...a }) => a) } as unknown as RunDetail;
    expect(reduceAll(emptyRun, eventsFromDetail(old)).outputs).toEqual({});
  });
});

describe('what stored runs healed', () => {
  const step = (n: number) => detail.steps[n].step;
  const state = (n: number) => detail.steps[n].state;
  const healed = {
    ...detail,
    healed: [{ step: step(2), state: state(2), index: 0, field: 'target', from: { css: '#old' }, to: { css: '#new' } }],
    healed_checks: [{ step: null, state: state(1), index: 0, from: { type: 'element', selector: '#a' }, to: { type: 'element', selector: '#b' } }],
  } as RunDetail;

  it('counts each heal on the run and on its step, so Save healed is offered for a past run', () => {
    const view = reduceAll(emptyRun, eventsFromDetail(healed));
    expect(view.help.heals).toBe(2);
    expect(view.steps[2].help.heals).toBe(1);
    expect(view.steps[2].actions.find((a) => a.index === 0)?.healedTo).toEqual({ css: '#new' });
  });

  it('puts a heal from before steps were kept on the last step of its state', () => {
    const view = reduceAll(emptyRun, eventsFromDetail(healed));
    const last = detail.steps.filter((s) => s.state === state(1)).at(-1)!.step;
    expect(view.steps.find((s) => s.step === last)?.help.heals).toBe(1);
  });

  it('has none for a record from before heals were kept', () => {
    expect(reduceAll(emptyRun, eventsFromDetail(detail)).help.heals).toBe(0);
  });
});

describe('what stored runs retried', () => {
  const at = detail.steps[1];
  const retried = {
    ...detail,
    retries: [
      { step: at.step, state: at.state, attempt: 1, max: 2, reason: 'still there' },
      { step: at.step, state: at.state, attempt: 2, max: 2, reason: 'still there' },
    ],
  } as RunDetail;

  it('counts each retry on the run and on its step, with its reason', () => {
    const view = reduceAll(emptyRun, eventsFromDetail(retried));
    expect(view.help.retries).toBe(2);
    const step = view.steps.find((s) => s.step === at.step)!;
    expect(step.help.retries).toBe(2);
    expect(step.notices.filter((n) => n.kind === 'retrying').map((n) => n.text)).toEqual([`${at.state}: retry 1/2 — still there`, `${at.state}: retry 2/2 — still there`]);
  });

  it('has none for a record from before retries were kept', () => {
    expect(reduceAll(emptyRun, eventsFromDetail(detail)).help.retries).toBe(0);
  });
});

describe('the tabs stored runs opened', () => {
  const at = detail.steps[1];
  const url = 'http://127.0.0.1:4000/account?session=***';
  const tabbed = { ...detail, tabs_opened: [{ step: at.step, state: at.state, index: 0, url }] } as RunDetail;

  it('puts each on the step whose action opened it', () => {
    const view = reduceAll(emptyRun, eventsFromDetail(tabbed));
    expect(view.steps.filter((s) => s.tabs.length).map((s) => [s.step, s.tabs])).toEqual([[at.step, [url]]]);
  });

  it('has none for a record from before tabs were kept', () => {
    expect(reduceAll(emptyRun, eventsFromDetail(detail)).steps.every((s) => s.tabs.length === 0)).toBe(true);
  });
});
