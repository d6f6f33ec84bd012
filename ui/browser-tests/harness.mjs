// Serves the built UI (ui/dist) with the recorded fixtures and opens it in Debian's
// Chromium through playwright-core. Nothing downloads a browser.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ui = fileURLToPath(new URL('..', import.meta.url));
const roots = [join(ui, 'dist'), join(ui, 'fixtures-public')];
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.png': 'image/png', '.jpg': 'image/jpeg', '.svg': 'image/svg+xml' };

export async function serve() {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    for (const root of roots) {
      const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
      if (!file.startsWith(root)) break;
      try {
        if ((await stat(file)).isFile()) {
          res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
          return res.end(await readFile(file));
        }
      } catch {}
    }
    res.writeHead(404).end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

/** `page` takes Playwright's page options (a smaller viewport, `colorScheme: 'dark'`);
 * `init` runs in the page before the app's own scripts (countRenders). */
export async function openApp(query = '', page = {}, init = null) {
  const site = await serve();
  const browser = await chromium.launch({
    executablePath: process.env.STATEWRIGHT_CHROME ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const tab = await browser.newPage({ viewport: { width: 1440, height: 900 }, ...page });
  if (init) await tab.addInitScript(init);
  const errors = [];
  tab.on('pageerror', (e) => errors.push(e));
  // A view or dialog whose code did not arrive (a chunk the server lacks) is an error too.
  tab.on('response', (r) => r.status() >= 400 && new URL(r.url()).pathname.includes('/assets/') && errors.push(new Error(`${r.status()} ${r.url()}`)));
  await tab.goto(`${site.url}${query}`);
  await tab.waitForSelector('.app');
  return {
    page: tab,
    errors,
    async close() {
      await browser.close();
      await site.close();
    },
  };
}

/** For openApp's `init`: counts in `window.__renders`, by the first class of the element each
 * draws, the components React ran again (`state-node`: a StateNode) and, as `host:…`, the
 * elements it updated. React calls a devtools hook after each commit; this one walks only
 * the parts of the tree that commit changed, as React DevTools does. */
export function countRenders() {
  const counts = (window.__renders = {});
  const hostOf = (f) => {
    for (let c = f; c; c = c.child) if (typeof c.type === 'string') return c;
    return null;
  };
  const classOf = (f) => {
    const c = hostOf(f)?.memoizedProps?.className;
    return typeof c === 'string' ? c.split(' ')[0] : null;
  };
  const PERFORMED_WORK = 1;
  const UPDATE = 4;
  const walk = (next, prev) => {
    const component = next.tag === 0 || next.tag === 11 || next.tag === 15;
    const host = next.tag === 5 && prev && (next.flags & UPDATE) !== 0;
    const c = (component && (next.flags & PERFORMED_WORK) !== 0) || host ? classOf(next) : null;
    if (c) counts[host ? `host:${c}` : c] = (counts[host ? `host:${c}` : c] ?? 0) + 1;
    if (prev && next.child === prev.child) return;
    for (let child = next.child; child; child = child.sibling) walk(child, child.alternate);
  };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject(renderer) {
      this.renderers.set(this.renderers.size + 1, renderer);
      return this.renderers.size;
    },
    onCommitFiberRoot: (_id, root) => walk(root.current, root.current.alternate),
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
  };
}

/** Writes `id` from outside: `n` states R0…, each leading to random others (the same ones on
 * every run), the start R0 on about:blank. */
export async function writeTangle(page, id, n) {
  await page.evaluate(
    ({ id, n }) => {
      let r = 7;
      const rand = () => (r = (r * 1664525 + 1013904223) >>> 0) / 2 ** 32;
      const next = Array.from({ length: n }, () => []);
      for (let i = 1; i < n; i++) next[Math.floor(rand() * i)].push(`R${i}`);
      for (let i = 0; i < n; i++) next[i].push(`R${Math.floor(rand() * n)}`);
      const states = next.map((to, i) => ({ name: `R${i}`, checks: [{ type: 'url', match: 'prefix', value: i ? `http://site/${i}` : 'about:blank' }], next: to }));
      window.statewrightFake.writeFromOutside(id, { version: 1, name: id.replace(/\.json$/, ''), states });
    },
    { id, n },
  );
}

/** Selects the state `name` through the graph's search, which also centres it in the view:
 * a click on its node could miss it, off the canvas's visible part on a small screen. */
export async function selectState(page, name) {
  const search = page.getByLabel('search states');
  await search.fill(name);
  const selected = page.locator('.state-node.selected');
  for (let hit = 0; hit < 10; hit++) {
    const before = (await selected.count()) ? await selected.getAttribute('data-state') : null;
    await search.press('Enter');
    // Read once the hit is drawn selected: in a large graph that takes a moment, and reading
    // before then saw the state selected before and pressed on past the hit.
    await page
      .waitForFunction((prev) => document.querySelector('.state-node.selected')?.getAttribute('data-state') !== prev, before, { timeout: 5000 })
      .catch(() => {});
    await selected.waitFor();
    if ((await selected.getAttribute('data-state')) === name) {
      // The view glides to centre it. Not "exactly in the middle" after: a state or a panel
      // that changes size after the glide (a problem listed, a mark gone) moves the middle.
      await settledInView(page, '.state-node.selected');
      return;
    }
  }
  throw new Error(`the search did not lead to ${name}`);
}

/** Opens demo-shop's state `state` and adds an action of `type` at the end of its list:
 * the state's panel, the new action's item, and how many actions there were before. */
export async function addAction(page, state, type) {
  await page.getByTestId('workflow-entry').filter({ hasText: 'demo-shop' }).click();
  await selectState(page, state);
  const panel = page.getByRole('region', { name: `state ${state}` });
  await panel.waitFor();
  const before = await panel.locator('[data-testid^="action-"]').count();
  await panel.getByLabel('add action').selectOption(type);
  return { panel, action: panel.getByTestId(`action-${before}`), before };
}

/** Waits until the view and the canvas have stood still for three polls (100 ms apart)
 * with the node `selector` inside the canvas: the view glides (200 ms) whenever it moves,
 * and a panel appearing beside the canvas can shrink it, and move the view again, after a
 * first glide has ended. */
export async function settledInView(page, selector, options = {}) {
  await page.evaluate(() => (window.__view = null));
  await page.waitForFunction(
    (selector) => {
      const g = document.querySelector('[data-testid="graph"]').getBoundingClientRect();
      const n = document.querySelector(selector)?.getBoundingClientRect();
      const now = `${document.querySelector('.react-flow__viewport').style.transform} ${g.width}x${g.height}`;
      window.__still = now === window.__view ? (window.__still ?? 0) + 1 : 0;
      window.__view = now;
      return window.__still >= 3 && n && n.left >= g.left && n.right <= g.right && n.top >= g.top && n.bottom <= g.bottom;
    },
    selector,
    { polling: 100, ...options },
  );
}
