// Save healed locators…: a run whose written target found nothing, but a recorded
// alternative did, offers to write that locator into the workflow file: the diff first, in
// a modal, then the file written, the previous version kept, and the open editor reloaded.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp('?scale=0.2')));
after(async () => app?.close());

const button = (page) => page.getByRole('button', { name: 'Save healed locators…' });
const runToEnd = async (page) => {
  await page.getByRole('tab', { name: 'Editor' }).click();
  await page.getByRole('button', { name: 'Run…' }).click();
  await page.getByRole('dialog', { name: 'start run' }).getByRole('button', { name: 'Start run' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-phase"]')?.textContent === 'succeeded', null, { timeout: 30000 });
};
const loginTarget = (page) => page.evaluate(() => JSON.parse(window.statewrightFake.files.get('demo-shop.json')).states.find((s) => s.name === 'Login page').actions[2].target);

test('a run that healed nothing offers nothing to save', async () => {
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.waitForSelector('[data-testid="node-Start"]');
  await runToEnd(page);
  assert.equal(await page.getByTestId('help-heals').count(), 0);
  assert.equal(await button(page).count(), 0);
  assert.deepEqual(app.errors, []);
});

test('a healed run previews the diff, saves it into the workflow and the editor reloads', async () => {
  const { page } = app;
  // The recorded run, with Login page's Sign in button found by role and name, not `#sign-in`.
  await page.evaluate(() => {
    const fake = window.statewrightFake;
    const events = fake.replayEvents().slice();
    const at = events.findIndex((e) => e.event === 'state_entered' && e.state === 'Login page') + 1;
    events.splice(at, 0, { event: 'healed', step: events[at - 1].step, state: 'Login page', index: 2, from: { css: '#sign-in' }, to: { role: 'button', name: 'Sign in' } });
    fake.replayWith({ detail: fake.runs.values().next().value, events }, 0.2);
  });
  await runToEnd(page);
  assert.equal(await page.getByTestId('help-heals').first().innerText(), '1 heal');

  // The preview: the changes and the diff, nothing written yet.
  await button(page).click();
  const dialog = page.getByRole('alertdialog', { name: 'Save healed locators' });
  await dialog.getByTestId('diff').waitFor();
  assert.equal(await dialog.getByTestId('healed-changes').innerText(), 'Login page action 3: locator healed');
  const diff = await dialog.getByTestId('diff').innerText();
  assert.match(diff, /^--- a\/demo-shop\.json/);
  assert.match(diff, /^-\s+"css": "#sign-in"$/m);
  assert.match(diff, /^\+\s+"role": "button",$/m);
  assert.deepEqual(await loginTarget(page), { css: '#sign-in' });
  // The file is long: the diff opens at its change, not at the top.
  const change = await dialog.getByTestId('diff').evaluate((pre) => {
    const [box, line] = [pre.getBoundingClientRect(), pre.querySelector('[data-change]').getBoundingClientRect()];
    return { scrolled: pre.scrollTop, shown: line.top >= box.top && line.bottom <= box.bottom };
  });
  assert.ok(change.scrolled > 0 && change.shown, JSON.stringify(change));

  // Cancel writes nothing; Save writes, says where and which version was kept.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(await dialog.count(), 0);
  assert.deepEqual(await loginTarget(page), { css: '#sign-in' });
  await button(page).click();
  await dialog.getByTestId('diff').waitFor();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByTestId('toast').filter({ hasText: 'Saved 1 locator into demo-shop.json (previous version kept as 1)' }).waitFor();
  assert.equal(await dialog.count(), 0);
  assert.deepEqual(await loginTarget(page), { role: 'button', name: 'Sign in' });
  // The open editor took the written file as any change from outside.
  await page.getByTestId('toast').filter({ hasText: 'demo-shop.json changed on disk: reloaded' }).waitFor();

  // Once saved there is nothing left to save: the modal says so and Save stays off.
  await button(page).click();
  await dialog.getByTestId('save-healed-error').waitFor();
  assert.equal(await dialog.getByTestId('save-healed-error').innerText(), 'the workflow already has these locators');
  assert.equal(await dialog.getByRole('button', { name: 'Save' }).isDisabled(), true);
  assert.equal(await dialog.getByTestId('diff').count(), 0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  assert.deepEqual(app.errors, []);
});

test('a past run shows what it healed, and still offers to save it', async () => {
  const { page } = app;
  const healedRun = await page.evaluate(() => [...window.statewrightFake.runs.values()].find((d) => d.healed?.length)?.run.id);
  assert.ok(healedRun, 'the healed run was kept with its heal');
  // Opened from the list, as a person comes back to it: rebuilt from the stored run alone.
  await page.getByRole('tab', { name: 'Editor' }).click();
  const entry = page.locator(`[data-testid="past-run"][data-run="${healedRun}"]`);
  assert.equal(await entry.getByTestId('help-heals').innerText(), '1 heal', 'the list says so too');
  await entry.click();
  await page.getByTestId('help-heals').first().waitFor();
  assert.equal(await page.getByTestId('help-heals').first().innerText(), '1 heal');
  await button(page).waitFor();
  assert.deepEqual(app.errors, []);
});
