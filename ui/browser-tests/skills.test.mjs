// Skills in the editor: the list's Skills group after the workflows, a skill opened with its
// preconditions and postconditions, and a workflow's use_skill action with its arguments,
// edited and saved, a misspelt argument or skill named where it is (also after saving), at
// 1024×768 and in dark mode.
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

const problemsIn = (item) => item.locator('.problem').allInnerTexts();
const waitForProblemCount = (page, text) => page.waitForFunction((t) => document.querySelector('[data-testid="problem-count"]')?.textContent === t, text);

test('the skills are a group of their own after the workflows, and a skill opens with its conditions', async () => {
  const { page, errors } = await open();
  const list = page.getByRole('navigation', { name: 'workflows' });
  const group = list.getByRole('region', { name: 'skills' });
  await group.waitFor();
  assert.equal(await group.getByRole('heading').textContent(), 'Skills');
  assert.deepEqual(await group.getByTestId('workflow-entry').allTextContents(), ['demo-sign-inskill 5 states']);
  const all = await list.getByTestId('workflow-entry').evaluateAll((es) => es.map((e) => [e.firstChild.textContent, e.dataset.skill ?? '']));
  assert.deepEqual(all, [['demo-account', ''], ['demo-shop', ''], ['demo-sign-in', 'true']], 'the workflows, then the skill');

  await group.getByTestId('workflow-entry').click();
  await page.waitForSelector('[data-testid="node-Login form"]');
  assert.equal(await page.getByTestId('skill-badge').innerText(), 'skill');
  assert.equal(await page.locator('.doc-id').innerText(), 'skills/demo-sign-in.json');
  const form = page.getByRole('region', { name: 'workflow settings' });
  assert.equal(await form.getByRole('heading', { level: 3 }).innerText(), 'Skill');
  const pre = form.getByRole('region', { name: 'preconditions' });
  const post = form.getByRole('region', { name: 'postconditions' });
  assert.deepEqual(await pre.locator('[aria-label$=" type"]').evaluateAll((ss) => ss.map((s) => s.value)), ['url', 'element']);
  assert.equal(await pre.getByTestId('precondition-0').getByLabel('value', { exact: true }).inputValue(), '{{site}}/login.html');
  assert.equal(await pre.getByTestId('precondition-1').getByLabel('selector', { exact: true }).inputValue(), '#username');
  assert.equal(await post.getByLabel('postcondition 1 type').inputValue(), 'text');
  assert.equal(await post.getByTestId('postcondition-0').getByLabel('value', { exact: true }).inputValue(), 'Signed in as {{username}}');
  assert.equal(await form.getByTestId('skill-source').count(), 0, 'no source: it was written by hand');

  // A precondition is edited like a state's check, and validated like one.
  await pre.getByLabel('add precondition').selectOption('text');
  const added = pre.getByTestId('precondition-2');
  await added.getByLabel('value', { exact: true }).fill('Welcome {{usrname}}');
  await added.locator('.problem', { hasText: 'reference to undefined parameter or variable `usrname`' }).waitFor();
  assert.match((await problemsIn(added)).join('\n'), /did you mean `username`\?/);
  assert.match(await page.getByTestId('problem-list').innerText(), /skill › precondition 3 › value: reference to undefined/);
  await added.getByLabel('value', { exact: true }).fill('Welcome {{username}}');
  await waitForProblemCount(page, 'valid');
  assert.match(await page.getByTestId('doc-title').innerText(), /•$/, 'unsaved');
  await page.keyboard.press('Control+s');
  await page.waitForSelector('[data-testid="toast"]:has-text("Saved skills/demo-sign-in.json")');
  const saved = await page.evaluate(() => JSON.parse(window.statewrightFake.files.get('skills/demo-sign-in.json')));
  assert.deepEqual(saved.skill.pre.at(-1), { type: 'text', value: 'Welcome {{username}}' });
  assert.equal(saved.skill.post.length, 1);
  assert.deepEqual(errors, []);
});

/** Whether anything in `selector` reaches past its right edge. */
const overflowing = (page, selector) =>
  page.locator(selector).evaluate((panel) => [...panel.querySelectorAll('input, select, button, .kv-tag, .problem')].filter((e) => e.getBoundingClientRect().right > panel.getBoundingClientRect().right + 0.5).map((e) => e.getAttribute('aria-label') ?? e.textContent));

