import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Workflow, WorkflowEntry } from '../bindings';
import { groupEntries, skillId, skillNameOf, skillNames, skillParameters, skillVariables } from './skills';

const entry = (id: string, name: string, extra: Partial<WorkflowEntry> = {}): WorkflowEntry => ({ id, name, states: 3, modified_ms: 0, error: null, skill: id.startsWith('skills/'), ...extra });
const signIn = JSON.parse(readFileSync(new URL('../../../skills/demo-sign-in.json', import.meta.url), 'utf8')) as Workflow;

describe('skills in the workflow list', () => {
  it('puts the skills in a group of their own after the workflows, whatever order they came in', () => {
    const entries = [entry('skills/b.json', 'b'), entry('demo-shop.json', 'demo-shop'), entry('skills/a.json', 'a'), entry('demo-account.json', 'demo-account')];
    const { workflows, skills } = groupEntries(entries);
    expect(workflows.map((e) => e.id)).toEqual(['demo-shop.json', 'demo-account.json']);
    expect(skills.map((e) => e.id)).toEqual(['skills/b.json', 'skills/a.json']);
    expect(groupEntries([entry('demo-shop.json', 'demo-shop')]).skills).toEqual([]);
  });

  it('calls a skill by its file name, not by the name inside it, and offers only the ones that open', () => {
    expect(skillNameOf('skills/demo-sign-in.json')).toBe('demo-sign-in');
    expect(skillNameOf('demo-shop.json')).toBeNull();
    expect(skillId('demo-sign-in')).toBe('skills/demo-sign-in.json');
    const entries = [entry('demo-shop.json', 'demo-shop'), entry('skills/sign-in.json', 'Sign in'), entry('skills/broken.json', 'broken', { error: 'not JSON' })];
    expect(skillNames(entries)).toEqual(['sign-in']);
  });
});

describe('what a use of a skill can pass and get', () => {
  it('lists the parameters with the required ones (no default) first', () => {
    expect(skillParameters(signIn)).toEqual([
      { name: 'password', required: true, secret: true, description: 'Password of the account' },
      { name: 'site', required: false, secret: false, description: 'Base URL of the demo site, without a trailing slash' },
      { name: 'username', required: false, secret: false, description: 'Account to sign in with' },
    ]);
  });

  it('offers the variables the skill sets as outputs', () => {
    expect(skillVariables(signIn)).toEqual([]);
    const reading = { ...signIn, states: [...signIn.states, { name: 'Read', checks: [], actions: [{ type: 'extract', target: { css: '#who' }, into: 'account' }] }] } as Workflow;
    expect(skillVariables(reading)).toEqual(['account']);
  });
});
