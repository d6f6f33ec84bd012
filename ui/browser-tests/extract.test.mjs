// Reading the page into run variables: an extract action and a variable check written in the
// editor (the form shows what applies, the validator knows the variable), and a run's
// extracted values shown under their actions and its outputs heading the side panel, for a
// stored run and a live one, at 1024×768 and in dark mode.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openApp, selectState } from './harness.mjs';

const apps = [];
after(async () => Promise.all(apps.map((a) => a.close())));
const open = async (...args) => {
  const app = await openApp(...args);
  apps.push(app);
  return app;
};

/** The labels of the fields a list item's form shows, in order. */
const fieldLabels = (item) => item.locator('.field-label').allInnerTexts();
const problemsIn = (item) => item.locator('.problem').allInnerTexts();

test('an extract action and a variable check are written in the editor, validated and saved', async () => {
  const { page, errors } = await open();
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  // Through the search, which waits for the view to settle: a click on the node while the
  // graph was still being laid out landed on another state (seen in CI).
  await selectState(page, 'Cart');
  const cart = page.getByRole('region', { name: 'state Cart' });
  await cart.waitFor();

  // The new action reads text by default: no attribute field until an attribute is read.
  const actionsBefore = await cart.locator('[data-testid^="action-"]').count();
  await cart.getByLabel('add action').selectOption('extract');
  const extract = cart.getByTestId(`action-${actionsBefore}`);
  assert.deepEqual(await fieldLabels(extract), ['target', 'into', 'read', 'pattern']);
  await extract.getByLabel('target css', { exact: true }).fill('#cart-total');
  await extract.getByLabel('into', { exact: true }).fill('cart total');
  await page.waitForFunction(() => [...document.querySelectorAll('.problem')].some((p) => p.textContent.includes('`cart total` is not a valid variable name')));
  await extract.getByLabel('into', { exact: true }).fill('cart_total');
  await extract.getByLabel('read', { exact: true }).selectOption('attribute');
  assert.deepEqual(await fieldLabels(extract), ['target', 'into', 'read', 'attribute', 'pattern']);
  await page.waitForFunction(() => [...document.querySelectorAll('.problem')].some((p) => p.textContent.includes('`read: attribute` needs the attribute')));
  await extract.getByLabel('attribute', { exact: true }).fill('data-total');
  await page.waitForFunction(() => document.querySelector('[data-testid="problem-count"]')?.textContent === 'valid');
  // A table has no single text to narrow: the pattern field steps aside.
  await extract.getByLabel('read', { exact: true }).selectOption('table');
  // The stale attribute stays in sight, with its problem beside it.
  await extract.locator('.field', { hasText: 'attribute' }).locator('.problem', { hasText: '`attribute` is only read with "read": "attribute"' }).waitFor();
  await extract.getByLabel('attribute', { exact: true }).fill('');
  assert.deepEqual(await fieldLabels(extract), ['target', 'into', 'read']);
  await extract.getByLabel('read', { exact: true }).selectOption('attribute');
  await extract.getByLabel('attribute', { exact: true }).fill('data-total');
  await page.waitForFunction(() => document.querySelector('[data-testid="problem-count"]')?.textContent === 'valid');
  assert.match(await page.getByTestId('node-Cart').innerText(), /extract data-total of #cart-total → cart_total/);

  // A check on the variable, in the state after: a typo is named with the nearest known
  // name, and so is an undefined reference in its value; both fixed.
  await selectState(page, 'Placing order');
  const placing = page.getByRole('region', { name: 'state Placing order' });
  await placing.waitFor();
  const checksBefore = await placing.locator('[data-testid^="check-"]').count();
  await placing.getByLabel('add check').selectOption('variable');
  const check = placing.getByTestId(`check-${checksBefore}`);
  assert.deepEqual(await fieldLabels(check), ['name', 'match', 'value']);
  await check.getByLabel('name', { exact: true }).fill('cart_totl');
  await check.getByLabel('match', { exact: true }).selectOption('at_least');
  await check.getByLabel('value', { exact: true }).fill('{{totl}}');
  await check.locator('.problem', { hasText: 'no variable or parameter `cart_totl`' }).waitFor();
  await check.locator('.problem', { hasText: 'reference to undefined parameter or variable `totl`' }).waitFor();
  const said = (await problemsIn(check)).join('\n');
  assert.match(said, /did you mean `cart_total`\?/, 'the nearest variable is suggested');
  assert.match(said, /did you mean `total`\?/, 'a variable read later in the workflow counts too');
  await check.getByLabel('name', { exact: true }).fill('cart_total');
  await check.getByLabel('value', { exact: true }).fill('10');
  await page.waitForFunction(() => document.querySelector('[data-testid="problem-count"]')?.textContent === 'valid');
  assert.match(await page.getByTestId('node-Placing order').innerText(), /variable cart_total ≥ 10/);

  await page.keyboard.press('Control+s');
  await page.waitForSelector('[data-testid="toast"]:has-text("Saved demo-shop.json")');
  const saved = await page.evaluate(() => JSON.parse(window.statewrightFake.files.get('demo-shop.json')));
  const state = (name) => saved.states.find((s) => s.name === name);
  assert.deepEqual(state('Cart').actions.at(-1), { type: 'extract', target: { css: '#cart-total' }, into: 'cart_total', read: 'attribute', attribute: 'data-total' });
  assert.deepEqual(state('Placing order').checks.at(-1), { type: 'variable', name: 'cart_total', match: 'at_least', value: '10' });
  assert.deepEqual(errors, []);
});

/** Whether anything in `selector` reaches past its right edge (it may scroll inside). */
const sticksOut = (page, selector) =>
  page.locator(selector).evaluate((panel) => {
    const right = panel.getBoundingClientRect().right + 0.5;
    return [...panel.querySelectorAll('.value-box, .run-outputs, .extracted, dd, dt')].filter((e) => e.getBoundingClientRect().right > right).map((e) => e.className || e.tagName);
  });

test('a stored run shows each extract’s value under its action and its outputs on top, at 1024×768', async () => {
  const { page, errors } = await open('?fixture=fixtures/demo-orders/', { viewport: { width: 1024, height: 768 } });
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-orders' }).click();
  await page.getByTestId('past-run').first().click();
  const outputs = page.getByTestId('run-outputs');
  await outputs.waitFor();

  const names = await outputs.locator('[data-output]').evaluateAll((os) => os.map((o) => o.dataset.output));
  assert.deepEqual(names, ['order_count', 'spent', 'shown_rows', 'order_numbers', 'orders', 'status_filter', 'newest_order', 'newest_order_link']);
  const output = (name) => outputs.locator(`[data-output="${name}"] dd`);
  assert.equal(await output('spent').innerText(), '159.50');
  assert.equal(await output('shown_rows').innerText(), '4');
  assert.deepEqual(await output('order_numbers').locator('li').allInnerTexts(), ['NW-204871', 'NW-730512', 'NW-055398', 'NW-612940']);
  const table = output('orders').locator('table');
  assert.deepEqual(await table.locator('th').allInnerTexts(), ['Order', 'Placed', 'Items', 'Total', 'Status']);
  assert.equal(await table.locator('tbody tr').count(), 4);
  assert.deepEqual(await table.locator('tbody tr').first().locator('td').allInnerTexts(), ['NW-204871', '2026-10-22', '1 × Cast iron skillet', '$34.00', 'Shipped']);
  assert.match(await table.locator('caption').innerText(), /4 rows × 5 columns/);
  assert.deepEqual(await sticksOut(page, '.run-side .side-panel'), [], 'the outputs fit the side panel (tables scroll inside their box)');
  const box = await output('orders').locator('.value-box').boundingBox();
  assert.ok(box.height <= 182, `a table is bounded: ${box.height} px high`);

  // The step that read them: every extract shows what it read.
  await page.locator('[data-testid="timeline-step"][data-step="7"] button').click();
  const detail = page.getByTestId('step-detail');
  await detail.getByText('Step 7: Order history').waitFor();
  const read = await detail.getByTestId('extracted-value').evaluateAll((vs) => vs.map((v) => v.dataset.into));
  assert.deepEqual(read, ['order_count', 'spent', 'shown_rows', 'order_numbers', 'orders', 'status_filter', 'newest_order', 'newest_order_link']);
  assert.match(await detail.getByTestId('extracted-value').nth(6).innerText(), /newest_order =\s*NW-204871/);
  assert.equal(await detail.getByTestId('extracted-value').nth(4).locator('tbody tr').count(), 4);
  assert.match(await detail.innerText(), /extract list of #orders tbody td:first-child → order_numbers/);
  assert.deepEqual(await sticksOut(page, '.run-side .side-panel'), [], 'the step’s values fit the side panel');
  assert.deepEqual(errors, []);
});

test('a live run shows its outputs when it ends', async () => {
  const { page, errors } = await open('?scale=0.1');
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.waitForSelector('[data-testid="node-Start"]');
  await page.getByRole('button', { name: 'Run…' }).click();
  await page.getByRole('dialog', { name: 'start run' }).getByRole('button', { name: 'Start run' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-phase"]')?.textContent === 'succeeded', null, { timeout: 30000 });
  const outputs = page.getByTestId('run-outputs');
  assert.equal(await outputs.locator('[data-output="order_number"] dd').innerText(), 'NW-542052');
  assert.equal(await outputs.locator('[data-output="total"] dd').innerText(), '78.00');
  // The run follows its last step, which read them.
  assert.deepEqual(await page.getByTestId('extracted-value').evaluateAll((vs) => vs.map((v) => v.dataset.into)), ['order_number', 'total']);
  assert.deepEqual(errors, []);
});

test('in dark mode the outputs are light text on dark surfaces', async () => {
  const { page, errors } = await open('?fixture=fixtures/demo-orders/', { viewport: { width: 1024, height: 768 }, colorScheme: 'dark' });
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-orders' }).click();
  await page.getByTestId('past-run').first().click();
  await page.getByTestId('run-outputs').waitFor();
  const luminance = (selector, prop) =>
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
  for (const selector of ['.run-outputs', '.run-outputs .value-box', '.run-outputs .value-table th', '.run-outputs .value-table td']) {
    assert.ok((await luminance(selector, 'backgroundColor')) < 0.2, `${selector} has a dark background`);
    assert.ok((await luminance(selector, 'color')) > 0.5, `${selector} has light text`);
  }
  assert.deepEqual(errors, []);
});
