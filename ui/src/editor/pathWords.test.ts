import { describe, expect, it } from 'vitest';
import type { Workflow } from '../bindings';
import { pathInWords } from './pathWords';

const wf = {
  version: 1,
  name: 'demo',
  states: [
    { name: 'Start', checks: [{ type: 'url', value: 'about:blank' }] },
    { name: 'Cart', actions: [{ type: 'click', target: { css: '#x' } }], next: ['Start'] },
  ],
} as Workflow;

describe('a finding’s place, in words', () => {
  it('names states, counts from 1 and keeps field names readable', () => {
    expect(pathInWords(wf, 'states[1].actions[0].target')).toBe('state Cart › action 1 › target');
    expect(pathInWords(wf, 'states[0].checks[0].value')).toBe('state Start › check 1 › value');
    expect(pathInWords(wf, 'states[1].next[0]')).toBe('state Cart › next state 1');
    expect(pathInWords(wf, 'states[1].terminal.outcome')).toBe('state Cart › terminal › outcome');
    expect(pathInWords(wf, 'config.no_states_timeout')).toBe('config › no states timeout');
    expect(pathInWords(wf, 'parameters.password')).toBe('parameter password');
    expect(pathInWords(wf, '')).toBe('workflow');
  });

  it('names a skill’s conditions and a use_skill’s arguments and outputs by name', () => {
    expect(pathInWords(wf, 'skill.pre[0].value')).toBe('skill › precondition 1 › value');
    expect(pathInWords(wf, 'skill.post[1]')).toBe('skill › postcondition 2');
    expect(pathInWords(wf, 'states[1].actions[0].skill')).toBe('state Cart › action 1 › skill');
    expect(pathInWords(wf, 'states[1].actions[0].args.username')).toBe('state Cart › action 1 › argument username');
    expect(pathInWords(wf, 'states[1].actions[0].args.user name')).toBe('state Cart › action 1 › argument user name');
    expect(pathInWords(wf, 'states[1].actions[0].outputs.greeting')).toBe('state Cart › action 1 › output greeting');
    expect(pathInWords(wf, 'states[1].actions[0].args')).toBe('state Cart › action 1 › arguments');
  });

  it('keeps a path it cannot read, and numbers a state it does not have', () => {
    expect(pathInWords(wf, 'states[7].name')).toBe('state 8 › name');
    expect(pathInWords(wf, 'states..x')).toBe('states..x');
  });
});
