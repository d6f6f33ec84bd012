// *Batch…* against the fake backend: a data file it cannot read is a toast and the dialog
// stays; a good one fills the batch tab live, row by row, to the report, with a column per
// output; a row's run id opens that run; a second go skips the rows that succeeded; Cancel
// ends the rows not done. Shared browsers and endpoints reach the backend as the CLI's pool
// flags would, and the table gains an endpoint column, credentials masked.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => {
  app = await openApp();
  await app.page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await app.page.waitForSelector('[data-testid="node-Start"]');
});
after(async () => app?.close());

const statuses = (page) => page.getByTestId('batch-status').allInnerTexts();
const tally = (page) => page.getByTestId('batch-tally').innerText();
const waitTally = (page, text) => page.waitForSelector(`[data-testid="batch-tally"]:text-is("${text}")`, { timeout: 10000 });

/** `browsers`: a mode's radio label and the fields to fill once it is chosen. */
async function startBatch(page, data, { concurrency = '1', params = '', limit = '', browsers = null } = {}) {
  await page.getByRole('tab', { name: 'Editor' }).click();
  await page.getByRole('button', { name: 'Batch…' }).click();
  const dialog = page.getByRole('dialog', { name: 'batch run' });
  await dialog.getByLabel('batch data').fill(data);
  await dialog.getByLabel('batch concurrency').fill(concurrency);
  await dialog.getByLabel('batch params').fill(params);
  await dialog.getByLabel('batch run timeout').fill(limit);
  if (browsers) {
    await dialog.getByLabel(browsers.mode, { exact: true }).check();
    for (const [label, value] of Object.entries(browsers.fields ?? {})) await dialog.getByLabel(label, { exact: true }).fill(value);
  }
  await dialog.getByRole('button', { name: 'Start batch' }).click();
  return dialog;
}

const headers = (page) => page.locator('.batch-table th').allInnerTexts();

