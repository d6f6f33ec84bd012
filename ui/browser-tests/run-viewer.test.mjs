// The run viewer around the step's page, as in Playwright's trace viewer: the screenshot
// large in the centre, the element each action acted on boxed where it was on the page and
// a click's point marked; it follows a live run until a step is picked; the result banner
// does not take height from the graph.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
let recording;
before(async () => {
  app = await openApp('?scale=0.2');
  await app.page.setViewportSize({ width: 1280, height: 800 });
  recording = await app.page.evaluate(() => fetch('fixtures/demo-run/recording.json').then((r) => r.json()));
});
after(async () => app?.close());

const phase = (page) => page.getByTestId('run-phase').innerText();
const start = async (page) => {
  await page.getByRole('button', { name: 'Run…' }).click();
  await page.getByRole('dialog', { name: 'start run' }).getByRole('button', { name: 'Start run' }).click();
};
/** The stage's image: its rendered box, natural width and which screenshot it shows. */
const shot = (page) =>
  page.getByTestId('full-screenshot').evaluate(async (img) => {
    await img.decode();
    const r = img.getBoundingClientRect();
    const stage = img.closest('[data-testid="step-stage"]').getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height, natural: img.naturalWidth, src: img.getAttribute('src'), stage: { x: stage.x, y: stage.y, right: stage.right, bottom: stage.bottom } };
  });

test('the step’s page is the centre of the viewer, with what was acted on boxed and the click marked', async () => {
  const { page } = app;
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await page.waitForSelector('[data-testid="node-Start"]');
  await start(page);
  await page.waitForFunction(() => document.querySelector('[data-testid="run-phase"]')?.textContent === 'succeeded', null, { timeout: 30000 });

  // Step 3, Login page: type the user name, type the password, click Sign in.
  const login = recording.detail.steps.find((s) => s.state === 'Login page');
  await page.locator(`[data-testid="timeline-step"][data-step="${login.step}"] button`).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="acted-box"]').length > 0);
  const img = await shot(page);
  console.log(`screenshot shown ${img.width}×${img.height} at 1280×800`);
  assert.ok(img.width >= 600, `the screenshot is large: ${img.width} px wide`);
  assert.ok(img.x >= img.stage.x && img.x + img.width <= img.stage.right + 1 && img.y + img.height <= img.stage.bottom + 1, 'the whole page is in view, nothing to scroll');
  const graph = await page.locator('.run-graph').boundingBox();
  assert.ok(graph.x >= img.x + img.width, 'the graph is beside the screenshot');
  assert.ok(graph.height >= 200, `and usable: ${graph.height} px high`);

  const scale = img.width / img.natural;
  const boxes = await page.getByTestId('acted-box').evaluateAll((bs) => bs.map((b) => ({ action: b.dataset.action, title: b.title, ...b.getBoundingClientRect().toJSON() })));
  assert.deepEqual(boxes.map((b) => b.action), ['1', '2', '3'], 'each action’s element is boxed');
  const byCss = (css) => login.page.elements.find((e) => e.selector === css).rect;
  for (const [b, css] of [[boxes[0], '#username'], [boxes[1], '#password'], [boxes[2], '#sign-in']]) {
    const r = byCss(css);
    assert.ok(Math.abs(b.x - (img.x + r.x * scale)) < 1.5 && Math.abs(b.y - (img.y + r.y * scale)) < 1.5, `${css} boxed where it was: ${b.x},${b.y}`);
    assert.ok(Math.abs(b.width - r.width * scale) < 1.5 && Math.abs(b.height - r.height * scale) < 1.5, `${css} boxed at its size`);
  }
  assert.match(boxes[2].title, /action 3 \(click\): button “Sign in”/);

  const dots = await page.getByTestId('click-point').evaluateAll((ds) => ds.map((d) => ({ action: d.dataset.action, ...d.getBoundingClientRect().toJSON() })));
  assert.deepEqual(dots.map((d) => d.action), ['3'], 'only the click has a point');
  const signIn = byCss('#sign-in');
  const cx = dots[0].x + dots[0].width / 2;
  const cy = dots[0].y + dots[0].height / 2;
  assert.ok(Math.abs(cx - (img.x + (signIn.x + signIn.width / 2) * scale)) < 1.5 && Math.abs(cy - (img.y + (signIn.y + signIn.height / 2) * scale)) < 1.5, `the click is marked at the button’s centre: ${cx},${cy}`);

  // A click by role and name (Home page's "Sign in" link) is boxed too.
  const home = recording.detail.steps.find((s) => s.state === 'Home page');
  await page.locator(`[data-testid="timeline-step"][data-step="${home.step}"] button`).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="click-point"]').length === 1);
  assert.match(await page.getByTestId('acted-box').getAttribute('title'), /action 1 \(click\): link “Sign in”/);
  assert.deepEqual(app.errors, []);
});

test('a live run shows its newest step until a step is picked; the banner leaves the graph its height', async () => {
  const { page } = app;
  // Twice as slow as recorded: about ten seconds, time to look at it while it runs.
  await page.evaluate((r) => window.statewrightFake.replayWith(r, 2), recording);
  await page.getByRole('tab', { name: 'Editor' }).click();
  await start(page);
  await page.locator('.run-graph .react-flow').waitFor();
  await page.getByTestId('timeline-step').first().waitFor();
  const graphBefore = await page.locator('.run-graph').boundingBox();
  const screenshots = recording.detail.steps.filter((s) => s.screenshot);
  const shows = (path) => page.waitForFunction((p) => document.querySelector('[data-testid="full-screenshot"]')?.getAttribute('src')?.endsWith(p), path, { timeout: 15000 });

  // While live the stage follows: it shows each newest step's page in turn.
  await shows(screenshots[1].screenshot);
  await shows(screenshots[2].screenshot);
  assert.equal(await phase(page), 'running');

  // Picking a step holds it while the run goes on.
  const pickedStep = screenshots[1].step;
  await page.locator(`[data-testid="timeline-step"][data-step="${pickedStep}"] button`).click();
  const count = await page.getByTestId('timeline-step').count();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="timeline-step"]').length > n, count, { timeout: 15000 });
  assert.ok((await shot(page)).src.endsWith(screenshots[1].screenshot), 'the picked step stays on screen');
  await page.getByRole('button', { name: 'Latest' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="run-phase"]')?.textContent === 'succeeded', null, { timeout: 30000 });
  assert.ok((await shot(page)).src.endsWith(screenshots.at(-1).screenshot), 'back to following: the last step is shown');

  // The result is one line that was there all along: the graph kept its height.
  assert.match(await page.getByTestId('run-message').innerText(), /order was placed/);
  const graphAfter = await page.locator('.run-graph').boundingBox();
  assert.deepEqual(graphAfter, graphBefore, 'the graph’s box did not move when the result arrived');
  await page.waitForTimeout(400);
  const inside = await page.evaluate(() => {
    const c = document.querySelector('.run-graph .react-flow').getBoundingClientRect();
    const r = document.querySelector('.state-node.active').getBoundingClientRect();
    return r.x >= c.x && r.right <= c.right && r.y >= c.y && r.bottom <= c.bottom;
  });
  assert.ok(inside, 'the last state is on the canvas');
  assert.deepEqual(app.errors, []);
});
