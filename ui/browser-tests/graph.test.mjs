// The graph's analysis in the editor, against the fake backend: findings marked on their
// states and listed, edges labelled with what stored runs did, and *Go here* lighting the
// planned route and starting a run with that goal.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp, selectState } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

test('a state nothing leads to is marked on the graph and listed with its fix', async () => {
  const { page } = app;
  await page.evaluate(() =>
    window.statewrightFake.writeFromOutside('orphans.json', {
      version: 1,
      name: 'orphans',
      states: [
        { name: 'Done', checks: [{ type: 'text', value: 'Done' }], terminal: { outcome: 'success' } },
        { name: 'Orphan', checks: [{ type: 'url', value: 'http://x/o' }], actions: [{ type: 'click', target: { css: '#o' } }], next: ['Done'] },
        { name: 'Start', checks: [{ type: 'url', value: 'about:blank' }], actions: [{ type: 'navigate_to', url: 'http://x/' }], next: ['Done'] },
      ],
    }),
  );
  await page.getByTestId('workflow-entry').filter({ hasText: 'orphans' }).click();
  await page.waitForSelector('[data-testid="findings-Orphan"]');
  assert.equal(await page.locator('.state-node.has-findings').count(), 1, 'only the orphan is marked');
  assert.match(await page.getByTestId('findings-Orphan').getAttribute('title'), /cannot be reached/);
  const list = page.getByTestId('finding-list');
  assert.match(await list.innerText(), /Orphan: state `Orphan` cannot be reached/);

  // Fixing it (Start leads there now) clears the mark.
  await list.getByRole('button', { name: 'Orphan' }).click();
  await selectState(page, 'Start');
  await page.evaluate(() => {
    const wf = JSON.parse(window.statewrightFake.files.get('orphans.json'));
    wf.states[2].next = ['Orphan', 'Done'];
    window.statewrightFake.writeFromOutside('orphans.json', wf);
  });
  await page.waitForFunction(() => !document.querySelector('[data-testid="findings-Orphan"]'));
  assert.equal(await page.getByTestId('finding-list').count(), 0);
});

test('edges carry the stored runs’ counts and times; Go here lights the route and starts a run with that goal', async () => {
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.waitForSelector('[data-testid="node-Cart"]');
  // The fake holds one recorded run of the demo: its transitions are labelled.
  await page.waitForFunction(() => [...document.querySelectorAll('.react-flow__edge-textwrapper, .react-flow__edge-text')].some((t) => /^1× · /.test(t.textContent)));

  await selectState(page, 'Cart');
  await page.getByRole('button', { name: 'Go here' }).click();
  const banner = page.getByTestId('route-banner');
  await banner.waitFor();
  assert.match(await banner.innerText(), /Go to Cart/);
  assert.match(await banner.innerText(), /Start → .* → Cart/);
  const lit = await page.locator('.state-node.on-route').evaluateAll((ns) => ns.map((n) => n.dataset.state));
  assert.ok(lit.includes('Start') && lit.includes('Cart') && lit.length >= 3, `lit: ${lit}`);
  assert.ok(!lit.includes('Order confirmed'), 'states past the goal are not on the route');
  assert.equal(await page.locator('.react-flow__edge.edge-route').count(), lit.length - 1, 'each step of the route is a lit edge');

  // Interrupts cannot be a goal.
  await selectState(page, 'Consent popup');
  await page.waitForFunction(() => [...document.querySelectorAll('button')].find((b) => b.textContent === 'Go here')?.disabled);

  await banner.getByRole('button', { name: 'Go…' }).click();
  const dialog = page.getByRole('dialog', { name: 'start run' });
  assert.match(await dialog.innerText(), /Go to Cart/);
  await dialog.getByLabel('cdp url').fill('http://127.0.0.1:9222');
  await dialog.getByRole('button', { name: 'Go', exact: true }).click();
  const request = await page.evaluate(() => window.statewrightFake.requests.at(-1));
  assert.equal(request.goal, 'Cart');
  assert.equal(request.resume, true);
  assert.equal(request.cdp_url, 'http://127.0.0.1:9222');
  assert.equal(request.headed, false);
});
