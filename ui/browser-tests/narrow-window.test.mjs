// The editor on a 1024×768 screen: the toolbar stays one row of buttons, the graph keeps
// room to work in and the side panels fit their contents.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp, selectState } from './harness.mjs';

let app;
before(async () => (app = await openApp('', { viewport: { width: 1024, height: 768 } })));
after(async () => app?.close());

/** The toolbar's height, one button's, and the items whose middle is off the buttons' row. */
const toolbarRows = (page) =>
  page.locator('.editor > .toolbar').evaluate((bar) => {
    const button = bar.querySelector('button').getBoundingClientRect();
    const row = button.top + button.height / 2;
    const off = [...bar.children]
      .filter((c) => c.getBoundingClientRect().height > 0)
      .filter((c) => Math.abs(c.getBoundingClientRect().top + c.getBoundingClientRect().height / 2 - row) > 4)
      .map((c) => c.textContent || c.className);
    const style = getComputedStyle(bar);
    const inner = bar.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
    return { inner, button: button.height, off };
  });

const overflowing = (page, selector) =>
  page.locator(selector).evaluate((panel) => [...panel.querySelectorAll('input, select, textarea, button')].filter((e) => e.getBoundingClientRect().right > panel.getBoundingClientRect().right + 0.5).map((e) => e.getAttribute('aria-label') ?? e.textContent));

test('at 1024×768 the editor toolbar is one row and the graph at least 400 px wide', async () => {
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.waitForSelector('[data-testid="node-Cart"]');
  for (const moment of ['workflow settings', 'a state selected', 'unsaved changes']) {
    if (moment === 'a state selected') await selectState(page, 'Cart');
    if (moment === 'unsaved changes') await page.getByRole('button', { name: 'Add state' }).click();
    const bar = await toolbarRows(page);
    assert.ok(Math.abs(bar.inner - bar.button) <= 2, `${moment}: the toolbar is ${bar.inner} px inside for ${bar.button} px buttons`);
    assert.deepEqual(bar.off, [], `${moment}: everything sits on the buttons' row`);
    const canvas = await page.getByTestId('graph').boundingBox();
    assert.ok(canvas.width >= 400, `${moment}: the graph is ${canvas.width} px wide`);
    assert.deepEqual(await overflowing(page, '.side-panel'), [], `${moment}: nothing sticks out of the side panel`);
    assert.deepEqual(await overflowing(page, '.sidebar'), [], `${moment}: nothing sticks out of the workflows list`);
  }
  // The unsaved-changes dot survives the name giving way.
  const title = await page.getByTestId('doc-title').boundingBox();
  const bar = await page.locator('.editor > .toolbar').boundingBox();
  assert.match(await page.getByTestId('doc-title').innerText(), /•$/);
  assert.ok(title.x + title.width <= bar.x + bar.width);
  await page.keyboard.press('Control+z');
  assert.deepEqual(app.errors, []);
});
