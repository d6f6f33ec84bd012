// Every main view at 1024×768 and at 1280×800: each toolbar is one row with nothing cut off,
// the document never scrolls sideways, and the side panels sit beside the canvas or the
// page they go with, never over it. With the panels at their widest, the editor's buttons
// that no longer fit are under *More*, and work from there.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openApp, selectState } from './harness.mjs';

const apps = [];
after(async () => Promise.all(apps.map((a) => a.close())));

/** What is wrong with the layout on screen now, as sentences; [] when nothing is. */
const layoutProblems = (page, pairs) =>
  page.evaluate((pairs) => {
    const problems = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) problems.push(`the document is ${root.scrollWidth} px wide in a ${root.clientWidth} px window`);
    const shown = (e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
    };
    for (const bar of document.querySelectorAll('.topbar, .toolbar')) {
      if (!shown(bar)) continue;
      const box = bar.getBoundingClientRect();
      const items = [...bar.children].filter(shown).map((c) => ({ c, r: c.getBoundingClientRect() }));
      const tops = items.map(({ r }) => r.top);
      if (Math.max(...tops) - Math.min(...tops) > 6) problems.push(`${bar.className}: items start at ${tops.map(Math.round).join(', ')}: more than one row`);
      for (const { c, r } of items)
        if (r.right > box.right + 0.5 || r.left < box.left - 0.5) problems.push(`${bar.className}: "${c.textContent.slice(0, 30)}" is cut off (${Math.round(r.left)}–${Math.round(r.right)} in ${Math.round(box.left)}–${Math.round(box.right)})`);
    }
    for (const [panelSel, mainSel] of pairs) {
      const panel = document.querySelector(panelSel)?.getBoundingClientRect();
      const main = document.querySelector(mainSel)?.getBoundingClientRect();
      if (!panel || !main) {
        problems.push(`${panelSel} or ${mainSel} is missing`);
        continue;
      }
      if (panel.right > innerWidth + 0.5) problems.push(`${panelSel} runs off the window at ${panel.right}`);
      const apart = panel.right <= main.left + 0.5 || main.right <= panel.left + 0.5;
      if (!apart) problems.push(`${panelSel} (${Math.round(panel.left)}–${Math.round(panel.right)}) covers ${mainSel} (${Math.round(main.left)}–${Math.round(main.right)})`);
      if (main.width < 300) problems.push(`${mainSel} is only ${Math.round(main.width)} px wide`);
    }
    return problems;
  }, pairs);

/** Clicks an editor toolbar button, in the row or, where it did not fit, under *More*. */
async function toolbarAction(page, label) {
  const inRow = page.locator('.editor > .toolbar').getByRole('button', { name: label, exact: true });
  if (await inRow.count()) return inRow.click();
  await page.getByRole('button', { name: 'More ▾' }).click();
  await page.getByRole('menu', { name: 'more actions' }).getByRole('menuitem', { name: label }).click();
}

/** Once the overflow row settled: a button is under *More* exactly when the row has no room
 * for it (it wrapped, or the first, alone, sticks out). */
const rowSettled = (page) =>
  page.waitForFunction(() => {
    const row = document.querySelector('.overflow-row');
    const room = row.getBoundingClientRect();
    return [...row.children].every((b) => {
      const r = b.getBoundingClientRect();
      const fits = r.top < room.top + r.height / 2 && r.right <= room.right + 0.5;
      return b.classList.contains('overflowed') === !fits;
    });
  });

