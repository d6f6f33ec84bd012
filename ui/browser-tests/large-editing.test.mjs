// Editing a state of a workflow of 2,000: a keystroke in its form redraws its node alone and
// hands React Flow no new edges, and its `next` lists the states it leads to (and those a
// filter finds), not a checkbox for each of the other 1,999. The demo lists every state.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { countRenders, openApp, selectState, writeTangle } from './harness.mjs';

let app;
before(async () => (app = await openApp('', {}, countRenders)));
after(async () => app?.close());

const renders = (page) => page.evaluate(() => ({ ...window.__renders }));
const forgetRenders = (page) => page.evaluate(() => Object.keys(window.__renders).forEach((k) => delete window.__renders[k]));

test('the demo’s next field has a checkbox for every other state, and no filter', async () => {
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await selectState(page, 'Cart');
  const panel = page.getByRole('region', { name: 'state Cart' });
  const states = Number((await panel.getByText(/^of \d+$/).textContent()).slice(3));
  assert.ok(states > 10);
  assert.equal(await panel.locator('.next-option').count(), states - 1);
  assert.equal(await panel.getByLabel('find a next state').count(), 0);
});

test('typing in a state of 2,000 redraws its node alone; its next lists what it leads to and what the filter finds', async () => {
  const { page } = app;
  await writeTangle(page, 'tangle.json', 2000);
  await page.getByTestId('workflow-entry').filter({ hasText: 'tangle' }).click();
  await page.getByTestId('layout-coarse').waitFor({ timeout: 30_000 });
  await selectState(page, 'R12');
  const panel = page.getByRole('region', { name: 'state R12' });
  const listed = panel.locator('.next-option');
  const leadsTo = await listed.filter({ has: page.locator('input:checked') }).allTextContents();
  assert.ok(leadsTo.length >= 1);
  assert.equal(await listed.count(), leadsTo.length, 'only the chosen states are listed');

  const description = panel.getByLabel('state description');
  await description.click();
  await page.waitForTimeout(1000);
  await forgetRenders(page);
  await page.keyboard.type('x');
  // The validator (200 ms) and the graph analysis (250 ms) answer after a pause in typing.
  await page.waitForTimeout(1000);
  assert.equal(await description.inputValue(), 'x');
  const after = await renders(page);
  assert.equal(after['state-node'], 1, `the edited state's node alone is drawn again: ${JSON.stringify(after)}`);
  assert.equal(after['host:next-option'] ?? 0, 0, `the next field is left as it was: ${JSON.stringify(after)}`);
  // React Flow draws the arrowheads again whenever it is handed new edges.
  assert.equal(after['react-flow__marker'] ?? 0, 0, `the edges are kept: ${JSON.stringify(after)}`);

  const filter = panel.getByLabel('find a next state');
  await filter.fill('R199');
  const found = (await listed.allTextContents()).filter((o) => !leadsTo.includes(o));
  assert.deepEqual(found.sort(), ['R199', ...Array.from({ length: 10 }, (_, i) => `R199${i}`)].filter((o) => !leadsTo.includes(o)).sort());
  await listed.filter({ hasText: /^R1995$/ }).locator('input').check();
  await filter.fill('');
  assert.deepEqual((await listed.allTextContents()).sort(), [...leadsTo, 'R1995'].sort());
  assert.deepEqual(app.errors, []);
});
