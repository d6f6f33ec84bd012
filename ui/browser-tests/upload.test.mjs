// An upload action written in the editor: its fields, a path a line (paths hold spaces), the
// validator's word on an empty list, the node's summary, and the saved file.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { addAction, openApp } from './harness.mjs';

const apps = [];
after(async () => Promise.all(apps.map((a) => a.close())));

test('an upload action takes a file a line and is saved as a list of paths', async () => {
  const app = await openApp();
  apps.push(app);
  const { page, errors } = app;
  const { action: upload, before } = await addAction(page, 'Cart', 'upload');
  assert.deepEqual(await upload.locator('.field-label').allInnerTexts(), ['target', 'files']);
  await upload.getByLabel('target css', { exact: true }).fill('#receipt');
  // No file yet: the validator says so, beside the field.
  await upload.locator('.problem', { hasText: 'upload needs at least one file' }).waitFor();
  const files = upload.getByLabel('files', { exact: true });
  await files.fill('/home/ada/My receipts/march.pdf\n{{site}}');
  await files.press('End');
  await page.waitForFunction(() => document.querySelector('[data-testid="problem-count"]')?.textContent === 'valid');
  assert.match(await page.getByTestId('node-Cart').innerText(), /upload 2 files into #receipt/);
  await files.fill('/home/ada/My receipts/march.pdf');
  await page.waitForFunction(() => /upload “march\.pdf” into #receipt/.test(document.querySelector('[data-testid="node-Cart"]')?.innerText ?? ''));

  await page.keyboard.press('Control+s');
  await page.waitForSelector('[data-testid="toast"]:has-text("Saved demo-shop.json")');
  const saved = await page.evaluate(() => JSON.parse(window.statewrightFake.files.get('demo-shop.json')));
  const action = saved.states.find((s) => s.name === 'Cart').actions[before];
  assert.deepEqual(action, { type: 'upload', target: { css: '#receipt' }, files: ['/home/ada/My receipts/march.pdf'] });
  assert.deepEqual(errors, []);
});
