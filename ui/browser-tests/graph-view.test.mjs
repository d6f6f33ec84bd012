// The graph as a person reads it: it opens at a scale where node text is readable,
// centred on the start; fit-to-view is a button; the minimap is small and collapsible;
// Ctrl+F finds a state by name, check or selector and centres it; a run's active state
// stays in view as the run moves on.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => {
  app = await openApp('?scale=0.2');
  await app.page.setViewportSize({ width: 1280, height: 800 });
});
after(async () => app?.close());

/** The canvas's zoom, node text on screen, and where a node sits relative to the canvas centre. */
const view = (page, state) =>
  page.evaluate((state) => {
    const canvas = document.querySelector('.react-flow:not([hidden])') ?? document.querySelector('.react-flow');
    const zoom = new DOMMatrix(getComputedStyle(canvas.querySelector('.react-flow__viewport')).transform).a;
    const text = parseFloat(getComputedStyle(canvas.querySelector('.node-name')).fontSize);
    const c = canvas.getBoundingClientRect();
    const node = state && canvas.querySelector(`[data-state="${CSS.escape(state)}"]`)?.getBoundingClientRect();
    const off = node && { dx: node.x + node.width / 2 - (c.x + c.width / 2), dy: node.y + node.height / 2 - (c.y + c.height / 2), inside: node.x >= c.x && node.right <= c.right && node.y >= c.y && node.bottom <= c.bottom };
    return { zoom, text, onScreen: zoom * text, canvas: { width: c.width, height: c.height }, ...off };
  }, state);

const settle = (page) => page.waitForTimeout(400);

test('a workflow opens readable, centred on its start; fit-to-view is on demand', async () => {
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.waitForSelector('[data-testid="node-Start"]');
  await settle(page);
  const opened = await view(page, 'Start');
  console.log(`opened at zoom ${opened.zoom}: node text ${opened.onScreen} px on screen`);
  assert.ok(opened.onScreen >= 11, `node text is ${opened.onScreen} px on screen`);
  assert.ok(Math.abs(opened.dx) < 3 && Math.abs(opened.dy) < 3, `Start is centred: ${opened.dx}, ${opened.dy}`);

  await page.getByRole('button', { name: 'Fit View' }).click();
  await settle(page);
  const fit = await view(page, 'Start');
  assert.ok(fit.zoom < opened.zoom, `fitting 14 states zooms out: ${fit.zoom}`);
  const all = await page.evaluate(() => {
    const c = document.querySelector('.react-flow').getBoundingClientRect();
    return [...document.querySelectorAll('.state-node')].every((n) => {
      const r = n.getBoundingClientRect();
      return r.x >= c.x - 1 && r.right <= c.right + 1 && r.y >= c.y - 1 && r.bottom <= c.bottom + 1;
    });
  });
  assert.ok(all, 'every state is in view after Fit View');
});

test('the minimap is small and can be put away', async () => {
  const { page } = app;
  const map = page.locator('.react-flow__minimap');
  const box = await map.boundingBox();
  const canvas = await view(page, null);
  const { width, height } = canvas.canvas;
  assert.ok(box.width * box.height <= 0.05 * width * height, `minimap ${box.width}×${box.height} on a ${width}×${height} canvas`);
  await page.getByRole('button', { name: 'Hide map' }).click();
  assert.equal(await map.count(), 0);
  await page.getByRole('button', { name: 'Map', exact: true }).click();
  assert.equal(await map.count(), 1);
});

test('Ctrl+F finds a state by selector, check or name, selects it and centres it', async () => {
  const { page } = app;
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+f');
  const box = page.getByLabel('search states');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'search states');

  // #username is a selector in Login page's checks (and nowhere in a name).
  await box.fill('#username');
  await box.press('Enter');
  await page.waitForSelector('.state-node.selected');
  await settle(page);
  const selected = await page.locator('.state-node.selected').getAttribute('data-state');
  assert.equal(selected, 'Login page');
  const at = await view(page, selected);
  assert.ok(Math.abs(at.dx) < 3 && Math.abs(at.dy) < 3, `the hit is centred: ${at.dx}, ${at.dy}`);
  assert.ok(at.onScreen >= 11, `and readable: ${at.onScreen} px`);

  await box.fill('cart');
  await box.press('Enter');
  await page.waitForFunction(() => document.querySelector('.state-node.selected')?.dataset.state === 'Cart');
  assert.match(await page.getByTestId('search-count').innerText(), /^1\/\d+$/);
  await box.fill('no such thing');
  assert.equal(await page.getByTestId('search-count').innerText(), 'no match');
});

test('during a run the graph follows the active state', async () => {
  const { page } = app;
  // As recorded, three times slower: the shortest stay in a state (88 ms) outlasts the camera's glide.
  await page.evaluate(async () => window.statewrightFake.replayWith(await fetch('fixtures/demo-run/recording.json').then((r) => r.json()), 3));
  // For every state the run enters: was it ever wholly in view while it was the active one?
  await page.evaluate(() => {
    const seen = (window.seenInView = new Map());
    const tick = () => {
      const node = document.querySelector('.state-node.active');
      const canvas = node?.closest('.react-flow')?.getBoundingClientRect();
      if (node && canvas) {
        const r = node.getBoundingClientRect();
        const inside = r.x >= canvas.x && r.right <= canvas.right && r.y >= canvas.y && r.bottom <= canvas.bottom;
        seen.set(node.dataset.state, seen.get(node.dataset.state) || inside);
      }
      // The run ends right after its last state is entered: watch on for the camera's glide.
      if (document.querySelector('[data-testid="run-phase"]')?.textContent !== 'succeeded') requestAnimationFrame(tick);
      else if (!window.endedAt) (window.endedAt = performance.now()), requestAnimationFrame(tick);
      else if (performance.now() - window.endedAt < 500) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.getByRole('button', { name: 'Run…' }).click();
  await page.getByRole('dialog', { name: 'start run' }).getByRole('button', { name: 'Start run' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-phase"]')?.textContent === 'succeeded', null, { timeout: 30000 });
  await page.waitForTimeout(600);
  const seen = new Map(await page.evaluate(() => [...window.seenInView]));
  assert.ok(seen.size >= 8, `the run went through its states: ${[...seen.keys()]}`);
  assert.deepEqual([...seen].filter(([, inside]) => !inside).map(([s]) => s), [], 'each active state came into view');
  await settle(page);
  const last = await page.locator('.state-node.active').getAttribute('data-state');
  const v = await view(page, last);
  // The result banner's line is there from the start: the canvas keeps its height, the last state its centre.
  assert.ok(v.inside && Math.abs(v.dx) < 3 && Math.abs(v.dy) < 3, `the last state stays centred: ${v.dx}, ${v.dy}`);
  assert.ok(v.onScreen >= 11, `readable: ${v.onScreen} px`);
  assert.ok((await page.locator('.run-graph .react-flow__edge-path.routed').count()) > 0, 'the run’s graph draws the layout’s routes too');
  assert.deepEqual(app.errors, []);
});
