// Side panels resize by dragging their splitter or with its arrow keys, within bounds; the
// width survives a reload, and a double-click brings the default back.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp, selectState } from './harness.mjs';

let app;
before(async () => {
  app = await openApp('', { viewport: { width: 1280, height: 800 } });
  await openShop(app.page);
});
after(async () => app?.close());

async function openShop(page) {
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.waitForSelector('[data-testid="node-Cart"]');
}
const width = async (page, selector) => (await page.locator(selector).boundingBox()).width;
/** Waits for the panel to be `w` px wide (give or take a pixel): a resize renders a frame later. */
const widthIs = (page, selector, w) =>
  page.waitForFunction(([s, w]) => Math.abs(document.querySelector(s).getBoundingClientRect().width - w) <= 1, [selector, w]);

/** The value `splitter` announces once it says `value`, or after a second what it says
 * then: it is measured from the panel after the resize, a render after the width. */
async function announced(splitter, value) {
  for (let tries = 0; tries < 50 && (await splitter.getAttribute('aria-valuenow')) !== value; tries++) await new Promise((r) => setTimeout(r, 20));
  return splitter.getAttribute('aria-valuenow');
}

/** Drags `splitter` sideways by `dx` in small moves, as a hand would. */
async function drag(page, splitter, dx) {
  const b = await splitter.boundingBox();
  const x = b.x + b.width / 2;
  const y = b.y + b.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + 30, { steps: 8 });
  await page.mouse.up();
}

test('dragging the workflows list’s splitter widens it, and the width survives a reload', async () => {
  const { page } = app;
  const splitter = page.getByRole('separator', { name: 'resize workflows list' });
  const before = await width(page, '.sidebar');
  assert.equal(before, 250, 'the default width at 1280 px');
  await drag(page, splitter, 90);
  await widthIs(page, '.sidebar', 340);
  assert.equal(await announced(splitter, '340'), '340', 'the splitter tells its value');
  const canvas = await page.getByTestId('graph').boundingBox();
  const sidebar = await page.locator('.sidebar').boundingBox();
  assert.ok(sidebar.x + sidebar.width <= canvas.x + 1, 'the editor moved over; the list does not cover the canvas');

  await page.reload();
  await page.waitForSelector('.app');
  await openShop(page);
  assert.equal(await width(page, '.sidebar'), 340, 'remembered across a reload');

  // Past the ends: never under its floor, never over its share of the window.
  await drag(page, splitter, -400);
  await widthIs(page, '.sidebar', 170);
  await drag(page, splitter, 600);
  await widthIs(page, '.sidebar', Math.floor(0.28 * 1280));
  assert.equal(await splitter.getAttribute('aria-valuemax'), String(Math.floor(0.28 * 1280)));

  await splitter.dblclick();
  await widthIs(page, '.sidebar', 250);
  await page.reload();
  await page.waitForSelector('.app');
  await openShop(page);
  assert.equal(await width(page, '.sidebar'), 250, 'the reset is remembered too');
  assert.deepEqual(app.errors, []);
});

test('the state panel resizes from the keyboard and its form fits at the narrowest', async () => {
  const { page } = app;
  await selectState(page, 'Cart');
  const splitter = page.getByRole('separator', { name: 'resize state panel' });
  await splitter.focus();
  await page.keyboard.press('ArrowLeft');
  await widthIs(page, '.side-panel', 376);
  await page.keyboard.press('Shift+ArrowLeft');
  await widthIs(page, '.side-panel', 440);
  await page.keyboard.press('ArrowRight');
  await widthIs(page, '.side-panel', 424);
  assert.equal(await announced(splitter, '424'), '424');
  // The arrows are the splitter's: they did not also reach the editor's shortcuts.
  assert.doesNotMatch(await page.getByTestId('doc-title').innerText(), /•/, 'nothing was edited');

  await page.keyboard.press('Home');
  await widthIs(page, '.side-panel', 280);
  const sticksOut = await page.locator('.side-panel').evaluate((panel) =>
    [...panel.querySelectorAll('input, select, textarea, button')].filter((e) => e.getBoundingClientRect().right > panel.getBoundingClientRect().right + 0.5).map((e) => e.getAttribute('aria-label') ?? e.textContent),
  );
  assert.deepEqual(sticksOut, [], 'the state form fits the narrowest panel');
  await page.keyboard.press('End');
  await widthIs(page, '.side-panel', Math.floor(0.4 * 1280));

  await page.reload();
  await page.waitForSelector('.app');
  await openShop(page);
  assert.equal(await width(page, '.side-panel'), Math.floor(0.4 * 1280), 'remembered across a reload');
  await page.getByRole('separator', { name: 'resize state panel' }).dblclick();
  await widthIs(page, '.side-panel', 360);
  assert.deepEqual(app.errors, []);
});

test('the run viewer’s side column and the review list resize too', async () => {
  const { page } = app;
  await page.getByTestId('past-run').first().click();
  await page.getByTestId('run-viewer').waitFor();
  const before = await width(page, '.run-side');
  await drag(page, page.getByRole('separator', { name: 'resize graph and step details' }), -60);
  await widthIs(page, '.run-side', before + 60);
  const stage = await page.getByTestId('step-stage').boundingBox();
  const side = await page.locator('.run-side').boundingBox();
  assert.ok(stage.x + stage.width <= side.x + 1, 'the page shown narrows beside the wider column');

  await page.getByRole('tab', { name: /Review/ }).click();
  await page.getByTestId('review-detail').waitFor();
  const list = await width(page, '.review-list');
  await drag(page, page.getByRole('separator', { name: 'resize review list' }), 50);
  await widthIs(page, '.review-list', list + 50);
  assert.equal(await page.getByRole('separator', { name: 'resize workflows list' }).count(), 0, 'the workflows list is hidden here, and its splitter with it');
  assert.deepEqual(app.errors, []);
});
