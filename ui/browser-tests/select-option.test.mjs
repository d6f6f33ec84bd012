// A select_option action written in the editor: an option a line, one line saved as a
// string (as before lists were allowed) and several as a list, the node's summary naming
// each, and a label holding a comma kept whole.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { addAction, openApp } from './harness.mjs';

const apps = [];
after(async () => Promise.all(apps.map((a) => a.close())));

test('a select_option takes an option a line and is saved as one string or a list', async () => {
  const app = await openApp();
  apps.push(app);
  const { page, errors } = app;
  const { action: select, before } = await addAction(page, 'Cart', 'select_option');
  assert.deepEqual(await select.locator('.field-label').allInnerTexts(), ['target', 'value', 'label']);
  await select.getByLabel('target css', { exact: true }).fill('#people');
  const label = select.getByLabel('label', { exact: true });
  await label.fill('Leia\nLeia, Yoda');
  await page.waitForFunction(() => /select “Leia”, “Leia, Yoda” in #people/.test(document.querySelector('[data-testid="node-Cart"]')?.innerText ?? ''));
  // The action as the saved file has it, once it has `label` as the form shows it.
  const saved = async () => {
    await page.keyboard.press('Control+s');
    const handle = await page.waitForFunction(({ before, shown }) => {
      const text = window.statewrightFake.files.get('demo-shop.json');
      if (!text) return false;
      const file = JSON.parse(text);
      const action = file.states.find((s) => s.name === 'Cart').actions[before];
      return [action.label ?? ''].flat().join('\n') === shown && action;
    }, { before, shown: await label.inputValue() });
    return handle.jsonValue();
  };
  assert.deepEqual(await saved(), { type: 'select_option', target: { css: '#people' }, label: ['Leia', 'Leia, Yoda'] });

  await label.fill('Yoda');
  await page.waitForFunction(() => /select “Yoda” in #people/.test(document.querySelector('[data-testid="node-Cart"]')?.innerText ?? ''));
  assert.deepEqual(await saved(), { type: 'select_option', target: { css: '#people' }, label: 'Yoda' });
  assert.deepEqual(errors, []);
});
