// Dark mode follows the system: with the system dark, the app's surfaces are dark and its
// text light, in the chrome, the side panel, the graph's nodes and the controls.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp('', { colorScheme: 'dark' })));
after(async () => app?.close());

/** Relative luminance (WCAG) of the computed `prop` of the first element matching `selector`,
 * with transparent backgrounds taken from the nearest ancestor that paints one. */
const luminance = (page, selector, prop) =>
  page.locator(selector).first().evaluate((el, prop) => {
    let e = el;
    let value = getComputedStyle(e)[prop];
    while (prop === 'backgroundColor' && /rgba\(.*, 0\)$|transparent/.test(value) && e.parentElement) value = getComputedStyle((e = e.parentElement))[prop];
    const [r, g, b] = value.match(/[\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }, prop);

test('with the system in dark mode the app is dark with light text', async () => {
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.waitForSelector('[data-testid="node-Cart"]');
  for (const selector of ['.app', '.sidebar', '.editor > .toolbar', '.side-panel', '.react-flow__pane', '.state-node[data-state="Cart"]', '.side-panel textarea', '.toolbar button']) {
    const bg = await luminance(page, selector, 'backgroundColor');
    assert.ok(bg < 0.2, `${selector} background luminance ${bg.toFixed(3)}`);
  }
  for (const selector of ['.app', '.side-panel h3', '.node-name', '.side-panel textarea', '.toolbar button']) {
    const fg = await luminance(page, selector, 'color');
    assert.ok(fg > 0.6, `${selector} text luminance ${fg.toFixed(3)}`);
  }
  assert.deepEqual(app.errors, []);
});

test('with the system in light mode it stays light', async () => {
  const { page } = app;
  await page.emulateMedia({ colorScheme: 'light' });
  for (const selector of ['.app', '.side-panel', '.state-node[data-state="Cart"]']) {
    const bg = await luminance(page, selector, 'backgroundColor');
    assert.ok(bg > 0.8, `${selector} background luminance ${bg.toFixed(3)}`);
  }
  assert.ok((await luminance(page, '.app', 'color')) < 0.1);
});
