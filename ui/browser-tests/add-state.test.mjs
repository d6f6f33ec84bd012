// Add state on a 1024×768 screen: the new state lands next to the selected one, on free
// space, and in sight: when the spot is past the edge of the canvas the view moves to it,
// and again when the canvas shrinks under the new state's problems.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { openApp, selectState, settledInView } from './harness.mjs';

let app;
beforeEach(async () => {
  app = await openApp('', { viewport: { width: 1024, height: 768 } });
  await app.page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await app.page.waitForSelector('[data-testid="node-Cart"]');
});
afterEach(async () => app?.close());

/** Drags the canvas (from a spot with no node on it) so `state`'s box moves by `dy` px. */
async function panBy(page, dy) {
  const from = await page.getByTestId('graph').evaluate((graph) => {
    const g = graph.getBoundingClientRect();
    for (let y = g.top + 20; y < g.bottom - 20; y += 20)
      for (let x = g.left + 60; x < g.right - 20; x += 20) if (document.elementFromPoint(x, y)?.classList.contains('react-flow__pane')) return { x, y };
    return null;
  });
  assert.ok(from, 'there is bare canvas to drag');
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x, from.y + dy, { steps: 10 });
  await page.mouse.up();
}

/** Where the new state is, on screen, against the canvas and every other node. */
const landing = (page, name) =>
  page.evaluate((name) => {
    const g = document.querySelector('[data-testid="graph"]').getBoundingClientRect();
    const added = document.querySelector(`.react-flow__node[data-id="${name}"]`).getBoundingClientRect();
    const inView = added.left >= g.left && added.top >= g.top && added.right <= g.right && added.bottom <= g.bottom;
    const overlapping = [...document.querySelectorAll('.react-flow__node')]
      .filter((n) => n.dataset.id !== name)
      .filter((n) => {
        const r = n.getBoundingClientRect();
        return !(r.right <= added.left || added.right <= r.left || r.bottom <= added.top || added.bottom <= r.top);
      })
      .map((n) => n.dataset.id);
    return { inView, overlapping, added: [added.left, added.top, added.right, added.bottom].map(Math.round), canvas: [g.left, g.top, g.right, g.bottom].map(Math.round) };
  }, name);

for (const [where, edge] of [
  ['at the bottom edge of the canvas', (g, cart) => g.y + g.height - 10 - (cart.y + cart.height)],
  ['scrolled out of sight above the canvas', (g, cart) => g.y - 40 - (cart.y + cart.height)],
]) {
  test(`with the selected state ${where}, the new state lands in view on free space`, async () => {
    const { page } = app;
    await selectState(page, 'Cart');
    const graph = await page.getByTestId('graph').boundingBox();
    await panBy(page, edge(graph, await page.getByTestId('node-Cart').boundingBox()));
    await page.getByRole('button', { name: 'Add state', exact: true }).click();
    await page.locator('.state-node.selected[data-state="New state"]').waitFor();
    // Its empty check is listed below the canvas, which shrinks by the list's height.
    await page.getByTestId('problem-list').waitFor();
    // The assertion below says what is wrong if it never settles in view.
    await settledInView(page, '.react-flow__node[data-id="New state"]', { timeout: 5000 }).catch(() => {});
    const landed = await landing(page, 'New state');
    assert.ok(landed.inView, `the new state at ${landed.added} is in the canvas at ${landed.canvas}`);
    assert.deepEqual(landed.overlapping, [], 'the new state covers no other');
    assert.deepEqual(app.errors, []);
  });
}
