import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Action, Check, Workflow } from '../bindings';
import { fakeValidate, workflowVariables } from './validate';

// The demo workflow that reads the order history in every way the extract action can.
const demoOrders = JSON.parse(readFileSync(new URL('../../../workflows/demo-orders.json', import.meta.url), 'utf8')) as Workflow;

/** A two-state workflow whose first state runs `actions` and whose end checks `checks`. */
const wf = (actions: Action[], checks: Check[] = [{ type: 'text', value: 'done' }]): Workflow =>
  ({
    version: 1,
    name: 'w',
    parameters: { site: { default: 'http://x' } },
    states: [
      { name: 'Done', checks, terminal: { outcome: 'success' } },
      { name: 'Start', checks: [{ type: 'url', value: 'about:blank' }], actions, next: ['Done'] },
    ],
  }) as Workflow;

const read: Action = { type: 'extract', target: { css: '#total' }, into: 'total' };
const messages = (w: Workflow) => fakeValidate(w).map((d) => `${d.path}: ${d.message}`);

describe('fake validation of run variables', () => {
  it('accepts the demo workflows, which reference only what they extract', () => {
    expect(workflowVariables(demoOrders)).toEqual(['order_count', 'spent', 'shown_rows', 'order_numbers', 'orders', 'status_filter', 'newest_order', 'newest_order_link']);
    expect(fakeValidate(demoOrders)).toEqual([]);
    const shop = JSON.parse(readFileSync(new URL('../../../workflows/demo-shop.json', import.meta.url), 'utf8')) as Workflow;
    expect(fakeValidate(shop)).toEqual([]);
  });

  it('lets later actions and checks reference an extracted variable, and names an undefined one', () => {
    expect(messages(wf([read, { type: 'navigate_to', url: '{{site}}/pay?t={{total}}' }], [{ type: 'url', value: '{{site}}/{{total}}' }]))).toEqual([]);
    const typo = fakeValidate(wf([read, { type: 'navigate_to', url: '{{site}}/{{totl}}' }]));
    expect(typo).toEqual([expect.objectContaining({ path: 'states[1].actions[1].url', message: 'reference to undefined parameter or variable `totl`', help: 'did you mean `total`?' })]);
    expect(messages(wf([], [{ type: 'text', value: 'hello {{nobody}}' }]))).toEqual(['states[0].checks[0].value: reference to undefined parameter or variable `nobody`']);
    expect(messages(wf([{ type: 'click', target: { css: '#row-{{id}}' } }]))).toEqual(['states[1].actions[0].target.css: reference to undefined parameter or variable `id`']);
  });

  it('wants a variable name that is an identifier and not a parameter', () => {
    expect(messages(wf([{ ...read, into: 'the total' } as Action]))).toEqual(['states[1].actions[0].into: `the total` is not a valid variable name']);
    expect(messages(wf([{ ...read, into: 'site' } as Action]))).toEqual(["states[1].actions[0].into: `site` is a parameter; a run's parameters are not overwritten"]);
  });

  it('wants an attribute exactly when an attribute is read, and a pattern only on one text', () => {
    expect(messages(wf([{ ...read, read: 'attribute' } as Action]))).toEqual(["states[1].actions[0]: `read: attribute` needs the attribute's name"]);
    expect(messages(wf([{ ...read, read: 'attribute', attribute: 'href' } as Action]))).toEqual([]);
    expect(messages(wf([{ ...read, attribute: 'href' } as Action]))).toEqual(['states[1].actions[0].attribute: `attribute` is only read with "read": "attribute"']);
    expect(messages(wf([{ ...read, read: 'list', pattern: '\\d+' } as Action]))).toEqual(['states[1].actions[0].pattern: a `pattern` narrows one text: it needs `read` text, attribute or value']);
    expect(messages(wf([{ ...read, read: 'value', pattern: '(' } as Action]))).toEqual(['states[1].actions[0].pattern: invalid pattern']);
  });

  it('checks that a variable check names something known and compares numbers with a number', () => {
    expect(messages(wf([read], [{ type: 'variable', name: 'total', match: 'at_least', value: '100' }]))).toEqual([]);
    expect(messages(wf([read], [{ type: 'variable', name: 'site', value: '' }]))).toEqual([]);
    const unknown = fakeValidate(wf([read], [{ type: 'variable', name: 'totals', value: '1' }]));
    expect(unknown).toEqual([expect.objectContaining({ path: 'states[0].checks[0].name', message: 'no variable or parameter `totals`', help: 'did you mean `total`?' })]);
    expect(messages(wf([read], [{ type: 'variable', name: 'total', match: 'greater_than', value: 'lots' }]))).toEqual(['states[0].checks[0].value: `lots` has no number to compare with']);
  });
});
