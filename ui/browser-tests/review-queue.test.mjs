// The review queue after months of use: the list is the open reviews and the latest closed
// ones, says how many older ones it leaves out and shows more on demand; a review chosen in
// it is asked for in full (its page, its elements), a closed one as well as an open one.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

test('the list leaves older closed reviews out and says so; a chosen one comes in full', async () => {
  const { page } = app;
  await page.evaluate(() => {
    const fake = window.statewrightFake;
    const base = fake.reviews[0];
    // 80 resolved reviews, each on its own page, older than the open one the fixture has.
    fake.reviews = Array.from({ length: 80 }, (_, i) => ({ ...base, id: 100 + i, status: 'resolved', resolution: { kind: 'skip' }, resolved_ms: Date.now(), url: `http://shop.test/order/${100 + i}`, title: `Order ${100 + i}` }));
    fake.addReview(base); // and the app hears of the change
    // Which reviews the panel asks for in full.
    window.asked = [];
    const show = fake.showReview.bind(fake);
    fake.showReview = (id) => (window.asked.push(id), show(id));
  });
  await page.getByRole('tab', { name: /Review/ }).click();
  const detail = page.getByTestId('review-detail');
  await detail.waitFor();
  // The open review is shown first, asked for on its own.
  assert.match(await detail.innerText(), /Failing action/);
  assert.deepEqual(await page.evaluate(() => window.asked), [1]);

  const items = page.getByTestId('review-item');
  assert.equal(await items.count(), 51, 'the open review and the latest 50 closed ones');
  assert.match(await items.nth(0).innerText(), /^#1 open/, 'the open one first, however old');
  assert.match(await items.nth(1).innerText(), /^#179 resolved/);
  assert.equal(await page.getByTestId('older-reviews').innerText(), '30 older closed reviews not listed. Show more');

  // A resolved review's page, as it was, when a person chooses it.
  await items.filter({ hasText: '#150 ' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="review-detail"]')?.textContent.includes('http://shop.test/order/150'));
  assert.match(await detail.innerText(), /Order 150[\s\S]*Resolved: \{"kind":"skip"\}/);
  assert.equal(await page.getByTestId('element-box').count(), await page.evaluate(() => window.statewrightFake.reviews[0].elements.length));
  assert.deepEqual(await page.evaluate(() => window.asked), [1, 150]);

  // Show more: the older ones too, and nothing left out.
  await page.getByRole('button', { name: 'Show more' }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="review-item"]').length === 81);
  assert.equal(await page.getByTestId('older-reviews').count(), 0);
  await items.filter({ hasText: '#100 ' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="review-detail"]')?.textContent.includes('Order 100'));
  assert.deepEqual(app.errors, []);
});
