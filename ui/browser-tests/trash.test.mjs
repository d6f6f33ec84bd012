// Delete → trash → restore against the fake backend: Delete… asks first (and says unsaved
// changes would be lost), moves the open workflow to the trash and closes it in the editor;
// Trash… lists it and restores it; a name taken since is not overwritten: the dialog asks
// for another and restores under it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => {
  app = await openApp();
});
after(async () => app?.close());

/** The files listed (each entry's title is its id). */
const listed = (page) => page.getByTestId('workflow-entry').evaluateAll((es) => es.map((e) => e.title));

async function openShop(page) {
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.waitForSelector('[data-testid="node-Start"]');
}

async function deleteOpen(page) {
  await page.getByRole('button', { name: 'Delete…' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Delete workflow' });
  await ask.getByRole('button', { name: 'Move to trash' }).click();
  await ask.waitFor({ state: 'detached' });
}

test('a deleted workflow leaves the list and the editor, and Restore brings it back', async () => {
  const { page, errors } = app;
  assert.equal(await page.getByRole('button', { name: 'Delete…' }).isDisabled(), true, 'nothing open: nothing to delete');
  await openShop(page);
  const states = await page.locator('[data-testid^="node-"]').count();
  // An unsaved edit: the question says it would be lost, and Cancel keeps everything.
  await page.getByRole('button', { name: 'Add state' }).click();
  await page.getByRole('button', { name: 'Delete…' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Delete workflow' });
  assert.match(await ask.innerText(), /Move demo-shop \(demo-shop\.json\) to the trash\? Trash… restores it\. Its unsaved changes will be lost\./);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  assert.ok((await listed(page)).includes('demo-shop.json'));
  assert.equal(await page.locator('[data-testid^="node-"]').count(), states + 1, 'the edit is still there, unsaved');

  await deleteOpen(page);
  await page.waitForSelector('[data-testid="toast"]:has-text("demo-shop.json moved to the trash")');
  assert.equal(await page.locator('.react-flow').count(), 0, 'the editor let go of the deleted workflow');
  assert.deepEqual(await listed(page), ['demo-account.json', 'skills/demo-sign-in.json']);
  assert.deepEqual(await page.evaluate(() => [...window.statewrightFake.files.keys()].sort()), ['demo-account.json', 'skills/demo-sign-in.json']);

  await page.getByRole('button', { name: 'Trash…' }).click();
  const trash = page.getByRole('dialog', { name: 'trash' });
  const entry = trash.getByTestId('trash-entry');
  await entry.waitFor();
  assert.match(await entry.innerText(), /demo-shop\s+demo-shop\.json/);
  await entry.getByRole('button', { name: 'Restore' }).click();
  await page.waitForSelector('[data-testid="toast"]:has-text("demo-shop restored as demo-shop.json")');
  await trash.getByText('The trash is empty').waitFor();
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).waitFor();
  await trash.getByRole('button', { name: 'Close' }).click();
  // Restored as it was deleted, before the unsaved edit.
  await openShop(page);
  assert.equal(await page.locator('[data-testid^="node-"]').count(), states);
  assert.deepEqual(errors, []);
});

test('restoring over a name taken since asks for another name', async () => {
  const { page, errors } = app;
  await openShop(page);
  const deleted = await page.evaluate(() => window.statewrightFake.files.get('demo-shop.json'));
  await deleteOpen(page);
  await page.getByRole('button', { name: 'New' }).click();
  await page.getByLabel('create workflow name').fill('demo-shop');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await page.waitForSelector('[data-testid="node-Done"]');
  const newer = await page.evaluate(() => window.statewrightFake.files.get('demo-shop.json'));

  await page.getByRole('button', { name: 'Trash…' }).click();
  const trash = page.getByRole('dialog', { name: 'trash' });
  await trash.getByTestId('trash-entry').getByRole('button', { name: 'Restore' }).click();
  const asName = trash.getByLabel('restore as');
  await asName.waitFor();
  assert.match(await trash.getByTestId('trash-entry').innerText(), /demo-shop\.json is taken: restore as/);
  assert.equal(await asName.inputValue(), 'demo-shop restored');
  assert.equal(await page.evaluate(() => window.statewrightFake.files.get('demo-shop.json')), newer, 'the newer file is untouched');
  await trash.getByRole('button', { name: 'Restore as' }).click();
  await page.waitForSelector('[data-testid="toast"]:has-text("demo-shop restored as demo-shop-restored.json")');
  await trash.getByRole('button', { name: 'Close' }).click();
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop restored' }).click();
  await page.waitForSelector('[data-testid="node-Start"]');
  const restored = await page.evaluate(() => JSON.parse(window.statewrightFake.files.get('demo-shop-restored.json')));
  assert.deepEqual(restored, { ...JSON.parse(deleted), name: 'demo-shop restored' }, 'the deleted workflow under its new name');
  assert.deepEqual(errors, []);
});
