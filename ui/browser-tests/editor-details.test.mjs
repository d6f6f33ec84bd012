// Editor details a person meets all day: a refused rename keeps them on their state,
// problems say where they are in words, a secret parameter's lock is drawn, not a glyph,
// new states land in free space, config settings are named in words.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp, selectState } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

test('renaming a state to a taken name is refused and the panel stays on the state being edited', async () => {
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await selectState(page, 'Cart');
  await page.getByRole('region', { name: 'state Cart' }).waitFor();
  const name = page.getByLabel('state name');
  await name.fill('Home page');
  await name.press('Enter');
  await page.waitForSelector('[data-testid="toast"]:has-text("already exists")');
  assert.equal(await page.getByRole('region', { name: 'state Cart' }).count(), 1, 'the form is still Cart’s');
  assert.equal(await name.inputValue(), 'Cart', 'the refused name went back to the state’s own');
  assert.equal(await page.locator('.state-node.selected').getAttribute('data-state'), 'Cart');
  assert.equal(await page.locator('.state-node[data-state="Home page"]').count(), 1, 'Home page is untouched');
  assert.deepEqual(app.errors, []);
});

test('a problem says where it is in words', async () => {
  const { page } = app;
  // The click of Cart loses its target: the validator finds `states[i].actions[j].target`.
  await page.getByLabel('target css').first().fill('');
  const item = page.getByTestId('problem-list').locator('li').first();
  await item.waitFor();
  assert.match(await item.innerText(), /^state Cart › action 1 › target: a target needs exactly one of/);
  assert.doesNotMatch(await page.getByTestId('problem-list').innerText(), /states\[\d+\]/, 'no raw JSON paths');
  // The words still lead to the state.
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await item.getByRole('button').click();
  assert.equal(await page.locator('.state-node.selected').getAttribute('data-state'), 'Cart');
  await page.keyboard.press('Control+z');
});

