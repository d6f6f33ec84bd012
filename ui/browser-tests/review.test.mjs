// The review queue with the fake backend: badge, list, screenshot with element boxes,
// corrective actions on a picked element, the diff preview, resolving and saving.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

test('a waiting run shows in the badge and can be resolved with a saved fix', async () => {
  const { page } = app;
  const badge = page.getByTestId('review-badge');
  assert.equal(await badge.innerText(), '1');
  await page.getByRole('tab', { name: /Review/ }).click();
  const detail = page.getByTestId('review-detail');
  await detail.waitFor();
  assert.match(await detail.innerText(), /Failing action/);

  // The screenshot with one box per element; picking one names it.
  await page.waitForSelector('[data-testid="element-box"]');
  const boxes = await page.getByTestId('element-box').count();
  const elements = await page.evaluate(() => window.statewrightFake.reviews[0].elements.length);
  assert.equal(boxes, elements);
  await page.getByTestId('element-box').first().click();
  assert.match(await page.getByTestId('picked-element').innerText(), /^e\d+|\w/);

  // A corrective click on the picked element, previewed as a diff of the workflow file.
  await page.getByLabel('Corrective actions').check();
  await page.getByRole('button', { name: /\+ action on/ }).click();
  // A long line in the diff's context (the state's description) wraps inside the panel.
  await page.evaluate(() => {
    const fake = window.statewrightFake;
    const wf = JSON.parse(fake.files.get('demo-shop.json'));
    wf.states.find((s) => s.name === 'Home page').description = 'The shop’s home page, signed out. '.repeat(12);
    fake.writeFromOutside('demo-shop.json', wf);
  });
  await page.getByRole('button', { name: 'Preview diff' }).click();
  const diff = await page.getByTestId('diff').innerText();
  assert.match(diff, /^\+\s+"type": "click"/m, `the diff adds the click:\n${diff}`);
  assert.match(diff, /signed out\. The shop/, 'the long line is in the diff');
  const overflow = await page.getByTestId('diff').evaluate((d) => d.scrollWidth - d.clientWidth);
  assert.ok(overflow <= 1, `the diff scrolls sideways by ${overflow} px`);

  await page.getByLabel('save into workflow').check();
  await page.getByRole('button', { name: 'Resolve' }).click();
  await page.waitForSelector('[data-testid="toast"]:has-text("resolved: actions (saved into the workflow)")');
  assert.equal(await badge.count(), 0, 'the badge is gone once nothing waits');
  const review = await page.evaluate(() => window.statewrightFake.reviews[0]);
  assert.equal(review.status, 'resolved');
  assert.equal(review.resolution.kind, 'actions');
});

test('a new review arriving updates the badge', async () => {
  const { page } = app;
  await page.evaluate(() => window.statewrightFake.addReview({ ...window.statewrightFake.reviews[0], id: 99, status: 'open', resolution: null }));
  assert.equal(await page.getByTestId('review-badge').innerText(), '1');
  assert.deepEqual(app.errors, []);
});

test('a fix the model proposed is marked as such, previewed, and approved into the workflow', async () => {
  const { page } = app;
  await page.evaluate(() => {
    const fake = window.statewrightFake;
    const base = fake.reviews[0];
    const click = { type: 'click', target: { role: 'link', name: 'Sign in' } };
    fake.addReview({ ...base, id: 77, status: 'open', proposed_by: 'qwen2.5vl', resolution: { kind: 'actions', actions: [click] }, resolved_ms: null });
  });
  await page.getByRole('tab', { name: /Review/ }).click();
  await page.getByTestId('review-item').filter({ hasText: '#77' }).click();
  const proposal = page.getByTestId('proposal');
  await proposal.waitFor();
  assert.match(await proposal.innerText(), /Proposed by the model qwen2.5vl/);
  assert.match(await page.getByTestId('review-item').filter({ hasText: '#77' }).innerText(), /proposed by the model/);
  await proposal.getByRole('button', { name: 'Preview diff' }).click();
  await page.waitForSelector('[data-testid="diff"]');
  assert.match(await page.getByTestId('diff').innerText(), /\+.*Sign in/);
  await proposal.getByRole('button', { name: 'Approve' }).click();
  await page.waitForSelector('[data-testid="toast"]:has-text("Proposal #77 approved")');
  const state = await page.evaluate(() => window.statewrightFake.reviews.find((r) => r.id === 77).status);
  assert.equal(state, 'approved');
  const saved = await page.evaluate(() => JSON.parse(window.statewrightFake.files.get('demo-shop.json')));
  assert.ok(JSON.stringify(saved).includes('"name":"Sign in"'), 'the fix is in the workflow file');
});
