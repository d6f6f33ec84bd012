// *Record…* against the fake backend: a demonstration becomes a workflow of the folder,
// opened in the editor; Stop ends the recording; values typed become parameters.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

test('a recording becomes a workflow of the folder, opened in the editor', async () => {
  const { page } = app;
  await page.getByRole('button', { name: 'Record…' }).click();
  const dialog = page.getByRole('dialog', { name: 'record a workflow' });
  assert.equal(await dialog.getByRole('button', { name: 'Record' }).isDisabled(), true, 'a name is needed first');
  await dialog.getByLabel('record name').fill('Signed in');
  await dialog.getByLabel('record url').fill('http://127.0.0.1:8931/');
  await dialog.getByLabel('record params').fill('username=demo\nbroken line');
  await dialog.getByRole('button', { name: 'Record' }).click();

  const recording = page.getByRole('dialog', { name: 'recording' });
  await recording.waitFor();
  await recording.getByRole('button', { name: 'Stop' }).click();
  await page.waitForSelector('[data-testid="toast"]:has-text("Recorded 4 acts → 3 states, 4 actions")');
  await recording.waitFor({ state: 'detached' });
  await page.getByTestId('workflow-entry').filter({ hasText: 'Signed in' }).waitFor();
  await page.waitForSelector('.state-node[data-state="Sign in"]');
  const stored = await page.evaluate(() => JSON.parse(window.statewrightFake.files.get('signed-in.json')));
  assert.deepEqual(Object.keys(stored.parameters), ['username'], 'only NAME=VALUE lines are values');
  assert.equal(stored.states.find((s) => s.name === 'Sign in').actions[0].text, '{{username}}');
});