test('a secret parameter is marked with a drawn lock that has a size on screen', async () => {
  const { page } = app;
  await page.getByRole('button', { name: 'Run…' }).click();
  const dialog = page.getByRole('dialog', { name: 'start run' });
  await dialog.waitFor(); // its code comes on first use
  const lock = dialog.getByTestId('lock-icon');
  assert.equal(await lock.count(), 1, 'one secret parameter (password)');
  const box = await lock.boundingBox();
  assert.ok(box.width >= 10 && box.height >= 10, `the lock is drawn: ${box.width}×${box.height}`);
  assert.doesNotMatch(await dialog.innerText(), /🔒/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('Add state puts each new state in free space next to the selected one', async () => {
  const { page } = app;
  await selectState(page, 'Cart');
  const zoom = await page.locator('.react-flow__viewport').evaluate((v) => new DOMMatrix(getComputedStyle(v).transform).a);
  const centre = (b) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
  let near = 'Cart';
  for (const name of ['New state', 'New state 2', 'New state 3']) {
    await page.getByRole('button', { name: 'Add state' }).click();
    const added = page.locator(`.state-node[data-state="${name}"]`);
    await added.waitFor();
    assert.equal(await page.locator('.state-node.selected').getAttribute('data-state'), name, 'the new state is selected');
    const a = centre(await added.boundingBox());
    const b = centre(await page.locator(`.state-node[data-state="${near}"]`).boundingBox());
    const d = Math.hypot(a.x - b.x, a.y - b.y) / zoom;
    assert.ok(d < 450, `${name} is ${Math.round(d)} px from ${near}, which was selected`);
    near = name;
  }
  // States only: the interrupt lane is a band drawn around its states.
  const boxes = await page.locator('.react-flow__node-state').evaluateAll((ns) =>
    ns.map((n) => {
      const r = n.getBoundingClientRect();
      return { id: n.dataset.id, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    }),
  );
  for (const [i, a] of boxes.entries())
    for (const b of boxes.slice(i + 1)) {
      const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      assert.ok(apart, `${a.id} and ${b.id} overlap`);
    }
  for (let i = 0; i < 3; i++) await page.keyboard.press('Control+z');
  assert.deepEqual(app.errors, []);
});

test('config settings are named in words with a line of help, and no label runs into its control', async () => {
  const { page } = app;
  await page.getByRole('button', { name: 'Settings' }).click();
  const form = page.getByRole('region', { name: 'workflow settings' });
  const labels = await form.locator('.config-label').allInnerTexts();
  assert.deepEqual(labels, [
    'Allow several matching states',
    'State timeout (s)',
    'No-state timeout (s)',
    'Action timeout (s)',
    'Pause between actions (s)',
    'Look interval (s)',
    'State entry limit',
  ]);
  for (const help of await form.locator('.config-field .field-help').allInnerTexts()) assert.match(help, /^[A-Z].{10,90}\.$/, `help is one sentence: ${help}`);
  assert.equal(await form.getByLabel('No-state timeout (s)').inputValue(), '30');
  // The text as drawn (a Range over it), not its box: an overflowing label spills past its box.
  const clashes = await form.locator('.config-field label').evaluateAll((ls) =>
    ls.flatMap((l) => {
      const range = document.createRange();
      range.selectNodeContents(l.querySelector('.config-label'));
      const t = range.getBoundingClientRect();
      const c = l.querySelector('input').getBoundingClientRect();
      const apart = t.right <= c.left || c.right <= t.left || t.bottom <= c.top || c.bottom <= t.top;
      return apart && t.width > 0 ? [] : [`${l.textContent}: text ${Math.round(t.left)}–${Math.round(t.right)}, control ${Math.round(c.left)}–${Math.round(c.right)}`];
    }),
  );
  assert.deepEqual(clashes, []);
  // The words are the checkbox's label: clicking them toggles it.
  const multiple = form.getByLabel('Allow several matching states');
  assert.equal(await multiple.isChecked(), true);
  await form.getByText('Allow several matching states').click();
  assert.equal(await multiple.isChecked(), false);
  await page.getByRole('button', { name: 'Undo' }).click();
  assert.equal(await multiple.isChecked(), true);
});

test('a state’s `next` options stand in columns, each box to the left of its own name', async () => {
  const { page } = app;
  await selectState(page, 'Login page');
  const options = await page.locator('.next-option').evaluateAll((ls) =>
    ls.map((l) => {
      const box = l.querySelector('input').getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(l.lastChild);
      const text = range.getBoundingClientRect();
      return { name: l.textContent, left: Math.round(l.getBoundingClientRect().left), box: box.right, text: text.left };
    }),
  );
  assert.ok(options.length >= 10, `the demo's other states: ${options.length}`);
  // Flowing inline, "Login error ☐ Placing order" put a box right after another's name.
  const columns = new Set(options.map((o) => o.left));
  assert.ok(columns.size <= 3, `options start at ${[...columns].join(', ')}`);
  for (const o of options) assert.ok(o.box <= o.text, `${o.name}: its box is left of its name`);
  assert.deepEqual(app.errors, []);
});

test('Ctrl+Z undoes the last edit while a checkbox or a select has the focus; a text field keeps its own', async () => {
  const { page } = app;
  await selectState(page, 'Cart');
  const form = page.getByRole('region', { name: 'state Cart' });
  const continuous = form.getByLabel('continuous');
  await continuous.check();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'continuous', 'the checkbox has the focus');
  await page.keyboard.press('Control+z');
  await page.waitForFunction(() => !document.querySelector('[aria-label="continuous"]').checked);
  assert.match(await page.getByTestId('doc-title').innerText(), /^[^•]*$/, 'undone back to the saved workflow');

  const terminal = form.getByLabel('terminal outcome');
  await terminal.selectOption('success');
  await terminal.focus();
  await page.keyboard.press('Control+z');
  await page.waitForFunction(() => document.querySelector('[aria-label="terminal outcome"]').value === '');
  await page.keyboard.press('Control+y');
  await page.waitForFunction(() => document.querySelector('[aria-label="terminal outcome"]').value === 'success');
  await page.keyboard.press('Control+z');

  // In the description the keys are the field's: the workflow's last edit (the tick) stays.
  const description = form.getByLabel('state description');
  await description.focus();
  await page.keyboard.press('End');
  await page.keyboard.type('!');
  await continuous.check();
  await description.focus();
  await page.keyboard.press('Control+z');
  assert.equal(await continuous.isChecked(), true, 'Ctrl+Z in a text field leaves the checkbox ticked');
  assert.deepEqual(app.errors, []);
});

test('a renamed state stays where it was on the canvas, and goes back there with Ctrl+Z', async () => {
  const { page } = app;
  await selectState(page, 'Cart');
  // Whole pixels: the centring leaves the view a ten-thousandth of a pixel off now and then.
  const box = async (testId) => Object.values(await page.getByTestId(testId).boundingBox()).map(Math.round);
  const before = await box('node-Cart');
  const name = page.getByLabel('state name');
  await name.fill('Basket');
  await name.press('Enter');
  await page.getByTestId('node-Basket').waitFor();
  assert.deepEqual(await box('node-Basket'), before, 'the node did not move');
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+z');
  await page.getByTestId('node-Cart').waitFor();
  assert.deepEqual(await box('node-Cart'), before, 'nor with the rename undone');
  assert.deepEqual(app.errors, []);
});

test('a target by text can be matched loosely, and the file says exact: false', async () => {
  const { page } = app;
  await selectState(page, 'Cart');
  const form = page.getByRole('region', { name: 'state Cart' });
  await form.getByLabel('target locator').first().selectOption('text');
  await form.getByLabel('target text').first().fill('CHECKOUT');
  await form.getByLabel('target loosely').first().check();
  // The canvas takes an edit into its nodes in an effect after the form's render: wait for it.
  const node = page.getByTestId('node-Cart');
  await node.filter({ hasText: 'text “CHECKOUT” (loosely)' }).waitFor({ timeout: 5000 }).catch(() => {});
  assert.match(await node.innerText(), /text “CHECKOUT” \(loosely\)/, 'the node says so');
  await page.keyboard.press('Control+s');
  await page.waitForSelector('[data-testid="toast"]:has-text("Saved demo-shop.json")');
  const saved = await page.evaluate(() => JSON.parse(window.statewrightFake.files.get('demo-shop.json')));
  const cart = saved.states.find((s) => s.name === 'Cart');
  assert.deepEqual(cart.actions[0].target, { text: 'CHECKOUT', exact: false });
  // Offered for text and roles only.
  await form.getByLabel('target locator').first().selectOption('css');
  assert.equal(await form.getByLabel('target loosely').count(), 0, 'not for css');
  assert.deepEqual(app.errors, []);
});
