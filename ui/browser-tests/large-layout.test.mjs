// A workflow too large for ELK opens at once in plain layers, and the toolbar says the layout
// is the simple one; the demo keeps ELK's layout and says nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp, selectState, writeTangle } from './harness.mjs';

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

test('in plain layers only the edges of states near the view are drawn, not every long edge across it', async () => {
  const { page } = app;
  await selectState(page, 'R1500');
  const drawn = await page.evaluate(() => {
    const [tx, ty, zoom] = document.querySelector('.react-flow__viewport').style.transform.match(/-?[\d.]+/g).map(Number);
    const pane = document.querySelector('.react-flow').getBoundingClientRect();
    const view = { x: -tx / zoom, y: -ty / zoom, width: pane.width / zoom, height: pane.height / zoom };
    // The states whose edges are drawn lie at most two views' size beyond the view (nearEdges.ts).
    const reach = 2 * Math.max(view.width, view.height) + 300;
    const near = (x, y) => x >= view.x - reach && x <= view.x + view.width + reach && y >= view.y - reach && y <= view.y + view.height + reach;
    return [...document.querySelectorAll('.react-flow__edge')].map((g) => {
      const d = g.querySelector('path').getAttribute('d').match(/-?[\d.]+/g).map(Number);
      return { id: g.dataset.id.replace('\u0000', '>'), near: near(d[0], d[1]) || near(d[d.length - 2], d[d.length - 1]) };
    });
  });
  assert.deepEqual(drawn.filter((e) => !e.near).map((e) => e.id), []);
  // The selected state's own edges are among them.
  assert.ok(drawn.some((e) => e.id.startsWith('next:R1500>')), `R1500's edges are drawn: ${drawn.length} drawn`);
  assert.deepEqual(app.errors, []);
});

test('a search hit far away is reached at the zoom the person chose, not by zooming out over the whole graph', async () => {
  const { page } = app;
  await selectState(page, 'R3');
  const search = page.getByLabel('search states');
  await search.fill('R1990');
  // Every frame's scale while the view glides to the hit.
  await page.evaluate(() => {
    window.__zooms = [];
    const sample = () => {
      window.__zooms.push(Number(document.querySelector('.react-flow__viewport').style.transform.match(/scale\(([\d.]+)\)/)[1]));
      if (window.__zooms.length < 60) requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  await search.press('Enter');
  await page.locator('.state-node.selected[data-state="R1990"]').waitFor();
  await page.waitForFunction(() => window.__zooms.length >= 60);
  const zooms = await page.evaluate(() => window.__zooms);
  assert.ok(Math.min(...zooms) >= 0.99, `the scale stayed at 1: ${zooms.join(' ')}`);
});

