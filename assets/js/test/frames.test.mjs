// Same-origin frames are part of the page: targets, checks, snapshots and hit tests see into
// them, and the points returned are in the top viewport, where the engine's input events land.
// Cross-origin frames stay out of the library's reach (the engine calls the library in each
// through the frame's own session: crates/chrome/src/frames.rs). Real Chromium through
// playwright-core, as in statewright.test.mjs.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { launchChromium, serve } from '../harness.mjs';
import { LIB_SOURCE } from '../library.mjs';

const LOGIN = `<!doctype html><title>login</title><body style="margin:8px">
  <label>Name <input id="name"></label>
  <div style="height:400px"></div>
  <button id="go" onclick="document.getElementById('out').textContent = 'Welcome, ' + document.getElementById('name').value + (event.isTrusted ? '' : ' (synthetic)')">Sign in</button>
  <p id="out"></p>`;

const PAGES = {
  '/top.html': `<!doctype html><title>top</title><body style="margin:0">
    <div style="height:150px">Header of the shop</div>
    <iframe id="f" src="/middle.html" style="margin-left:60px;width:520px;height:300px;border:7px solid #888;padding:11px"></iframe>
    <iframe id="hidden" src="/hidden.html" style="display:none"></iframe>
    <iframe id="foreign" style="width:200px;height:100px"></iframe>`,
  // A frame inside the frame, offset again.
  '/middle.html': `<!doctype html><title>middle</title><body style="margin:0">
    <p>Middle frame text</p>
    <iframe id="inner" src="/login.html" style="margin-left:25px;width:450px;height:200px;border:3px solid #444"></iframe>`,
  '/login.html': LOGIN,
  '/hidden.html': `<!doctype html><body><button>Hidden frame button</button>`,
  // A legacy application's frameset: no body, a menu frame and a content frame.
  '/frameset.html': `<!doctype html><title>app</title><frameset cols="220,*">
    <frame name="menu" src="/menu.html"><frame name="content" src="/login.html"></frameset>`,
  '/menu.html': `<!doctype html><body><a href="/login.html" target="content">Orders</a>`,
  '/foreign.html': `<!doctype html><body><button id="theirs">Foreign button</button><p>Foreign text</p>`,
};

let browser;
let site;
let base;
let foreign;
const contexts = [];

before(async () => {
  site = await serve((req, res) => {
    const page = PAGES[new URL(req.url, 'http://x').pathname];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? 'not found');
  });
  base = site.base;
  // Another host name is another origin: the page's script cannot read that frame.
  foreign = `http://localhost:${site.port}/foreign.html`;
  browser = await launchChromium();
});

after(async () => {
  if (browser) await browser.close();
  if (site) await site.close();
});

afterEach(async () => {
  while (contexts.length) await contexts.pop().close().catch(() => {});
});

async function open() {
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  contexts.push(context);
  const page = await context.newPage();
  await page.addInitScript({ content: LIB_SOURCE });
  await page.goto(`${base}/top.html`);
  await page.evaluate((url) => { document.getElementById('foreign').src = url; }, foreign);
  await page.waitForFunction(() => {
    const inner = document.getElementById('f').contentDocument?.getElementById('inner');
    return inner?.contentDocument?.getElementById('go') && document.getElementById('hidden').contentDocument?.querySelector('button');
  });
  await page.frameLocator('#foreign').locator('#theirs').waitFor();
  return page;
}

const sw = (page, fn, ...args) => page.evaluate(([f, a]) => window.__statewright[f](...a), [fn, args]);

test('a button two frames deep, below both folds, is scrolled to and clicked at a point of the top viewport', async () => {
  const page = await open();
  const found = await sw(page, 'actionable', { role: 'button', name: 'Sign in' }, { timeoutMs: 3000, hitTest: true, enabled: true });
  assert.equal(found.ok, true, JSON.stringify(found));
  assert.equal(found.description, 'button#go "Sign in"');
  // Where the button really is on screen, from the outside: the frames' boxes plus its own.
  const where = await page.locator('#f').contentFrame().locator('#inner').contentFrame().locator('#go').boundingBox();
  assert.ok(Math.abs(found.x - (where.x + where.width / 2)) <= 1 && Math.abs(found.y - (where.y + where.height / 2)) <= 1,
    `point ${found.x},${found.y} vs box ${JSON.stringify(where)}`);
  assert.ok(found.y > 0 && found.y < 700, `inside the viewport: ${found.y}`);
  await page.mouse.click(found.x, found.y);
  const inner = page.locator('#f').contentFrame().locator('#inner').contentFrame();
  assert.equal(await inner.locator('#out').textContent(), 'Welcome, ');
});

