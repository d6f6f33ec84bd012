// Corrective actions as a reviewer builds them from picked elements: a picked box becomes a
// `check` to the state it is not in, changing an action's type keeps its element, and a
// drag is let go on a second picked element.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

test('a picked box is checked, a type change keeps the element, a drag lets go on the next pick', async () => {
  const { page } = app;
  await page.getByRole('tab', { name: /Review/ }).click();
  await page.getByTestId('review-detail').waitFor();
  await page.evaluate(() => {
    const base = window.statewrightFake.reviews[0];
    const rect = (x, y) => ({ x, y, width: 120, height: 24 });
    const elements = [
      { id: 'e1', tag: 'input', role: 'checkbox', name: 'Remember me', text: '', rect: rect(20, 20), selector: '#remember', type: 'checkbox', checked: false },
      { id: 'e2', tag: 'div', role: '', name: '', text: 'Call Ada', rect: rect(20, 80), selector: '#call' },
      { id: 'e3', tag: 'h2', role: 'heading', name: 'Done', text: 'Done', rect: rect(300, 80), selector: '#done h2' },
    ];
    window.statewrightFake.addReview({ ...base, id: 42, elements });
  });
  await page.getByTestId('review-item').filter({ hasText: '#42' }).click();
  await page.getByLabel('Corrective actions').check();

  await page.locator('[data-testid="element-box"][data-label="checkbox “Remember me”"]').click();
  await page.getByRole('button', { name: '+ action on checkbox “Remember me”' }).click();
  assert.equal(await page.getByLabel('corrective action 1 type').inputValue(), 'check');

  await page.locator('[data-testid="element-box"][data-label="div “Call Ada”"]').click();
  await page.getByRole('button', { name: '+ action on div “Call Ada”' }).click();
  await page.getByLabel('corrective action 2 type').selectOption('drag');
  await page.locator('[data-testid="element-box"][data-label="heading “Done”"]').click();
  await page.getByRole('button', { name: 'let go on heading “Done”' }).click();

  await page.getByRole('button', { name: 'Resolve' }).click();
  await page.waitForSelector('[data-testid="toast"]:has-text("resolved: actions")');
  const actions = await page.evaluate(() => window.statewrightFake.reviews.find((r) => r.id === 42).resolution.actions);
  assert.deepEqual(actions, [
    { type: 'check', target: { role: 'checkbox', name: 'Remember me' } },
    { type: 'drag', target: { css: '#call' }, to: { role: 'heading', name: 'Done' } },
  ]);
  assert.deepEqual(app.errors, []);
});
