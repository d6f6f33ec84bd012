import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Action, Check, Workflow } from '../bindings';
import { fakeValidate, isSkillName, workflowVariables } from './validate';

const repoFile = (path: string) => JSON.parse(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8')) as Workflow;
// The demo workflow that reads the order history in every way the extract action can.
const demoOrders = repoFile('workflows/demo-orders.json');
// The bundled skill, and the workflow that signs in with it and reads back who is signed in.
const signIn = repoFile('skills/demo-sign-in.json');
const demoAccount = repoFile('workflows/demo-account.json');
const library = { 'demo-sign-in': signIn };

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
    expect(fakeValidate(demoOrders, library)).toEqual([]);
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
    expect(messages(wf([{ ...read, read: 'list', pattern: '\\d+' } as Action]))).toEqual(['states[1].actions[0].pattern: a `pattern` narrows one text: it needs `read` text, lines, attribute or value']);
    expect(messages(wf([{ ...read, read: 'lines', pattern: '(?m)^\\d+ .+$' } as Action]))).toEqual([]);
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

/** `demo-sign-in` used from the first state of `wf`, with `args` and `outputs`. */
const using = (args: Record<string, string> | undefined, outputs?: Record<string, string>, checks?: Check[]) =>
  wf([{ type: 'use_skill', skill: 'demo-sign-in', ...(args && { args }), ...(outputs && { outputs }) }], checks);
const withLibrary = (w: Workflow) => fakeValidate(w, library).map((d) => `${d.path}: ${d.message}`);

describe('fake validation of skills and use_skill', () => {
  it('accepts the bundled skill and both workflows that use it', () => {
    expect(fakeValidate(signIn, library)).toEqual([]);
    expect(fakeValidate(demoAccount, library)).toEqual([]);
    expect(workflowVariables(demoAccount)).toEqual(['account']);
  });

  it('knows a skill name as the Rust validator does', () => {
    expect(['demo-sign-in', 'a_b', 'x9'].every(isSkillName)).toBe(true);
    expect(['', '-x', '.x', 'sign in', 'a/b', 'ä', 'con', 'NUL', 'com1', 'Lpt9'].some(isSkillName)).toBe(false);
    expect(['con_', 'console', 'com10'].every(isSkillName)).toBe(true);
  });

  it('wants a skill name, parameter names as arguments and variable names as outputs', () => {
    const w = wf([{ type: 'use_skill', skill: 'sign in', args: { 'user name': 'x' }, outputs: { 'the greeting': 'welcome_text', site: 'x', ok: '{{x}}' } }]);
    expect(messages(w)).toEqual([
      'states[1].actions[0].skill: `sign in` is not a skill name',
      'states[1].actions[0].args.user name: `user name` is not a parameter name',
      'states[1].actions[0].outputs.the greeting: `the greeting` is not a valid variable name',
      "states[1].actions[0].outputs.site: `site` is a parameter; a run's parameters are not overwritten",
      'states[1].actions[0].outputs.ok: `{{x}}` is not a variable name',
    ]);
  });

  it('checks the arguments’ references, an argument called type included', () => {
    expect(messages(using({ password: '{{site}}', type: '{{pasword}}' }))).toEqual(['states[1].actions[0].args.type: reference to undefined parameter or variable `pasword`']);
  });

  it('counts a skill’s outputs as variables for later references and variable checks', () => {
    const outputs = { greeting: 'welcome_text' };
    expect(workflowVariables(using({ password: 'x' }, outputs))).toEqual(['greeting']);
    expect(messages(using({ password: 'x' }, outputs, [{ type: 'variable', name: 'greeting', value: 'hi {{greeting}}' }]))).toEqual([]);
    const typo = fakeValidate(using({ password: 'x' }, outputs, [{ type: 'variable', name: 'greting', value: '' }]));
    expect(typo).toEqual([expect.objectContaining({ path: 'states[0].checks[0].name', help: 'did you mean `greeting`?' })]);
  });

  it('checks each use_skill against the skills folder: the skill, its arguments and its variables', () => {
    const misspelt = fakeValidate(wf([{ type: 'use_skill', skill: 'demo-sign-on', args: { password: 'x' } }]), library);
    expect(misspelt).toEqual([expect.objectContaining({ path: 'states[1].actions[0].skill', message: 'there is no skill `demo-sign-on` (skills/demo-sign-on.json does not exist)', help: 'did you mean `demo-sign-in`?' })]);
    const unknownArg = fakeValidate(using({ password: 'x', usrname: 'ann' }), library);
    expect(unknownArg).toEqual([expect.objectContaining({ path: 'states[1].actions[0].args.usrname', message: 'skill `demo-sign-in` has no parameter `usrname`', help: 'its parameters: site, username, password' })]);
    // The password has no default: the skill cannot run without it.
    const missing = fakeValidate(using({ username: 'ann' }), library);
    expect(missing).toEqual([expect.objectContaining({ path: 'states[1].actions[0]', message: 'skill `demo-sign-in` needs the argument `password`', help: 'add "args": {"password": "…"}' })]);
    const noVariable = fakeValidate(using({ password: 'x' }, { greeting: 'welcome_text' }), library);
    expect(noVariable).toEqual([expect.objectContaining({ path: 'states[1].actions[0].outputs.greeting', message: 'skill `demo-sign-in` sets no variable `welcome_text`', help: 'its variables: (none)' })]);
    // A skill that reads who is signed in offers that as an output.
    const reading = { ...signIn, states: signIn.states.map((s) => (s.name === 'Signed in' ? { ...s, actions: [read, { ...read, into: 'account' }] } : s)) };
    expect(fakeValidate(using({ password: 'x' }, { who: 'account', greeting: 'welcome_text' }), { 'demo-sign-in': reading })).toEqual([
      expect.objectContaining({ path: 'states[1].actions[0].outputs.greeting', help: 'its variables: total, account' }),
    ]);
    // Without a library (a unit that only cares about one file) the file's own rules remain.
    expect(messages(using({ usrname: 'ann' }))).toEqual([]);
  });

  it('refuses a file of the skills folder that is no skill, and names the skills there', () => {
    const plain = { ...signIn, skill: undefined };
    expect(withLibrary(wf([{ type: 'use_skill', skill: 'demo-sign-in' }]))).toEqual(['states[1].actions[0]: skill `demo-sign-in` needs the argument `password`']);
    expect(fakeValidate(wf([{ type: 'use_skill', skill: 'demo-sign-in' }]), { 'demo-sign-in': plain })).toEqual([
      expect.objectContaining({ path: 'states[1].actions[0].skill', message: 'skills/demo-sign-in.json is a workflow, not a skill' }),
    ]);
    expect(fakeValidate(wf([{ type: 'use_skill', skill: 'checkout' }]), library)).toEqual([expect.objectContaining({ help: 'skills in skills/: demo-sign-in' })]);
  });

  it('checks a skill’s pre- and postconditions like any check', () => {
    const skill = { ...signIn, skill: { pre: [{ type: 'url', match: 'prefix', value: '{{sites}}/login.html' }], post: [{ type: 'text', value: '' }] } } as Workflow;
    expect(fakeValidate(skill)).toEqual([
      expect.objectContaining({ path: 'skill.pre[0].value', message: 'reference to undefined parameter or variable `sites`', help: 'did you mean `site`?' }),
      expect.objectContaining({ path: 'skill.post[0]', message: 'the check has an empty value' }),
    ]);
  });
});
