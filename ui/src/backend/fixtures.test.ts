import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../bindings';
import { fakeValidate } from './validate';

// The fake backend's library is each fixture's workflows.json: copies of the repo's files
// under the ids the app lists them by. A copy that drifts from its file tests an old workflow.
const fixtures = new URL('../../fixtures-public/fixtures/', import.meta.url);
const repo = new URL('../../../', import.meta.url);
const json = (url: URL) => JSON.parse(readFileSync(url, 'utf8'));
const libraries = readdirSync(fixtures).map((name) => [name, json(new URL(`${name}/workflows.json`, fixtures)) as Record<string, Workflow>] as const);
/** Where the repo keeps the file of an id: skills/NAME.json as is, the rest under workflows/. */
const fileOf = (id: string) => new URL(id.startsWith('skills/') ? id : `workflows/${id}`, repo);

describe('the fake library', () => {
  it.each(libraries)('%s holds the repo’s workflows and skills as they are', (_, library) => {
    for (const [id, workflow] of Object.entries(library)) expect(workflow, id).toEqual(json(fileOf(id)));
  });

  it.each(libraries)('%s has the bundled skill, a workflow using it, and nothing invalid', (_, library) => {
    expect(Object.keys(library)).toEqual(expect.arrayContaining(['skills/demo-sign-in.json', 'demo-account.json']));
    const skills = { 'demo-sign-in': library['skills/demo-sign-in.json'] };
    for (const [id, workflow] of Object.entries(library)) expect(fakeValidate(workflow, skills), id).toEqual([]);
  });
});
