import { describe, expect, it } from 'vitest';
import { FakeBackend } from '../backend/fake';
import type { Workflow } from '../bindings';
import * as h from './history';
import * as m from './model';

const base = (): Workflow =>
  ({
    version: 1,
    name: 'login',
    parameters: { site: { default: 'http://127.0.0.1:8931' } },
    states: [
      { name: 'Start', checks: [{ type: 'url', value: 'about:blank' }], actions: [{ type: 'navigate_to', url: '{{site}}/login.html' }], next: ['Login page'] },
      { name: 'Login page', checks: [{ type: 'element', selector: '#login-form' }], actions: [{ type: 'press_key', key: 'Enter' }], next: ['Signed in'] },
      { name: 'Signed in', checks: [{ type: 'url', match: 'prefix', value: '{{site}}/search' }], terminal: { outcome: 'success' } },
    ],
  }) as Workflow;

describe('editing model', () => {
  it('adds a state with a unique name at the end of the priority order', () => {
    const wf = m.addState(m.addState(base()));
    expect(wf.states.map((s) => s.name)).toEqual(['Start', 'Login page', 'Signed in', 'New state', 'New state 2']);
  });

  it('refuses a duplicate state name', () => {
    expect(() => m.addState(base(), { name: 'Start' })).toThrow(m.EditError);
  });

  it('deletes a state and every next reference to it', () => {
    const wf = m.deleteState(base(), 'Login page');
    expect(wf.states.map((s) => s.name)).toEqual(['Start', 'Signed in']);
    expect(wf.states[0].next).toEqual([]);
  });

  it('renames a state and follows the rename in next lists', () => {
    const wf = m.renameState(base(), 'Login page', 'Sign-in form');
    expect(wf.states[1].name).toBe('Sign-in form');
    expect(wf.states[0].next).toEqual(['Sign-in form']);
    expect(() => m.renameState(wf, 'Start', 'Signed in')).toThrow(/already exists/);
    expect(() => m.renameState(wf, 'Start', '  ')).toThrow(/needs a name/);
  });

  it('reorders priority without losing states, clamping out-of-range targets', () => {
    const wf = m.moveState(base(), 'Signed in', 0);
    expect(wf.states.map((s) => s.name)).toEqual(['Signed in', 'Start', 'Login page']);
    expect(m.moveState(wf, 'Signed in', 99).states.map((s) => s.name)).toEqual(['Start', 'Login page', 'Signed in']);
  });

  it('edits checks and actions without touching the original', () => {
    const before = base();
    const wf = m.addAction(m.addCheck(before, 'Start', { type: 'title', value: 'Blank' }), 'Start', { type: 'wait', seconds: 1 });
    expect(wf.states[0].checks).toHaveLength(2);
    expect(wf.states[0].actions).toHaveLength(2);
    expect(before.states[0].checks).toHaveLength(1);
    const moved = m.moveAction(wf, 'Start', 1, 0);
    expect(moved.states[0].actions?.[0]).toEqual({ type: 'wait', seconds: 1 });
    expect(m.removeAction(m.removeAction(moved, 'Start', 0), 'Start', 0).states[0].actions).toBeUndefined();
  });

  it('renames a parameter in place and refuses bad names', () => {
    const wf = m.setParameter(base(), 'base_url', { default: 'x' }, 'site');
    expect(Object.keys(wf.parameters ?? {})).toEqual(['base_url']);
    expect(() => m.setParameter(wf, 'bad name', {})).toThrow(m.EditError);
  });
});

describe('undo history', () => {
  it('undoes and redoes edits, and knows when it is back at the saved version', () => {
    let hist = h.fresh(base());
    expect(h.isDirty(hist)).toBe(false);
    hist = h.apply(hist, m.addState(hist.present));
    hist = h.apply(hist, m.renameState(hist.present, 'Start', 'Begin'));
    expect(h.isDirty(hist)).toBe(true);
    hist = h.undo(hist);
    expect(hist.present.states[0].name).toBe('Start');
    hist = h.undo(hist);
    expect(h.isDirty(hist)).toBe(false);
    hist = h.redo(h.redo(hist));
    expect(hist.present.states[0].name).toBe('Begin');
    expect(h.redo(hist)).toBe(hist);
  });

  it('drops the redo stack on a new edit', () => {
    let hist = h.fresh(base());
    hist = h.undo(h.apply(hist, m.addState(hist.present)));
    hist = h.apply(hist, m.deleteState(hist.present, 'Start'));
    expect(hist.future).toEqual([]);
  });
});

describe('save round trip', () => {
  it('saves an edited workflow and opens exactly what was saved', async () => {
    const backend = new FakeBackend({ workflows: { 'login.json': base() } });
    const opened = await backend.openWorkflow('login.json');
    let hist = h.fresh(opened.workflow!);
    hist = h.apply(hist, m.addCheck(hist.present, 'Signed in', { type: 'text', match: 'contains', value: 'Welcome' }));
    hist = h.apply(hist, m.moveState(hist.present, 'Signed in', 0));
    const saved = await backend.saveWorkflow('login.json', hist.present, opened.hash);
    hist = h.markSaved(hist);
    expect(h.isDirty(hist)).toBe(false);
    const reopened = await backend.openWorkflow('login.json');
    expect(reopened.workflow).toEqual(hist.present);
    expect(reopened.hash).toBe(saved.hash);
  });

  it('refuses to overwrite a file changed on disk since it was opened', async () => {
    const backend = new FakeBackend({ workflows: { 'login.json': base() } });
    const opened = await backend.openWorkflow('login.json');
    backend.writeFromOutside('login.json', { ...base(), description: 'edited elsewhere' });
    await expect(backend.saveWorkflow('login.json', opened.workflow!, opened.hash)).rejects.toMatchObject({ code: 'conflict' });
  });
});

describe('editing a skill and a use_skill', () => {
  it('renames an argument in its place and refuses a name another has', () => {
    const args = { site: '{{site}}', usrname: 'ann', password: 'x' };
    expect(Object.entries(m.renameKey(args, 'usrname', 'username'))).toEqual([['site', '{{site}}'], ['username', 'ann'], ['password', 'x']]);
    expect(m.renameKey(args, 'site', 'site')).toBe(args);
    expect(() => m.renameKey(args, 'usrname', 'site')).toThrow(m.EditError);
  });

  it('edits the pre- and postconditions, keeping the skill section when both are empty', () => {
    const skill = { ...base(), skill: { pre: [{ type: 'url', value: 'about:blank' }], source: 'mined' } } as Workflow;
    const post = m.setSkillChecks(skill, 'post', [{ type: 'text', value: 'Welcome' }]);
    expect(post.skill).toEqual({ pre: [{ type: 'url', value: 'about:blank' }], post: [{ type: 'text', value: 'Welcome' }], source: 'mined' });
    expect(skill.skill).toEqual({ pre: [{ type: 'url', value: 'about:blank' }], source: 'mined' });
    const bare = m.setSkillChecks(m.setSkillChecks(post, 'pre', []), 'post', []);
    expect(bare.skill).toEqual({ source: 'mined' });
    expect(m.setSkillChecks(base(), 'pre', []).skill).toEqual({});
  });
});