test('a use_skill shows its arguments; one edited is saved, and a misspelt argument or skill is named', async () => {
  const { page, errors } = await open('', { viewport: { width: 1024, height: 768 } });
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-account' }).click();
  const node = page.getByTestId('node-Login page');
  await node.waitFor();
  assert.match(await node.innerText(), /1\. use_skill demo-sign-in\(site, username, password\)/);
  assert.equal(await page.getByTestId('skill-badge').count(), 0, 'a workflow is no skill');
  await selectState(page, 'Login page');
  const action = page.getByRole('region', { name: 'state Login page' }).getByTestId('action-0');
  await action.waitFor();
  assert.equal(await action.getByLabel('action 1 type').inputValue(), 'use_skill');
  assert.equal(await action.getByLabel('skill', { exact: true }).inputValue(), 'demo-sign-in');
  const args = action.getByRole('group', { name: 'args' });
  const rows = args.getByTestId('argument-row');
  assert.deepEqual(await rows.evaluateAll((rs) => rs.map((r) => r.dataset.name)), ['site', 'username', 'password']);
  assert.equal(await args.getByLabel('argument username', { exact: true }).inputValue(), '{{username}}');
  // The skill is read to know its parameters: the password has no default there.
  await args.locator('[data-name="password"] .kv-tag', { hasText: 'required' }).waitFor();
  assert.equal(await args.locator('[data-name="username"] .kv-tag').count(), 0);
  assert.deepEqual(await args.getByLabel('add argument').locator('option').allInnerTexts(), ['+ add argument…', 'another name…'], 'every parameter is given');
  assert.deepEqual(await overflowing(page, '.side-panel'), [], 'the action fits the side panel at 1024×768');

  // An argument edited and saved.
  await args.getByLabel('argument username', { exact: true }).fill('ann');
  await page.keyboard.press('Control+s');
  await page.waitForSelector('[data-testid="toast"]:has-text("Saved demo-account.json")');
  const saved = async () => (await page.evaluate(() => JSON.parse(window.statewrightFake.files.get('demo-account.json')))).states.find((s) => s.name === 'Login page').actions[0];
  assert.deepEqual(await saved(), { type: 'use_skill', skill: 'demo-sign-in', args: { site: '{{site}}', username: 'ann', password: '{{password}}' } });
  assert.match(await node.innerText(), /use_skill demo-sign-in\(site, username, password\)/);

  // A misspelt argument is named in its row, with the skill's parameters.
  await args.getByLabel('argument 2 name').fill('usrname');
  await args.getByLabel('argument 2 name').press('Enter');
  const row = args.locator('[data-name="usrname"]');
  await row.locator('.problem', { hasText: 'skill `demo-sign-in` has no parameter `usrname`' }).waitFor();
  assert.match((await problemsIn(row)).join('\n'), /its parameters: site, username, password/);
  assert.match(await page.getByTestId('problem-list').innerText(), /state Login page › action 1 › argument usrname: skill `demo-sign-in` has no parameter/);
  // The name is offered back, since the skill is still missing it.
  await args.getByLabel('add argument').selectOption('username');
  await args.locator('[data-name="username"]').waitFor();
  await args.getByLabel('remove argument usrname').click();
  await waitForProblemCount(page, 'valid');

  // A required argument taken away is asked for.
  await args.getByLabel('remove argument password').click();
  await action.locator('.problem', { hasText: 'skill `demo-sign-in` needs the argument `password`' }).waitFor();
  await page.keyboard.press('Control+z');
  await waitForProblemCount(page, 'valid');

  // A misspelt skill, typed, is named with the nearest skill; saving keeps the problem in sight.
  await action.getByLabel('skill', { exact: true }).selectOption({ label: 'another skill…' });
  await action.getByLabel('skill name').fill('demo-sign-on');
  const skillField = action.locator('.field', { has: page.getByLabel('skill name') });
  await skillField.locator('.problem', { hasText: 'there is no skill `demo-sign-on`' }).waitFor();
  assert.match((await problemsIn(skillField)).join('\n'), /did you mean `demo-sign-in`\?/);
  assert.match(await args.locator('.field-help').innerText(), /No skills\/demo-sign-on\.json in the skills folder/);
  await page.keyboard.press('Control+s');
  await page.waitForSelector('[data-testid="toast"]:has-text("Saved demo-account.json with 1 problem(s)")');
  assert.equal((await saved()).skill, 'demo-sign-on');
  await skillField.locator('.problem', { hasText: 'there is no skill `demo-sign-on`' }).waitFor();
  assert.equal(await page.getByTestId('problem-count').innerText(), '1 problem');
  await action.getByLabel('skill name').fill('demo-sign-in');
  await waitForProblemCount(page, 'valid');
  assert.deepEqual(await overflowing(page, '.side-panel'), [], 'the form still fits with its messages gone');
  assert.deepEqual(errors, []);
});