for (const [width, height] of [
  [1024, 768],
  [1280, 800],
]) {
  test(`at ${width}×${height} the editor, the run viewer, the batch and the review hold their layout`, async () => {
    const app = await openApp('?scale=0.1', { viewport: { width, height } });
    apps.push(app);
    const { page } = app;
    await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
    await selectState(page, 'Cart');
    await page.getByRole('region', { name: 'state Cart' }).waitFor();
    await page.getByRole('button', { name: 'Add state' }).click(); // unsaved: the name carries its dot
    const editor = [
      ['.sidebar', '[data-testid="graph"]'],
      ['.side-panel', '[data-testid="graph"]'],
    ];
    assert.deepEqual(await layoutProblems(page, editor), [], 'the editor');

    // A run that healed a locator and needed a person: its toolbar at its fullest.
    await page.evaluate(() => {
      const fake = window.statewrightFake;
      const events = fake.replayEvents().slice();
      const at = events.findIndex((e) => e.event === 'state_entered' && e.state === 'Login page') + 1;
      events.splice(at, 0, { event: 'healed', step: events[at - 1].step, state: 'Login page', index: 2, from: { css: '#sign-in' }, to: { role: 'button', name: 'Sign in' } });
      fake.replayWith({ detail: fake.runs.values().next().value, events }, 0.1);
    });
    await page.keyboard.press('Control+s');
    await page.getByRole('button', { name: 'Run…' }).click();
    await page.getByRole('dialog', { name: 'start run' }).getByRole('button', { name: 'Start run' }).click();
    await page.getByRole('button', { name: 'Save healed locators…' }).waitFor({ timeout: 30000 });
    assert.deepEqual(await layoutProblems(page, [['.sidebar', '[data-testid="step-stage"]'], ['.run-side', '[data-testid="step-stage"]']]), [], 'the run viewer');

    await page.getByRole('tab', { name: 'Editor' }).click();
    await toolbarAction(page, 'Batch…');
    const dialog = page.getByRole('dialog', { name: 'batch run' });
    await dialog.getByLabel('batch data').fill('/data/orders.csv');
    await dialog.getByRole('button', { name: 'Start batch' }).click();
    await page.getByTestId('batch-results').waitFor({ timeout: 30000 });
    assert.deepEqual(await layoutProblems(page, [['.sidebar', '.batch-table']]), [], 'the batch');

    await page.getByRole('tab', { name: /Review/ }).click();
    await page.getByTestId('review-detail').waitFor();
    assert.deepEqual(await layoutProblems(page, [['.review-list', '[data-testid="review-detail"]']]), [], 'the review');
    assert.deepEqual(app.errors, []);
  });
}

test('at 1024×768 with both editor panels at their widest the buttons that do not fit are under More', async () => {
  const app = await openApp('', { viewport: { width: 1024, height: 768 } });
  apps.push(app);
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await selectState(page, 'Cart');
  for (const name of ['resize workflows list', 'resize state panel']) {
    await page.getByRole('separator', { name }).focus();
    await page.keyboard.press('End');
  }
  await page.waitForFunction(() => document.querySelector('.sidebar').getBoundingClientRect().width > 280);
  await rowSettled(page);
  const more = page.getByRole('button', { name: 'More ▾' });
  assert.deepEqual(await layoutProblems(page, [['.sidebar', '[data-testid="graph"]']]), [], 'the editor, panels wide');
  // Each secondary button is in the row or in the menu, never both, never neither.
  const inRow = await page.locator('.editor > .toolbar').getByRole('button').allInnerTexts();
  await more.click();
  const menu = page.getByRole('menu', { name: 'more actions' });
  const inMenu = await menu.getByRole('menuitem').allInnerTexts();
  assert.ok(inMenu.length > 0, 'something went into the menu');
  for (const label of ['Go here', 'Batch…', 'Layout', 'Settings'])
    assert.equal(inRow.filter((t) => t === label).length + inMenu.filter((t) => t === label).length, 1, `${label}: row ${inRow}, menu ${inMenu}`);
  assert.deepEqual(inMenu.slice(-1), ['Settings'], 'the workflow’s settings go first (a click on the canvas shows them too)');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('role')), 'menuitem', 'the menu takes the focus');
  await page.keyboard.press('Escape');
  assert.equal(await menu.count(), 0, 'Escape closes the menu');
  assert.equal(await more.evaluate((b) => b === document.activeElement), true, 'and gives the focus back to More');

  await more.click();
  await menu.getByRole('menuitem', { name: 'Settings' }).click();
  await page.getByRole('region', { name: 'workflow settings' }).waitFor();
  assert.equal(await menu.count(), 0, 'choosing closes the menu');

  // Back to the default widths, the row has room for more of them again.
  await page.getByRole('separator', { name: 'resize workflows list' }).dblclick();
  await page.getByRole('separator', { name: 'resize state panel' }).dblclick();
  await page.waitForFunction(() => document.querySelector('.sidebar').getBoundingClientRect().width === 200);
  await rowSettled(page);
  const secondary = (texts) => texts.filter((t) => ['Go here', 'Batch…', 'Layout', 'Settings'].includes(t));
  const row = await page.locator('.editor > .toolbar').getByRole('button').allInnerTexts();
  assert.ok(secondary(row).length > secondary(inRow).length, `more of them back in the row: ${secondary(row)}, against ${secondary(inRow)}`);
  assert.deepEqual(app.errors, []);
});