test('css, xpath and text targets find elements in frames; typing goes to the field in the frame', async () => {
  const page = await open();
  const field = await sw(page, 'prepareTyping', { css: '#name' }, true);
  assert.equal(field.ok, true, JSON.stringify(field));
  await page.keyboard.type('Ada');
  const click = await sw(page, 'actionable', { xpath: "//button[@id='go']" }, { timeoutMs: 3000, hitTest: true });
  assert.equal(click.ok, true, JSON.stringify(click));
  await page.mouse.click(click.x, click.y);
  const signals = await sw(page, 'signals', [
    { kind: 'text', value: 'Welcome, Ada', mode: 'equals' },
    { kind: 'text', value: 'Middle frame text', mode: 'contains' },
    { kind: 'element', by: 'css', selector: '#out' },
    { kind: 'text', value: 'Hidden frame button', mode: 'equals' },
    { kind: 'text', value: 'Foreign text', mode: 'contains' },
    { kind: 'element', by: 'css', selector: '#theirs' },
  ]);
  assert.deepEqual(signals.results, [true, true, true, false, false, false], JSON.stringify(signals));
  assert.deepEqual(signals.errors, []);
  const text = await sw(page, 'actionable', { text: 'Sign in' }, { timeoutMs: 1000, hitTest: true });
  assert.equal(text.description, 'button#go "Sign in"');
  // A frame's element is not visible when its frame is not.
  const hidden = await sw(page, 'actionable', { css: 'button' , nth: 1 }, { timeoutMs: 100 });
  assert.deepEqual([hidden.ok, hidden.reason], [false, 'not_visible'], JSON.stringify(hidden));
});

test('in a frame that is not shown (display: none, or 0 wide), its own library sees no text and no element', async () => {
  const page = await open();
  const frame = page.frames().find((f) => f.url().endsWith('/hidden.html'));
  const look = () => frame.evaluate(() => {
    const s = window.__statewright;
    return {
      signals: s.signals([
        { kind: 'text', value: 'Hidden frame button', mode: 'contains' },
        { kind: 'text', value: 'Hidden frame button', mode: 'equals' },
        { kind: 'element', by: 'css', selector: 'button' },
      ]).results,
      text: s.snapshot(1000).text,
      elements: s.snapshot(1000).elements.length,
    };
  });
  // innerText in an unrendered document is its source text: it must not count.
  assert.equal(await frame.evaluate(() => document.body.innerText.trim()), 'Hidden frame button');
  assert.deepEqual(await look(), { signals: [false, false, false], text: '', elements: 0 });
  await page.evaluate(() => { document.getElementById('hidden').style.cssText = 'display:block;width:0;height:0;border:0'; });
  assert.deepEqual(await look(), { signals: [false, false, false], text: '', elements: 0 });
  await page.evaluate(() => { document.getElementById('hidden').style.cssText = 'display:block;width:300px;height:100px'; });
  assert.deepEqual(await look(), { signals: [true, true, true], text: 'Hidden frame button', elements: 1 });
});

test('the snapshot lists frame elements with boxes in the top viewport, ids and selectors unique across frames', async () => {
  const page = await open();
  const snap = await sw(page, 'snapshot', 5000);
  assert.match(snap.text, /Header of the shop[\s\S]*Middle frame text/);
  assert.ok(!snap.text.includes('Foreign text') && !snap.text.includes('Hidden frame button'), snap.text);
  const go = snap.elements.find((e) => e.name === 'Sign in');
  assert.ok(go, JSON.stringify(snap.elements));
  assert.ok(!snap.elements.some((e) => e.name === 'Foreign button'));
  assert.equal(new Set(snap.elements.map((e) => e.id)).size, snap.elements.length, 'ids are unique');
  const frame = await page.locator('#f').contentFrame().locator('#inner').boundingBox();
  assert.ok(go.rect.x > frame.x && go.rect.y > frame.y, `${JSON.stringify(go.rect)} inside ${JSON.stringify(frame)}`);
  // The selector the snapshot gives finds that element again.
  const again = await sw(page, 'describe', { css: go.selector });
  assert.deepEqual([again.count, again.description], [1, 'button#go "Sign in"'], go.selector);
});

test('a change inside a frame wakes waitForChange', async () => {
  const page = await open();
  const r = await page.evaluate(async () => {
    const inner = document.getElementById('f').contentDocument.getElementById('inner').contentDocument;
    setTimeout(() => { inner.getElementById('out').textContent = 'Changed inside'; }, 200);
    const t0 = performance.now();
    const s = await window.__statewright.waitForChange([{ kind: 'text', value: 'Changed inside', mode: 'contains' }], { results: [false] }, 5000);
    return { results: s.results, elapsed: performance.now() - t0 };
  });
  assert.deepEqual(r.results, [true]);
  assert.ok(r.elapsed < 2000, `elapsed ${r.elapsed}`);
});

test('a frameset is a page: its frames are read and clicked as one', async () => {
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  contexts.push(context);
  const page = await context.newPage();
  await page.addInitScript({ content: LIB_SOURCE });
  await page.goto(`${base}/frameset.html`);
  await page.frame({ name: 'content' }).locator('#go').waitFor();
  await page.frame({ name: 'menu' }).locator('a').waitFor();
  const before = await sw(page, 'signals', [{ kind: 'text', value: 'Orders', mode: 'equals' }, { kind: 'element', by: 'css', selector: '#name' }]);
  assert.deepEqual(before.results, [true, true]);
  assert.equal((await sw(page, 'prepareTyping', { role: 'textbox', name: 'Name' }, true)).ok, true);
  await page.keyboard.type('Grace');
  const go = await sw(page, 'actionable', { text: 'Sign in' }, { timeoutMs: 3000, hitTest: true });
  assert.equal(go.ok, true, JSON.stringify(go));
  assert.ok(go.x > 220, `in the content frame, right of the menu: ${go.x}`);
  await page.mouse.click(go.x, go.y);
  const after = await sw(page, 'signals', [{ kind: 'text', value: 'Welcome, Grace', mode: 'equals' }]);
  assert.deepEqual(after.results, [true]);
});
