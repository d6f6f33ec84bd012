// *Run with a goal* against the fake backend: without a model it says where to set one; with
// one, the goal and its values reach the backend and the run is shown live to its end. A task
// file's batch shows the answers, and *Judge answers* grades them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

test('a run with a goal needs a model, then is watched live to its end', async () => {
  const { page } = app;
  await page.getByRole('button', { name: 'Run with a goal…' }).click();
  const dialog = page.getByRole('dialog', { name: 'run with a goal' });
  assert.equal(await dialog.getByRole('button', { name: 'Start' }).isDisabled(), true, 'a goal is needed first');
  await dialog.getByLabel('goal text').fill('Buy {{quantity}} kettles');
  await dialog.getByLabel('goal params').fill('quantity=2\npassword=hunter2');
  await dialog.getByLabel('goal max steps').fill('12');
  await dialog.getByRole('button', { name: 'Start' }).click();
  await page.waitForSelector('[data-testid="toast"]:has-text("needs a model")');

  await page.evaluate(() => (window.statewrightFake.model = { url: 'http://127.0.0.1:11434/v1', model: 'qwen2.5vl:7b' }));
  await page.getByRole('button', { name: 'Run with a goal…' }).click();
  const again = page.getByRole('dialog', { name: 'run with a goal' });
  await again.getByLabel('goal text').fill('Open the shop');
  await again.getByLabel('goal params').fill('quantity=2');
  await again.getByRole('button', { name: 'Start' }).click();
  await again.waitFor({ state: 'detached' });
  await page.waitForSelector('[data-testid="run-phase"]:has-text("succeeded")');
  assert.equal(await page.locator('.run-viewer > .toolbar').getByTestId('help-modelCalls').innerText(), '1 model call');
  assert.ok((await page.getByTestId('timeline-step').count()) >= 2, 'the agent steps are in the timeline');
  const sent = await page.evaluate(() => window.statewrightFake.agentRequests);
  assert.equal(sent.length, 1);
  assert.deepEqual(sent[0], { goal: 'Open the shop', url: '{{site}}/', params: { quantity: '2' }, headed: false, demo_site: true, max_steps: 25 });
});

test('a task file runs a goal per task in the Batch tab, each with the model’s answer and use', async () => {
  const { page } = app;
  await page.evaluate(() => (window.statewrightFake.model = {}));
  const open = async () => {
    await page.getByRole('button', { name: 'Run with a goal…' }).click();
    await page.getByRole('dialog', { name: 'run with a goal' }).getByRole('button', { name: 'Task file…' }).click();
    const dialog = page.getByRole('dialog', { name: 'task file run' });
    await dialog.getByLabel('batch data').fill('/data/WebVoyager_data.jsonl');
    await dialog.getByLabel('batch max steps').fill('15');
    await dialog.getByRole('button', { name: 'Start batch' }).click();
    return dialog;
  };
  // Without a model it says where to set one, and the dialog stays.
  const refused = await open();
  await page.waitForSelector('[data-testid="toast"]:has-text("need a model")');
  assert.equal(await refused.isVisible(), true);
  await refused.getByRole('button', { name: 'Cancel' }).click();

  await page.evaluate(() => (window.statewrightFake.model = { url: 'http://127.0.0.1:11434/v1', model: 'qwen2.5vl:7b' }));
  const dialog = await open();
  await dialog.waitFor({ state: 'detached' });
  await page.waitForSelector('[data-testid="batch-tally"]:text-is("3/3 · 2 succeeded · 1 failed")', { timeout: 10000 });
  assert.equal(await page.locator('.batch-view > .toolbar strong').innerText(), 'tasks for the model');
  const headers = await page.locator('.batch-table th').allInnerTexts();
  assert.deepEqual(headers.slice(6), ['model', 'id', 'goal', 'url', 'web_name', 'answer']);
  assert.deepEqual(await page.getByTestId('batch-output-answer').allInnerTexts(), ['Sign in · Northwind Supply', '', 'Reaction rounds · Northwind Supply']);
  assert.deepEqual(await page.getByTestId('batch-model').allInnerTexts(), ['2 calls · 1,310 tokens', '1 call · 640 tokens', '2 calls · 1,310 tokens']);
  const sent = await page.evaluate(() => window.statewrightFake.batchRequests.at(-1));
  assert.deepEqual(sent.each, { kind: 'goals', max_steps: 15 });

  // Judge answers: a verdict per task as the model gives it, the failed task's at once, then
  // the score; the request names the results table the batch wrote.
  await page.getByRole('button', { name: 'Judge answers' }).click();
  await page.waitForSelector('[data-testid="judge-score"]', { timeout: 10000 });
  assert.equal(await page.getByTestId('judge-score').innerText(), 'score 33.3% · 1 success · 2 not success');
  assert.equal(await page.locator('.batch-table th').nth(7).innerText(), 'verdict');
  const verdicts = await page.getByTestId('batch-verdict').allInnerTexts();
  assert.match(verdicts[0], /^success the sign-in page’s title is on the last screenshot$/);
  assert.match(verdicts[1], /^not success the run failed: the model gave up/);
  assert.match(verdicts[2], /^not success the answer is not what the task asked$/);
  const judged = await page.evaluate(() => window.statewrightFake.judgeRequests);
  assert.deepEqual(judged, [{ results: '/data/WebVoyager_data.results.json', again: false }]);
  // Judged once, *Judge again* asks anew about every task.
  await page.getByRole('button', { name: 'Judge again' }).click();
  await page.waitForSelector('[data-testid="judge-progress"]');
  await page.waitForSelector('[data-testid="judge-score"]', { timeout: 10000 });
  assert.deepEqual((await page.evaluate(() => window.statewrightFake.judgeRequests)).at(-1), { results: '/data/WebVoyager_data.results.json', again: true });
  // A model that cannot be reached gives no verdict, and says so on the row and in the score.
  await page.evaluate(() => (window.statewrightFake.judgeReachable = false));
  await page.getByRole('button', { name: 'Judge again' }).click();
  await page.waitForSelector('[data-testid="judge-score"]:text-is("score 0.0% · 0 success · 1 not success · 2 without a verdict")', { timeout: 10000 });
  assert.match((await page.getByTestId('batch-verdict').allInnerTexts())[0], /^no verdict no verdict: the model could not be reached$/);
  await page.evaluate(() => (window.statewrightFake.judgeReachable = true));
});
