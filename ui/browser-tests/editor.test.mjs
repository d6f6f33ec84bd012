// The editor against the fake backend: create a workflow, add a state with a check and an
// action, see the validator's message where it applies, fix it, save, undo.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp, selectState } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

test('create a workflow, add states, checks and actions, fix a validation error, save', async () => {
  const { page } = app;
  await page.getByRole('button', { name: 'New' }).click();
  await page.getByLabel('create workflow name').fill('Checkout flow');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.waitForSelector('[data-testid="node-Start"]');
  assert.equal(await page.getByTestId('doc-title').innerText(), 'Checkout flow');

  // A new state, named, reached from Start, with a check and an action.
  await page.getByRole('button', { name: 'Add state' }).click();
  await page.waitForSelector('[data-testid="node-New state"]');
  const name = page.getByLabel('state name');
  await name.fill('Cart');
  await name.press('Enter');
  await page.waitForSelector('[data-testid="node-Cart"]');
  await page.getByLabel('check 1 type').selectOption('element');
  await page.getByLabel('selector').fill('#cart');
  await page.getByLabel('add action').selectOption('click');

  // The click has no target yet: the validator says so, at the field and in the count.
  await page.waitForSelector('.problem[data-path^="states[2].actions[0]"]');
  assert.match(await page.getByTestId('problem-count').innerText(), /problem/);
  assert.match(await page.getByTestId('node-Cart').innerText(), /⚠/);

  // Fix it; the message goes away and the workflow is valid again.
  await page.getByLabel('target css').fill('#checkout');
  await page.waitForFunction(() => !document.querySelector('.problem[data-path^="states[2].actions[0]"]'));
  await page.getByLabel('terminal outcome').selectOption('success');
  await page.waitForFunction(() => document.querySelector('[data-testid="problem-count"]')?.textContent === 'valid');
  assert.match(await page.getByTestId('node-Cart').innerText(), /click #checkout/);

  // Save (Ctrl+S): the file holds the new state; the title loses its unsaved mark.
  await page.keyboard.press('Control+s');
  await page.waitForSelector('[data-testid="toast"]:has-text("Saved checkout-flow.json")');
  const saved = await page.evaluate(() => JSON.parse(window.statewrightFake.files.get('checkout-flow.json')));
  const cart = saved.states.find((s) => s.name === 'Cart');
  assert.deepEqual(cart.checks, [{ type: 'element', selector: '#cart' }]);
  assert.deepEqual(cart.actions, [{ type: 'click', target: { css: '#checkout' } }]);
  assert.equal(await page.getByTestId('doc-title').innerText(), 'Checkout flow');
});

test('undo and redo with the keyboard; reorder priority', async () => {
  const { page } = app;
  await selectState(page, 'Cart');
  await page.getByRole('button', { name: 'raise priority' }).click();
  assert.match(await page.getByTestId('node-Cart').innerText(), /#2/);
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+z');
  assert.match(await page.getByTestId('node-Cart').innerText(), /#3/);
  await page.keyboard.press('Control+Shift+z');
  assert.match(await page.getByTestId('node-Cart').innerText(), /#2/);
  assert.match(await page.getByTestId('doc-title').innerText(), /•/, 'unsaved mark after an edit');
});

test('a file changed on disk reloads when clean and asks when dirty', async () => {
  const { page } = app;
  await page.keyboard.press('Control+s');
  await page.waitForFunction(() => !document.querySelector('[data-testid="doc-title"]').textContent.includes('•'));
  await page.evaluate(() => {
    const wf = JSON.parse(window.statewrightFake.files.get('checkout-flow.json'));
    window.statewrightFake.writeFromOutside('checkout-flow.json', { ...wf, states: [...wf.states, { name: 'From git', checks: [{ type: 'url', value: 'x' }] }] });
  });
  await page.waitForSelector('[data-testid="node-From git"]');

  await page.getByRole('button', { name: 'Add state' }).click(); // now dirty
  await page.evaluate(() => {
    const wf = JSON.parse(window.statewrightFake.files.get('checkout-flow.json'));
    window.statewrightFake.writeFromOutside('checkout-flow.json', { ...wf, description: 'edited elsewhere' });
  });
  await page.getByRole('alertdialog', { name: 'Changed on disk' }).waitFor();
  await page.getByRole('button', { name: 'Keep mine (overwrite on save)' }).click();
  assert.equal(await page.locator('[data-testid^="node-New state"]').count(), 1, 'my edit is still there');
});

test('switching workflows with unsaved changes asks first', async () => {
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.getByRole('alertdialog', { name: 'Unsaved changes' }).waitFor();
  await page.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await page.getByTestId('doc-title').innerText(), 'Checkout flow •');
  assert.deepEqual(app.errors, []);
});
