import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../bindings';
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
