// Moving between tabs: a switch_tab action written in the editor, by address with a chosen
// comparison and closing the tab it leaves, then cleared back to “the previous tab”; what
// the node says, and what is saved.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { addAction, openApp } from './harness.mjs';

let app;
after(async () => app?.close());

test('a switch_tab action is written in the editor and saved as the model has it', async () => {
  app = await openApp();
  const { page, errors } = app;
  const { action } = await addAction(page, 'Cart', 'switch_tab');
  assert.deepEqual(await action.locator('.field-label').allInnerTexts(), ['tab', 'close']);
  assert.match(await page.getByTestId('node-Cart').innerText(), /back to the previous tab/);

  await action.getByLabel('tab url', { exact: true }).fill('/help');
  await action.getByLabel('tab match', { exact: true }).selectOption('pattern');
  await action.getByLabel('close', { exact: true }).check();
  await page.waitForFunction(() => document.querySelector('[data-testid="node-Cart"]')?.innerText.includes('switch to tab /help, closing this one'));
  await page.keyboard.press('Control+s');
  await page.waitForSelector('[data-testid="toast"]:has-text("Saved demo-shop.json")');
  const saved = async () => JSON.parse(await page.evaluate(() => window.statewrightFake.files.get('demo-shop.json')));
  const cartState = (wf) => wf.states.find((s) => s.name === 'Cart');
  assert.deepEqual(cartState(await saved()).actions.at(-1), { type: 'switch_tab', tab: { url: '/help', match: 'pattern' }, close: true });

  // Emptied, the selector goes away: the action means the previous tab again.
  await action.getByLabel('tab url', { exact: true }).fill('');
  await action.getByLabel('tab match', { exact: true }).selectOption('contains');
  await action.getByLabel('close', { exact: true }).uncheck();
  await page.keyboard.press('Control+s');
  await page.waitForFunction(() => JSON.parse(window.statewrightFake.files.get('demo-shop.json')).states.find((s) => s.name === 'Cart').actions.at(-1).close === undefined);
  assert.deepEqual(cartState(await saved()).actions.at(-1), { type: 'switch_tab' });
  assert.deepEqual(errors, []);
});

test('a review lists the run’s other tabs, and a person sends the run to one in a click', async () => {
  const { page, errors } = app;
  await page.evaluate(() => {
    const fake = window.statewrightFake;
    const tabs = [
      { url: 'http://127.0.0.1:8000/voucher.html', title: 'Voucher form', previous: true },
      { url: 'http://127.0.0.1:8000/code.html', title: 'Your voucher' },
    ];
    fake.addReview({ ...fake.reviews[0], id: 77, status: 'open', resolution: null, tabs });
  });
  await page.getByRole('tab', { name: /Review/ }).click();
  await page.getByTestId('review-item').filter({ hasText: '#77' }).click();
  assert.equal(await page.getByTestId('other-tabs').innerText(), 'Other tabs: “Voucher form” (the tab before) · “Your voucher”');

  await page.getByLabel('Corrective actions').check();
  await page.getByRole('button', { name: '+ switch to “Your voucher”' }).click();
  await page.getByRole('button', { name: '+ switch to “Voucher form” (the tab before)' }).click();
  await page.getByRole('button', { name: 'Resolve' }).click();
  await page.waitForSelector('[data-testid="toast"]:has-text("resolved: actions")');
  const actions = await page.evaluate(() => window.statewrightFake.reviews.find((r) => r.id === 77).resolution.actions);
  assert.deepEqual(actions, [{ type: 'switch_tab', tab: { title: 'Your voucher', match: 'exact' } }, { type: 'switch_tab' }]);
  // A review without other tabs says nothing about them.
  await page.getByTestId('review-item').filter({ hasText: '#1 ' }).click();
  assert.equal(await page.getByTestId('other-tabs').count(), 0);
  assert.deepEqual(errors, []);
});
