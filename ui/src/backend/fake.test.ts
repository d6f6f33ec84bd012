import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunDetail, Target, Workflow } from '../bindings';
import { eventsFromDetail } from '../run/events';
import { FakeBackend } from './fake';

const repoFile = (path: string) => JSON.parse(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8')) as Workflow;
const library = () =>
  new FakeBackend({
    workflows: {
      'skills/demo-sign-in.json': repoFile('skills/demo-sign-in.json'),
      'demo-shop.json': repoFile('workflows/demo-shop.json'),
      'demo-account.json': repoFile('workflows/demo-account.json'),
    },
  });
/** `demo-account` with its use_skill calling `skill`. */
const calling = (skill: string): Workflow => {
  const wf = repoFile('workflows/demo-account.json');
  return { ...wf, states: wf.states.map((s) => (s.name === 'Login page' ? { ...s, actions: [{ ...s.actions![0], skill } as never] } : s)) };
};

describe('the fake library with skills', () => {
  it('lists the workflows, then the skills, flagged, as the Rust library does', async () => {
    const listed = await library().listWorkflows();
    expect(listed.map((e) => [e.id, e.skill])).toEqual([
      ['demo-account.json', false],
      ['demo-shop.json', false],
      ['skills/demo-sign-in.json', true],
    ]);
  });

  it('keeps a renamed or duplicated skill in the skills folder', async () => {
    const fake = library();
    expect(await fake.duplicateWorkflow('skills/demo-sign-in.json', 'sign in copy')).toMatchObject({ id: 'skills/sign-in-copy.json', skill: true });
    expect(await fake.renameWorkflow('skills/sign-in-copy.json', 'sign-in-2')).toMatchObject({ id: 'skills/sign-in-2.json', skill: true });
    expect(await fake.duplicateWorkflow('demo-shop.json', 'shop 2')).toMatchObject({ id: 'shop-2.json', skill: false });
  });

  it('reports use_skill problems on open, validate and save, as the Rust library does', async () => {
    const fake = library();
    expect((await fake.openWorkflow('demo-account.json')).diagnostics).toEqual([]);
    const misspelt = calling('demo-sign-on');
    const problem = expect.objectContaining({ path: 'states[2].actions[0].skill', help: 'did you mean `demo-sign-in`?' });
    expect(await fake.validateWorkflow(misspelt)).toEqual([problem]);
    expect((await fake.saveWorkflow('demo-account.json', misspelt, null)).diagnostics).toEqual([problem]);
    expect((await fake.openWorkflow('demo-account.json')).diagnostics).toEqual([problem]);
  });
});

describe('the fake’s save-healed, as `statewright review save-healed`', () => {
  const fixture = <T>(name: string) => JSON.parse(readFileSync(new URL(`../../fixtures-public/fixtures/demo-run/${name}`, import.meta.url), 'utf8')) as T;
  const healed = (state: string, index: number, from: Target, to: Target) => ({ step: 3, state, index, field: 'target' as const, from, to });
  /** The demo shop with two runs: `healed` (Sign in found by role and name) and `plain`. */
  const shop = () => {
    const fake = new FakeBackend({ workflows: fixture<Record<string, Workflow>>('workflows.json') });
    const detail = fixture<{ detail: RunDetail }>('recording.json').detail;
    const heal = healed('Login page', 2, { css: '#sign-in' }, { role: 'button', name: 'Sign in' });
    fake.addRunFromOutside({ ...detail, run: { ...detail.run, id: 'healed', heals: 1 }, healed: [heal] });
    fake.addRunFromOutside({ ...detail, run: { ...detail.run, id: 'plain' } }, eventsFromDetail(detail));
    return fake;
  };
  const targetOf = (fake: FakeBackend, state: string, index: number) =>
    (JSON.parse(fake.files.get('demo-shop.json')!) as Workflow).states.find((s) => s.name === state)!.actions![index] as { target?: unknown };

  it('previews the diff without writing, then writes and keeps the previous version', async () => {
    const fake = shop();
    const before = fake.files.get('demo-shop.json');
    const preview = await fake.saveHealedLocators('healed', false);
    expect(preview).toMatchObject({ path: 'demo-shop.json', changes: ['`Login page` action 3: locator healed'], version: null });
    expect(preview.diff).toMatch(/^--- a\/demo-shop\.json\n\+\+\+ b\/demo-shop\.json\n/);
    expect(preview.diff.split('\n').filter((l) => /^[-+] /.test(l))).toEqual(['+            "role": "button",', '+            "name": "Sign in"', '-            "css": "#sign-in"']);
    expect(fake.files.get('demo-shop.json')).toBe(before);

    const changed: string[] = [];
    await fake.watchWorkflows((c) => changed.push(c.id));
    const saved = await fake.saveHealedLocators('healed', true);
    expect(saved).toMatchObject({ path: 'demo-shop.json', diff: preview.diff, changes: preview.changes, version: 1 });
    expect(targetOf(fake, 'Login page', 2).target).toEqual({ role: 'button', name: 'Sign in' });
    expect(fake.versions[0]).toMatchObject({ path: 'demo-shop.json', text: before });
    expect(changed).toEqual(['demo-shop.json']);
  });

  it('says the workflow already has the locators once saved, or when the file moved on', async () => {
    const fake = shop();
    await fake.saveHealedLocators('healed', true);
    await expect(fake.saveHealedLocators('healed', false)).rejects.toMatchObject({ code: 'invalid_workflow', message: 'the workflow already has these locators' });

    // Someone rewrote the target in between: neither `from` nor `to`, so it is left alone.
    const other = shop();
    const wf = JSON.parse(other.files.get('demo-shop.json')!) as Workflow;
    (wf.states.find((s) => s.name === 'Login page')!.actions![2] as { target: unknown }).target = { css: '#login' };
    other.writeFromOutside('demo-shop.json', wf);
    await expect(other.saveHealedLocators('healed', true)).rejects.toMatchObject({ code: 'invalid_workflow' });
    expect(targetOf(other, 'Login page', 2).target).toEqual({ css: '#login' });
  });

  it('refuses a run that healed nothing, and a run it does not know', async () => {
    const fake = shop();
    await expect(fake.saveHealedLocators('plain', false)).rejects.toMatchObject({ code: 'invalid_workflow', message: 'run plain healed no locator; nothing to save' });
    await expect(fake.saveHealedLocators('nope', false)).rejects.toMatchObject({ code: 'not_found' });
    expect(fake.versions).toEqual([]);
  });
});
