// *Run with a goal* against the fake backend: without a model it says where to set one; with
// one, the goal and its values reach the backend and the run is shown live to its end.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

test('a run with a goal needs a model, then is watched live to its end', async () => {
  const { page } = app;
  await page.getByRole('button', { name: 'Run with a goal…' }).click();
  const dialog = page.getByRole('dialog', { name: 'run with a goal' });
  assert.equal(await dialog.getByRole('button', { name: 'Start' }).isDisabled(), true, 'a goal is needed first');
  await dialog.getByLabel('goal text').fill('Buy {{quantity}} kettles');
  await dialog.getByLabel('goal params').fill('quantity=2\npassword=hunter2');
  await dialog.getByLabel('goal max steps').fill('12');
  await dialog.getByRole('button', { name: 'Start' }).click();
  await page.waitForSelector('[data-testid="toast"]:has-text("needs a model")');

  await page.evaluate(() => (window.statewrightFake.model = { url: 'http://127.0.0.1:11434/v1', model: 'qwen2.5vl:7b' }));
  await page.getByRole('button', { name: 'Run with a goal…' }).click();
  const again = page.getByRole('dialog', { name: 'run with a goal' });
  await again.getByLabel('goal text').fill('Open the shop');
  await again.getByLabel('goal params').fill('quantity=2');
  await again.getByRole('button', { name: 'Start' }).click();
  await again.waitFor({ state: 'detached' });
  await page.waitForSelector('[data-testid="run-phase"]:has-text("succeeded")');
  assert.equal(await page.locator('.run-viewer > .toolbar').getByTestId('help-modelCalls').innerText(), '1 model call');
  assert.ok((await page.getByTestId('timeline-step').count()) >= 2, 'the agent steps are in the timeline');
  const sent = await page.evaluate(() => window.statewrightFake.agentRequests);
  assert.equal(sent.length, 1);
  assert.deepEqual(sent[0], { goal: 'Open the shop', url: '{{site}}/', params: { quantity: '2' }, headed: false, demo_site: true, max_steps: 25 });
});
