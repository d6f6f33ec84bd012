// What the in-page library's tests on fixture pages share: the fixture site, one Chromium,
// a fresh page with the library injected for each test, and calls into it. Importing this
// registers the hooks that start and stop them around the importing file's tests.
import { before, after, afterEach } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium, serve } from './harness.mjs';
import { LIB_SOURCE } from './library.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.join(here, 'test', 'fixtures');

let browser;
let site;
export let base;
const openContexts = [];

before(async () => {
  site = await serve((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const name = path.basename(url.pathname) || 'index.html';
    const file = path.join(FIXTURES, name);
    if (name === 'blank.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>blank</title></head><body></body></html>');
      return;
    }
    if (!file.startsWith(FIXTURES) || !fs.existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(fs.readFileSync(file));
  });
  base = site.base;
  browser = await launchChromium();
});

after(async () => {
  if (browser) await browser.close();
  if (site) await site.close();
});

afterEach(async () => {
  while (openContexts.length) await openContexts.pop().close().catch(() => {});
});

/** A fresh browser context, closed after the test. */
export async function freshContext(options = {}) {
  const context = await browser.newContext(options);
  openContexts.push(context);
  return context;
}

/** A fresh page with the library injected; `fixture` is a file name or {html}. */
export async function open(fixture = 'blank.html') {
  const context = await freshContext({ viewport: { width: 1000, height: 700 } });
  const page = await context.newPage();
  await page.addInitScript({ content: LIB_SOURCE });
  if (typeof fixture === 'string') {
    await page.goto(`${base}/${fixture}`);
  } else {
    await page.goto(`${base}/blank.html`);
    await page.setContent(fixture.html);
  }
  return page;
}

/** Call window.__statewright[fn](...args) in the page. */
export function sw(page, fn, ...args) {
  return page.evaluate(([f, a]) => window.__statewright[f](...a), [fn, args]);
}

/** Call the API over raw CDP, exactly like the Rust engine does. */
export async function cdpCall(page, expression) {
  const session = await page.context().newCDPSession(page);
  const r = await session.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
  await session.detach();
  if (r.exceptionDetails) throw new Error(`page exception: ${JSON.stringify(r.exceptionDetails)}`);
  return r.result.value;
}

export const text = (value, mode = 'equals') => ({ kind: 'text', value, mode });
export const css = (selector) => ({ kind: 'element', by: 'css', selector });
export const xpath = (selector) => ({ kind: 'element', by: 'xpath', selector });
