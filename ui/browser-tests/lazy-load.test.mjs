// The first screen loads only its own code: the run viewer, the batch tab, the review queue
// and the dialogs arrive the first time they are opened, and then work.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp('', { viewport: { width: 1280, height: 800 } })));
after(async () => app?.close());

const LATER = ['RunViewer', 'BatchView', 'ReviewPanel', 'StartRunDialog', 'BatchDialog', 'SaveHealedDialog', 'GoalRunDialog', 'ModelSettingsDialog', 'RecordDialog'];

/** The names of the script chunks fetched so far (`RunViewer` for assets/RunViewer-1a2b.js). */
const fetched = (page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((p) => p.endsWith('.js'))
      .map((p) => p.split('/').pop().replace(/-[\w-]{8}\.js$/, '')),
  );

test('opening a workflow in the editor fetches none of the code of the other views or the dialogs', async () => {
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.waitForSelector('[data-testid="node-Cart"]');
  const first = await fetched(page);
  assert.ok(first.includes('index'), `the first screen's chunk: ${first}`);
  assert.deepEqual(first.filter((name) => LATER.includes(name)), [], 'nothing of the views not shown');
  assert.ok(first.includes('fake') && !first.includes('tauri'), `in a browser the fake backend only: ${first}`);
});

test('each view and dialog comes when opened, and works', async () => {
  const { page } = app;
  const opened = async (name, open, shown) => {
    await open();
    await shown.waitFor();
    assert.ok((await fetched(page)).includes(name), `${name} was fetched on opening`);
  };
  await opened('StartRunDialog', () => page.getByRole('button', { name: 'Run…' }).click(), page.getByRole('dialog', { name: 'start run' }));
  await page.getByRole('dialog', { name: 'start run' }).getByRole('button', { name: 'Cancel' }).click();
  await opened('BatchDialog', () => page.getByRole('button', { name: 'Batch…' }).click(), page.getByRole('dialog', { name: 'batch run' }));
  await page.getByRole('dialog', { name: 'batch run' }).getByRole('button', { name: 'Cancel' }).click();
  await opened('GoalRunDialog', () => page.getByRole('button', { name: 'Run with a goal…' }).click(), page.getByRole('dialog', { name: 'run with a goal' }));
  await page.getByRole('dialog', { name: 'run with a goal' }).getByRole('button', { name: 'Cancel' }).click();
  await opened('ModelSettingsDialog', () => page.getByRole('button', { name: 'Model…' }).click(), page.getByRole('dialog', { name: 'model settings' }));
  await page.getByRole('dialog', { name: 'model settings' }).getByRole('button', { name: 'Cancel' }).click();
  await opened('RecordDialog', () => page.getByRole('button', { name: 'Record…' }).click(), page.getByRole('dialog', { name: 'record a workflow' }));
  await page.getByRole('dialog', { name: 'record a workflow' }).getByRole('button', { name: 'Cancel' }).click();

  await opened('RunViewer', () => page.getByTestId('past-run').first().click(), page.getByTestId('run-viewer'));
  await opened('BatchView', () => page.getByRole('tab', { name: 'Batch' }).click(), page.getByText('No batch yet'));
  await opened('ReviewPanel', () => page.getByRole('tab', { name: /Review/ }).click(), page.getByTestId('review-detail'));
  assert.deepEqual(app.errors, [], 'every chunk arrived');
});
