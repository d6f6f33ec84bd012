// Replaying a recorded run of the demo workflow (recorded with the real CLI against the
// bundled demo site; see ui/scripts/record-demo-run) through the run viewer.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp('?scale=0.2')));
after(async () => app?.close());

test('a replayed run lights the active state, fills the timeline and shows screenshots', async () => {
  const { page } = app;
  const recording = await page.evaluate(() => fetch('fixtures/demo-run/recording.json').then((r) => r.json()));
  const steps = recording.detail.steps;
  const lastState = steps.at(-1).state;

  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.waitForSelector('[data-testid="node-Start"]');
  await page.getByRole('button', { name: 'Run…' }).click();
  const dialog = page.getByRole('dialog', { name: 'start run' });
  assert.equal(await dialog.getByLabel('param password').getAttribute('type'), 'password', 'secrets are masked');
  await dialog.getByRole('button', { name: 'Start run' }).click();

  // While it streams, some state is lit on the graph.
  await page.waitForSelector('.state-node.active');
  await page.waitForFunction(() => document.querySelector('[data-testid="run-phase"]')?.textContent === 'succeeded', null, { timeout: 30000 });
  assert.equal(await page.getByTestId('active-state').innerText(), lastState);
  assert.equal(await page.locator('.state-node.active').getAttribute('data-state'), lastState, 'the active state is lit on the graph');
  assert.ok(await page.locator('.react-flow__edge.edge-last').count(), 'the edge just taken is highlighted');

  // One thumbnail per step, each a loaded screenshot.
  assert.equal(await page.getByTestId('timeline-step').count(), steps.length);
  await page.waitForFunction(() => [...document.querySelectorAll('.timeline img')].every((i) => i.complete && i.naturalWidth > 0));
  assert.equal(await page.locator('.timeline img').count(), steps.filter((s) => s.screenshot).length);

  // A step opens to its checks, actions and the full screenshot.
  await page.getByTestId('timeline-step').nth(1).locator('button').click();
  const detail = page.getByTestId('step-detail');
  assert.match(await detail.innerText(), new RegExp(`Step ${steps[1].step}: ${steps[1].state}`));
  assert.ok(await detail.locator('.checks li.pass').count(), 'passed checks are listed');
  const size = await page.getByTestId('full-screenshot').evaluate((img) => img.decode().then(() => img.naturalWidth));
  assert.ok(size >= 800, `full screenshot is full size (${size}px wide)`);

  // Scrubbing back moves the lit state.
  await page.getByLabel('scrub steps').fill('1');
  assert.equal(await page.locator('.state-node.active').getAttribute('data-state'), steps[0].state);
  assert.deepEqual(app.errors, []);
});

test('the finished run is listed under past runs and opens again', async () => {
  const { page } = app;
  await page.getByTestId('past-run').first().click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-phase"]')?.textContent === 'succeeded');
  assert.ok((await page.getByTestId('timeline-step').count()) > 3);
  // The stored run came without its pages: the login step's is asked for when it is shown,
  // and what its actions acted on is boxed as in the live run.
  await page.getByTestId('timeline-step').filter({ hasText: 'Login page' }).first().locator('button').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="acted-box"]').length === 3, null, { timeout: 10000 });
});