test('a batch fills its table live, row by row, and a row’s run opens in the viewer', async () => {
  const { page, errors } = app;
  const refused = await startBatch(page, 'missing.csv');
  await page.waitForSelector('[data-testid="toast"]:has-text("missing.csv: no such file")');
  assert.equal(await refused.isVisible(), true, 'the dialog stays for the path to be fixed');
  assert.equal(await refused.getByLabel('batch demo site').isChecked(), true, 'the demo site is on by default');
  assert.equal(await refused.getByLabel('batch headed').isChecked(), false);
  await refused.getByRole('button', { name: 'Cancel' }).click();

  const dialog = await startBatch(page, '/data/orders.csv', { params: 'username=ann' });
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await page.getByRole('tab', { name: 'Batch' }).getAttribute('aria-selected'), 'true');
  // One at a time: once the first row ends the batch knows of three, the last not started.
  // Polled on a timer: the line waits one row's run only, and waits on rAF polling missed it here.
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="batch-status"]')].some((e) => e.textContent === 'waiting'), null, { polling: 50 });
  const midway = await statuses(page);
  assert.equal(midway.length, 3);
  assert.equal(midway[0], 'succeeded');
  assert.equal(midway[2], 'waiting');
  assert.match(await tally(page), /^[12]\/3 · /);
  assert.equal(await page.getByRole('button', { name: 'Cancel batch' }).isVisible(), true, 'cancel while it runs');

  await waitTally(page, '3/3 · 2 succeeded · 1 failed');
  assert.deepEqual(await statuses(page), ['succeeded', 'failed', 'succeeded']);
  assert.deepEqual(await page.getByTestId('batch-end-state').allInnerTexts(), ['Order confirmed', 'Login error', 'Order confirmed']);
  const failed = page.getByTestId('batch-row').nth(1);
  assert.match(await failed.innerText(), /5\.2 s\s+fake-\d+-row\s+the shop refused the sign-in\s+2\s+1/, 'duration, run id, message, then the row’s values');
  assert.equal(await page.getByTestId('batch-results').innerText(), 'results: /data/orders.results.csv and /data/orders.results.json');
  assert.equal(await page.getByRole('button', { name: 'Cancel batch' }).count(), 0, 'nothing to cancel once it is over');
  const sent = await page.evaluate(() => window.statewrightFake.batchRequests);
  assert.deepEqual(sent.map((r) => r.data), ['missing.csv', '/data/orders.csv']);
  assert.deepEqual(sent[1], { each: { kind: 'workflow', workflow: 'demo-shop.json' }, data: '/data/orders.csv', params: { username: 'ann' }, concurrency: 1, demo_site: true, headed: false, browsers: { kind: 'launch' }, run_timeout: null });
  // What the runs read, a column each after the row's values; no endpoint without a pool.
  assert.deepEqual(await headers(page), ['row', 'status', 'end state', 'duration', 'run', 'message', 'seed', 'quantity', 'order_number', 'total']);
  assert.deepEqual(await page.getByTestId('batch-output-order_number').allInnerTexts(), ['NW-1001', '', 'NW-1003']);
  assert.deepEqual(await page.getByTestId('batch-output-total').allInnerTexts(), ['25.00', '', '50.00']);

  const runIds = await page.getByTestId('batch-run-id').allInnerTexts();
  assert.equal(new Set(runIds).size, 3, 'a run per row');
  await page.getByTestId('batch-run-id').nth(1).click();
  await page.waitForSelector(`.run-viewer code:text-is("${runIds[1]}")`);
  assert.equal(await page.getByRole('tab', { name: 'Runs' }).getAttribute('aria-selected'), 'true');
  assert.equal(await page.getByTestId('run-phase').innerText(), 'failed');

  // The same file again: only the failed row runs; the others come back with the report.
  await startBatch(page, '/data/orders.csv', { concurrency: '2' });
  await waitTally(page, '3/3 · 2 succeeded · 1 failed · 2 skipped (done before)');
  const again = await page.getByTestId('batch-run-id').allInnerTexts();
  assert.equal(again[0], runIds[0]);
  assert.notEqual(again[1], runIds[1], 'the failed row ran again');
  assert.equal(again[2], runIds[2]);
  assert.deepEqual(errors, []);
});

test('cancelling a batch ends the running row and the rows not started as cancelled', async () => {
  const { page, errors } = app;
  await page.evaluate(() => (window.statewrightFake.batchRowMs = 3000));
  await startBatch(page, '/data/more.jsonl');
  await page.getByTestId('batch-status').filter({ hasText: /^running$/ }).waitFor();
  await page.getByRole('button', { name: 'Cancel batch' }).click();
  await waitTally(page, '3/3 · 0 succeeded · 3 failed');
  assert.deepEqual(await statuses(page), ['cancelled', 'cancelled', 'cancelled']);
  assert.equal(await page.getByTestId('batch-run-id').count(), 1, 'only the running row had a run');
  assert.match(await page.getByTestId('batch-row').nth(2).innerText(), /the batch was stopped before this row ran/);
  assert.equal(await page.getByRole('button', { name: 'Cancel batch' }).count(), 0);
  assert.deepEqual(errors, []);
});

test('a run over its time limit is stopped: its row ends timed_out and the others go on', async () => {
  const { page, errors } = app;
  await page.evaluate(() => (window.statewrightFake.batchRowMs = 3000));
  await startBatch(page, '/data/slow.csv', { concurrency: '3', limit: '1.5' });
  await waitTally(page, '3/3 · 0 succeeded · 3 failed');
  assert.deepEqual(await statuses(page), ['timed_out', 'timed_out', 'timed_out']);
  assert.match(await page.getByTestId('batch-row').first().innerText(), /took longer than the time limit of a run \(1\.5s\) and was stopped/);
  const sent = await page.evaluate(() => window.statewrightFake.batchRequests.at(-1));
  assert.equal(sent.run_timeout, 1.5, 'the limit reaches the backend in seconds');
  await page.evaluate(() => (window.statewrightFake.batchRowMs = 400));
  assert.deepEqual(errors, []);
});

