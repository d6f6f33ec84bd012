// Captures the README's screenshots (docs/*.png) from the built UI on the fake backend
// with the recorded demo run: the editor, the run viewer, the review queue.
//   npm --prefix ui run build && node ui/scripts/screenshots.mjs
import { fileURLToPath } from 'node:url';
import { openApp } from '../browser-tests/harness.mjs';

const docs = fileURLToPath(new URL('../../docs/', import.meta.url));
const app = await openApp('?scale=0.05');
const { page } = app;
try {
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.waitForSelector('[data-testid="node-Start"]');
  await page.getByTestId('node-Login page').click();
  await page.waitForTimeout(600);
  await page.screenshot({ path: `${docs}editor.png` });

  await page.getByRole('button', { name: 'Run…' }).click();
  await page.getByRole('dialog', { name: 'start run' }).getByRole('button', { name: 'Start run' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-phase"]')?.textContent === 'succeeded', null, { timeout: 30000 });
  await page.getByTestId('timeline-step').nth(6).locator('button').click();
  await page.waitForTimeout(600);
  await page.screenshot({ path: `${docs}run-viewer.png` });

  await page.getByRole('tab', { name: /Review/ }).click();
  await page.waitForSelector('[data-testid="element-box"]');
  await page.getByTestId('element-box').nth(3).click();
  await page.getByLabel('Corrective actions').check();
  await page.getByRole('button', { name: /\+ action on/ }).click();
  await page.getByRole('button', { name: 'Preview diff' }).click();
  await page.waitForSelector('[data-testid="diff"]');
  await page.screenshot({ path: `${docs}review.png` });
} finally {
  await app.close();
}
