// A workflow too large for ELK opens at once in plain layers, and the toolbar says the layout
// is the simple one; the demo keeps ELK's layout and says nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

test('2,000 random states open in plain layers, with a quiet notice that says so', async () => {
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.getByTestId('layout-ms').waitFor();
  assert.equal(await page.getByTestId('layout-coarse').count(), 0);

  await page.evaluate((n) => {
    let r = 7;
    const rand = () => (r = (r * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const next = Array.from({ length: n }, () => []);
    for (let i = 1; i < n; i++) next[Math.floor(rand() * i)].push(`R${i}`);
    for (let i = 0; i < n; i++) next[i].push(`R${Math.floor(rand() * n)}`);
    const states = next.map((to, i) => ({ name: `R${i}`, checks: [{ type: 'url', match: 'prefix', value: i ? `http://site/${i}` : 'about:blank' }], next: to }));
    window.statewrightFake.writeFromOutside('tangle.json', { version: 1, name: 'tangle', states });
  }, 2000);
  await page.getByTestId('workflow-entry').filter({ hasText: 'tangle' }).click();
  // ELK took over two minutes on this graph; the plain layers take well under a second.
  const notice = page.getByTestId('layout-coarse');
  await notice.waitFor({ timeout: 30_000 });
  assert.equal(await notice.textContent(), 'simple layout');
  assert.match(await notice.getAttribute('title'), /too large for the full layout/i);
  assert.ok(await page.locator('.react-flow__node').count() > 0);
  assert.deepEqual(app.errors, []);
});
