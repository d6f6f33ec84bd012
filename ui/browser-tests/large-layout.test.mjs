// A workflow too large for ELK opens at once in plain layers, and the toolbar says the layout
// is the simple one; the demo keeps ELK's layout and says nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp, writeTangle } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

test('2,000 random states open in plain layers, with a quiet notice that says so', async () => {
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.getByTestId('layout-ms').waitFor();
  assert.equal(await page.getByTestId('layout-coarse').count(), 0);

  await writeTangle(page, 'tangle.json', 2000);
  await page.getByTestId('workflow-entry').filter({ hasText: 'tangle' }).click();
  // ELK took over two minutes on this graph; the plain layers take well under a second.
  const notice = page.getByTestId('layout-coarse');
  await notice.waitFor({ timeout: 30_000 });
  assert.equal(await notice.textContent(), 'simple layout');
  assert.match(await notice.getAttribute('title'), /too large for the full layout/i);
  assert.ok(await page.locator('.react-flow__node').count() > 0);
  assert.deepEqual(app.errors, []);
});
