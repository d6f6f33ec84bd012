// A run that needed help says so: reviews, heals, retries and model calls as badges on the
// run (viewer header, past-runs list) and on the steps they happened in (timeline).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp('?scale=0.2')));
after(async () => app?.close());

/** Badge texts by kind inside `root`, e.g. { heals: '1 heal' }. */
const badges = (locator) =>
  locator.evaluate((root) => Object.fromEntries([...root.querySelectorAll('.help-badge')].map((b) => [b.dataset.testid.replace('help-', ''), b.textContent])));

test('a live run’s reviews, heals, retries and model calls are badged on the run and on their steps', async () => {
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.waitForSelector('[data-testid="node-Start"]');
  // The recorded run, with a heal on step 2 and two retries, a review and a model call on step 3.
  await page.evaluate(() => {
    const fake = window.statewrightFake;
    const events = fake.replayEvents().slice();
    const after = (step) => events.findIndex((e) => e.event === 'state_entered' && e.step === step) + 1;
    events.splice(after(2), 0, { event: 'healed', step: 2, state: 'Home page', index: 0, from: { css: '#sign-in-link' }, to: { role: 'link', name: 'Sign in' } });
    events.splice(
      after(3),
      0,
      { event: 'retrying', step: 3, state: 'Login page', attempt: 1, max: 2, reason: 'not verified' },
      { event: 'retrying', step: 3, state: 'Login page', attempt: 2, max: 2, reason: 'not verified' },
      { event: 'model_called', step: 3, state: 'Login page', model: 'm', prompt_chars: 900, prompt_tokens: 100, completion_tokens: 20, latency_ms: 700, cost: 0, answer: 'retry', accepted: false, error: 'no' },
      { event: 'review_requested', review_id: 9, step: 3, state: 'Login page', reason: 'stuck' },
      { event: 'review_resolved', review_id: 9, resolution: { kind: 'retry' } },
    );
    fake.replayWith({ detail: fake.runs.values().next().value, events }, 0.2);
  });
  await page.getByRole('button', { name: 'Run…' }).click();
  await page.getByRole('dialog', { name: 'start run' }).getByRole('button', { name: 'Start run' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-phase"]')?.textContent === 'succeeded', null, { timeout: 30000 });

  assert.deepEqual(await badges(page.locator('.run-viewer > .toolbar')), { reviews: '1 review', heals: '1 heal', retries: '2 retries', modelCalls: '1 model call' });
  const step = (n) => page.locator(`[data-testid="timeline-step"][data-step="${n}"]`);
  assert.deepEqual(await badges(step(2)), { heals: 'heal' });
  assert.deepEqual(await badges(step(3)), { reviews: 'review', retries: 'retry ×2', modelCalls: 'model call' });
  for (const n of [1, 4, 5]) assert.deepEqual(await badges(step(n)), {}, `step ${n} needed nothing`);
  // The badge says what it means on hover.
  assert.match(await step(2).getByTestId('help-heals').getAttribute('title'), /recorded alternative found the element/);
  assert.deepEqual(app.errors, []);
});

test('the past-runs list badges model calls, reviews, heals and retries; an opened past run shows them on their steps', async () => {
  const { page } = app;
  await page.evaluate(() => {
    const fake = window.statewrightFake;
    const detail = fake.runs.values().next().value;
    fake.addRunFromOutside({ ...detail, run: { ...detail.run, id: 'plain', started_ms: Date.now() - 1000 } });
    fake.addRunFromOutside({ ...detail, run: { ...detail.run, id: 'helped', llm_calls: 3, started_ms: Date.now() } });
    fake.addReview({ ...fake.reviews[0], id: 42, run_id: 'helped', step: 4, status: 'resolved', resolution: { kind: 'skip' } });
  });
  const entry = page.getByTestId('past-run').first();
  await page.waitForFunction(() => document.querySelector('[data-testid="past-run"]')?.textContent.includes('model calls'), null, { timeout: 6000 });
  assert.deepEqual(await badges(entry), { reviews: '1 review', modelCalls: '3 model calls' });
  // The run just done keeps its heal and its retries (its review and model call are kept
  // in other records); a run that went straight through has no badges.
  const done = page.getByTestId('past-run').filter({ hasText: 'heal' });
  assert.deepEqual(await badges(done), { heals: '1 heal', retries: '2 retries' });
  assert.deepEqual(await badges(page.locator('[data-testid="past-run"][data-run="plain"]')), {});
  await done.click();
  await page.waitForFunction(() => document.querySelector('[data-testid="timeline-step"][data-step="3"] .help-retries')?.textContent === 'retry ×2');
  assert.deepEqual(await badges(page.locator('[data-testid="timeline-step"][data-step="2"]')), { heals: 'heal' });

  await entry.click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-phase"]')?.textContent === 'succeeded');
  assert.deepEqual(await badges(page.locator('.run-viewer > .toolbar')), { reviews: '1 review' });
  assert.deepEqual(await badges(page.locator('[data-testid="timeline-step"][data-step="4"]')), { reviews: 'review' });
  assert.deepEqual(app.errors, []);
});
