// The review panel as a person decides with it: the state guess is the engine's closest
// match, actions are numbered one way, the screenshot is large and zooms, boxes name their
// element, a picked element is suggested by role and name, and picking moves nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

const box = async (locator) => {
  const b = await locator.boundingBox();
  assert.ok(b, 'the element is on screen');
  return b;
};

test('Declare the state defaults to the state the engine found closest, not the first', async () => {
  const { page } = app;
  await page.getByRole('tab', { name: /Review/ }).click();
  await page.getByTestId('review-detail').waitFor();
  // The fixture's run failed an action in `Home page` (the list starts with `Consent popup`).
  await page.getByLabel('Declare the state').check();
  assert.equal(await page.getByLabel('declared state').inputValue(), 'Home page');

  // No state matched: the best of the engine's closest matches wins.
  await page.evaluate(() => {
    const base = window.statewrightFake.reviews[0];
    const closest = [
      { state: 'Search page', passed: 1, total: 3, failing: ['url'] },
      { state: 'Login page', passed: 2, total: 3, failing: ['element #username'] },
    ];
    window.statewrightFake.addReview({ ...base, id: 41, state: 'Start', action: null, failure: { kind: 'no_state', seconds: 10, url: base.url, title: base.title, closest } });
  });
  await page.getByTestId('review-item').filter({ hasText: '#41' }).click();
  await page.getByLabel('Declare the state').check();
  assert.equal(await page.getByLabel('declared state').inputValue(), 'Login page');
  await page.getByTestId('review-item').filter({ hasText: '#1 ' }).click();
});

test('the failing action has one number everywhere, counted from 1', async () => {
  const { page } = app;
  const detail = page.getByTestId('review-detail');
  const text = await detail.innerText();
  // The fixture's failure is index 0 (the first action of `Home page`).
  const mentions = text.match(/action \d+ \(click\) of state Home page/g) ?? [];
  assert.equal(mentions.length, 2, `the reason and the failing action both name it:\n${text}`);
  assert.ok(mentions.every((m) => m.startsWith('action 1 ')), mentions.join(' | '));
  assert.doesNotMatch(text, /#1 |action 0|`/, 'no other numbering, no raw backticks');
});

test('the screenshot fills the width, zooms by buttons and Ctrl+wheel, and its boxes name their element', async () => {
  const { page } = app;
  const img = page.locator('[data-testid="review-screenshot"] img');
  await page.waitForSelector('[data-testid="element-box"]');
  // At 1280×800 the screenshot was 385 px wide beside the workflow list and the form.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForFunction(() => document.querySelector('[data-testid="review-screenshot"] img').getBoundingClientRect().width < 1000);
  const detail = await box(page.getByTestId('review-detail'));
  const fit = await box(img);
  console.log(`screenshot at 1280×800: ${fit.width} px of a ${detail.width} px panel`);
  assert.ok(fit.width >= 600 && fit.width >= 0.6 * detail.width, `screenshot ${fit.width} px of a ${detail.width} px panel`);
  const zoom0 = await page.getByTestId('shot-zoom').innerText();

  await page.getByRole('button', { name: 'zoom in' }).click();
  const zoomed = await box(img);
  assert.ok(Math.abs(zoomed.width / fit.width - 1.5) < 0.02, `×1.5: ${fit.width} → ${zoomed.width}`);
  // The level shown and the boxes follow the image's new size once its ResizeObserver has
  // reported it (before the next frame; a loaded CI machine read the old level once).
  await page.waitForFunction((z) => document.querySelector('[data-testid="shot-zoom"]').textContent !== z, zoom0, { timeout: 2000 }).catch(() => {});
  assert.notEqual(await page.getByTestId('shot-zoom').innerText(), zoom0, 'the zoom level shown changes');
  // Boxes follow the image.
  const signIn = page.locator('[data-testid="element-box"][data-label="link “Sign in”"]');
  const rect = await page.evaluate(() => window.statewrightFake.reviews[0].elements.find((e) => e.name === 'Sign in').rect);
  const natural = await img.evaluate((i) => i.naturalWidth);
  assert.ok(Math.abs((await box(signIn)).width - (rect.width * zoomed.width) / natural) < 2, 'the box scales with the zoom');

  await page.locator('.shot-frame').hover();
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -100);
  await page.keyboard.up('Control');
  await page.waitForFunction((w) => document.querySelector('[data-testid="review-screenshot"] img').getBoundingClientRect().width > w * 1.2, zoomed.width);
  await page.getByRole('button', { name: 'Fit width' }).click();
  assert.ok(Math.abs((await box(img)).width - fit.width) < 1, 'Fit width goes back');

  assert.match(await signIn.getAttribute('title'), /^link “Sign in”/);
  const border = await signIn.evaluate((b) => getComputedStyle(b).borderTopWidth);
  assert.ok(parseFloat(border) >= 2, `boxes are drawn clearly: border ${border}`);
  await signIn.hover();
  const label = await signIn.evaluate((b) => getComputedStyle(b, '::after').content);
  assert.equal(label, '"link “Sign in”"', 'hovering shows the role and name');
});

test('picking an element moves nothing and suggests it by role and name', async () => {
  const { page } = app;
  await page.getByLabel('Corrective actions').check();
  const before = { resolve: await box(page.getByRole('button', { name: 'Resolve' })), retry: await box(page.getByLabel('Retry')) };
  await page.locator('[data-testid="element-box"][data-label="link “Sign in”"]').click();
  assert.match(await page.getByTestId('picked-element').innerText(), /link “Sign in”/);
  const after = { resolve: await box(page.getByRole('button', { name: 'Resolve' })), retry: await box(page.getByLabel('Retry')) };
  assert.deepEqual(after, before, 'the buttons stay where the pointer was');

  await page.getByRole('button', { name: '+ action on link “Sign in”' }).click();
  await page.getByRole('button', { name: 'Resolve' }).click();
  await page.waitForSelector('[data-testid="toast"]:has-text("resolved: actions")');
  const target = await page.evaluate(() => window.statewrightFake.reviews.find((r) => r.id === 1).resolution.actions[0].target);
  assert.deepEqual(target, { role: 'link', name: 'Sign in' }, 'not #hero-sign-in');
  assert.deepEqual(app.errors, []);
});
