// The run list updates by itself: a run started from a terminal (nothing tells the app)
// shows up within a few seconds, without touching a filter.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

test('a run started elsewhere appears in the list without changing a filter', async () => {
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  const runs = page.getByTestId('past-run');
  await runs.first().waitFor();
  const before = await runs.count();

  const t0 = Date.now();
  await page.evaluate(() => {
    const fake = window.statewrightFake;
    const detail = [...fake.runs.values()][0];
    fake.addRunFromOutside({ ...detail, run: { ...detail.run, id: 'from-terminal', status: 'failed', started_ms: Date.now() } });
  });
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="past-run"]').length === n + 1, before, { timeout: 6000 });
  console.log(`appeared after ${Date.now() - t0} ms`);
  assert.match(await runs.first().innerText(), /^failed demo-shop/, 'the newest run is on top');
  assert.deepEqual(app.errors, []);
});