test('outputs copy a skill’s variables into the workflow’s, which later checks may name', async () => {
  const { page, errors } = await open();
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-account' }).click();
  await selectState(page, 'Login page');
  const action = page.getByRole('region', { name: 'state Login page' }).getByTestId('action-0');
  const outputs = action.getByRole('group', { name: 'outputs' });
  await outputs.getByLabel('add output').selectOption({ label: 'another name…' });
  await outputs.getByLabel('output 1 variable').fill('greeting');
  await outputs.getByLabel('output 1 variable').press('Enter');
  await outputs.getByLabel('output greeting', { exact: true }).fill('welcome_text');
  await outputs.locator('[data-name="greeting"] .problem', { hasText: 'skill `demo-sign-in` sets no variable `welcome_text`' }).waitFor();
  assert.match(await page.getByTestId('node-Login page').innerText(), /use_skill demo-sign-in\(site, username, password\) → greeting/);
  // The variable set here is known to a check of a later state.
  await selectState(page, 'Account read');
  const checks = page.getByRole('region', { name: 'state Account read' });
  await checks.getByTestId('check-0').getByLabel('name', { exact: true }).fill('greeting');
  await page.waitForFunction(() => ![...document.querySelectorAll('.problem')].some((p) => p.textContent.includes('no variable or parameter')));
  assert.equal(await page.getByTestId('problem-count').innerText(), '1 problem', 'only the unknown skill variable');
  assert.deepEqual(errors, []);
});

test('a stored run shows the skill’s states as its own steps, and the use_skill that ran them', async () => {
  const { page, errors } = await open('?fixture=fixtures/demo-orders/', { viewport: { width: 1024, height: 768 } });
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-orders' }).click();
  await page.getByTestId('past-run').first().click();
  const labels = page.getByTestId('timeline-step').locator('.thumb-label');
  await labels.first().waitFor();
  assert.deepEqual(await labels.allInnerTexts(), [
    '1. Start',
    '2. Login page',
    '3. demo-sign-in › Login form',
    '4. demo-sign-in › Signing in',
    '5. demo-sign-in › Signed in',
    '6. Signed in',
    '7. Order history',
    '8. Newest order opened',
  ]);
  await page.locator('[data-testid="timeline-step"][data-step="2"] button').click();
  const detail = page.getByTestId('step-detail');
  await detail.getByText('Step 2: Login page').waitFor();
  assert.match(await detail.locator('.actions').innerText(), /use_skill demo-sign-in\(site, username, password\)[\s\S]*skill demo-sign-in: 3 steps/);
  assert.doesNotMatch(await detail.innerText(), /correct horse/, 'the password stays masked');
  await page.locator('[data-testid="timeline-step"][data-step="3"] button').click();
  await detail.getByText('Step 3: demo-sign-in › Login form').waitFor();
  assert.match(await detail.locator('.actions').innerText(), /type “demo” into #username/);
  assert.deepEqual(errors, []);
});

test('in dark mode at 1024×768 the skill tags and rows are light on dark', async () => {
  const { page, errors } = await open('', { viewport: { width: 1024, height: 768 }, colorScheme: 'dark' });
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-account' }).click();
  await selectState(page, 'Login page');
  await page.locator('.kv-tag').waitFor();
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
  for (const selector of ['.skill-group .skill-badge', '.kv-tag', '.kv-value', '.kv-name']) {
    assert.ok((await luminance(selector, 'backgroundColor')) < 0.2, `${selector} has a dark background`);
    assert.ok((await luminance(selector, 'color')) > 0.4, `${selector} has light text`);
  }
  assert.deepEqual(await overflowing(page, '.sidebar'), [], 'the skills group fits the list');
  assert.deepEqual(errors, []);
});