test('endpoints reach the backend as the pool flags would; a dead one is named, masked, and its rows go elsewhere', async () => {
  const { page, errors } = app;
  await page.evaluate(() => (window.statewrightFake.batchRowMs = 200));
  const urls = 'localhost:9222?token=s3cret';
  const refused = await startBatch(page, '/data/pool.csv', { browsers: { mode: 'connect to endpoints', fields: { 'endpoint urls': urls } } });
  await page.waitForSelector('[data-testid="toast"]:has-text("`localhost:9222?token=***` is not a DevTools endpoint URL")');
  assert.equal(await refused.getByLabel('batch headed').isDisabled(), true, 'attached browsers are not launched here: no headed');
  await refused.getByRole('button', { name: 'Cancel' }).click();

  const good = 'http://127.0.0.1:9301\n\nws://dead.example:9222/?token=s3cret\nwss://user:hunter2@cloud.example/cdp';
  const dialog = await startBatch(page, '/data/pool.csv', { concurrency: '', browsers: { mode: 'connect to endpoints', fields: { 'endpoint urls': good, 'runs per endpoint': '2' } } });
  await dialog.waitFor({ state: 'detached' });
  await waitTally(page, '3/3 · 2 succeeded · 1 failed');
  const sent = await page.evaluate(() => window.statewrightFake.batchRequests.at(-1));
  assert.deepEqual(sent.browsers, { kind: 'endpoints', cdp_urls: ['http://127.0.0.1:9301', 'ws://dead.example:9222/?token=s3cret', 'wss://user:hunter2@cloud.example/cdp'], per_endpoint: 2, pool_file: null });
  assert.equal(sent.concurrency, null, 'empty: as many as the endpoints take');
  assert.equal(sent.headed, false);

  assert.deepEqual(await page.getByTestId('batch-dead-endpoint').allInnerTexts(), ['Browser endpoint ws://dead.example:9222/?token=*** is dead, its rows go to the others: nothing is listening there']);
  assert.deepEqual(await headers(page), ['row', 'status', 'end state', 'duration', 'run', 'message', 'endpoint', 'seed', 'quantity', 'order_number', 'total']);
  const used = await page.getByTestId('batch-endpoint').allInnerTexts();
  assert.equal(used.length, 3);
  assert.ok(used.every((u) => ['http://127.0.0.1:9301', 'wss://user:***@cloud.example/cdp'].includes(u)), `the live endpoints only: ${used}`);
  assert.match(await page.getByTestId('batch-endpoints').innerText(), /ws:\/\/dead\.example:9222\/\?token=\*\*\*: 0 row\(s\) · dead/);
  const shown = await page.evaluate(() => document.body.innerText);
  assert.ok(!shown.includes('s3cret') && !shown.includes('hunter2'), 'no credential is on screen');
  assert.deepEqual(errors, []);
});

test('shared browsers: N launched once, runs in each, an endpoint column', async () => {
  const { page, errors } = app;
  await startBatch(page, '/data/shared.csv', { concurrency: '4', browsers: { mode: 'share browsers', fields: { 'shared browsers': '2', 'runs per shared browser': '1' } } });
  await waitTally(page, '3/3 · 2 succeeded · 1 failed');
  const sent = await page.evaluate(() => window.statewrightFake.batchRequests.at(-1));
  assert.deepEqual(sent.browsers, { kind: 'shared', browsers: 2, per_browser: 1 });
  assert.equal(sent.concurrency, 4, 'as asked; the pool bounds it');
  const used = new Set(await page.getByTestId('batch-endpoint').allInnerTexts());
  assert.deepEqual([...used].sort(), ['ws://127.0.0.1:9300/devtools/browser/shared-0', 'ws://127.0.0.1:9301/devtools/browser/shared-1']);
  assert.deepEqual(errors, []);
});
