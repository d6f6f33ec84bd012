// A run no state recognised: the review says so in a sentence and shows the engine's
// closest states as a table of their checks (how many hold, which fail), not one long
// paragraph with raw backticks.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

test('a no-state failure shows the closest states as a table of their checks', async () => {
  const { page } = app;
  await page.getByRole('tab', { name: /Review/ }).click();
  await page.getByTestId('review-detail').waitFor();
  await page.evaluate(() => {
    const base = window.statewrightFake.reviews[0];
    const closest = [
      { state: 'Home page', passed: 1, total: 2, failing: ['element "#hero"'] },
      { state: 'Login page', passed: 2, total: 4, failing: ['element "#username"', 'not text "Signing in…"'] },
      { state: 'Cart', passed: 0, total: 1, failing: ['url starts with "http://127.0.0.1:8931/cart.html"'] },
    ];
    // The engine's own reason, as `explain` writes it: one line per closest state, in backticks.
    const reason = `no state matched for 10 s (no_states_timeout) at ${base.url} (title "${base.title}")${closest.map((d) => `\n  closest: \`${d.state}\` (${d.passed}/${d.total} checks pass; failing: ${d.failing.join('; ')})`).join('')}`;
    window.statewrightFake.addReview({ ...base, id: 51, state: null, action: null, reason, failure: { kind: 'no_state', seconds: 10, url: base.url, title: base.title, closest } });
  });
  await page.getByTestId('review-item').filter({ hasText: '#51' }).click();
  const detail = page.getByTestId('review-detail');
  const problem = detail.locator('p.problem.error');
  assert.equal(await problem.innerText(), 'no state matched this page for 10 s');
  const { height } = await problem.boundingBox();
  assert.ok(height < 24, `the reason is one line: ${height} px`);

  const rows = await page.getByTestId('closest-state').evaluateAll((trs) =>
    trs.map((tr) => ({
      state: tr.cells[0].innerText,
      score: tr.cells[1].innerText.trim(),
      meter: tr.querySelector('meter').value,
      failing: [...tr.querySelectorAll('li.fail code')].map((c) => c.innerText),
      holding: tr.querySelector('li.pass')?.innerText ?? null,
    })),
  );
  assert.deepEqual(rows, [
    { state: 'Home page', score: '1/2', meter: 1, failing: ['element "#hero"'], holding: '✓ 1 other holds' },
    { state: 'Login page', score: '2/4', meter: 2, failing: ['element "#username"', 'not text "Signing in…"'], holding: '✓ 2 others hold' },
    { state: 'Cart', score: '0/1', meter: 0, failing: ['url starts with "http://127.0.0.1:8931/cart.html"'], holding: null },
  ]);
  assert.doesNotMatch(await detail.innerText(), /`/, 'no raw backticks anywhere');
  // The list item says it short too.
  assert.match(await page.getByTestId('review-item').filter({ hasText: '#51' }).innerText(), /no state matched this page for 10 s$/);
  assert.deepEqual(app.errors, []);
});
