// The Playwright baseline: the demo-shop task written by hand, the way one would in Playwright.
//
//   node bench/playwright-demo.mjs --url http://127.0.0.1:8931 --seed 7 [--runs 5]
//
// `--seed` takes one seed, a list (1,4,9) or a range (1-30); `--runs K` repeats each seed K
// times. Prints one JSON line per run: {"seed":N,"ms":...,"site_waits_ms":...,"ok":true}. The
// time covers the whole run, from before the browser is launched to after it is closed;
// `site_waits_ms` is what the site made it wait (signing in, suggestions, results, placing
// the order). Exits 1 if any run failed.
import { chromium } from 'playwright-core';

const USERNAME = 'demo';
const PASSWORD = 'correct horse battery staple';
const PRODUCT = 'Stainless steel kettle';
const QUANTITY = '2';

function parseArgs(argv) {
  const args = { url: 'http://127.0.0.1:8931', seeds: [1], runs: 1 };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    switch (argv[i]) {
      case '--url': args.url = value.replace(/\/+$/, ''); i++; break;
      case '--seed': args.seeds = parseSeeds(value); i++; break;
      case '--runs': args.runs = Number(value); i++; break;
      default: throw new Error(`unknown argument ${argv[i]}; usage: --url BASE --seed N [--runs K]`);
    }
  }
  if (!Number.isInteger(args.runs) || args.runs < 1) throw new Error('--runs must be a positive integer');
  return args;
}

function parseSeeds(text) {
  return String(text).split(',').flatMap((part) => {
    const range = part.match(/^(\d+)-(\d+)$/);
    if (!range) return [part.trim()];
    const out = [];
    for (let n = Number(range[1]); n <= Number(range[2]); n++) out.push(String(n));
    return out;
  });
}

/** Adds up the waits the site itself imposes on this run (it draws them from the seed and
 * shows them in `window.__demo`): no client can finish sooner than their sum. */
async function siteWaits(page, waits, read) {
  waits.ms += await page.evaluate(read);
}

async function placeOrder(page, base, seed, waits) {
  // The consent popup may cover the page at any moment: answer it whenever it is in the way.
  await page.addLocatorHandler(page.getByRole('dialog', { name: 'We value your privacy' }), async (dialog) => {
    await dialog.getByRole('button', { name: 'Accept all' }).click();
  });

  await page.goto(`${base}/?seed=${encodeURIComponent(seed)}`);
  await page.getByRole('link', { name: 'Sign in' }).click();

  await page.getByLabel('Username').fill(USERNAME);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await siteWaits(page, waits, () => window.__demo.login.signInDelayMs);

  // Signing in leads either to the "What's new" interstitial or straight to the shop.
  await page.waitForURL(/\/(whats-new|search)\.html/);
  if (page.url().includes('/whats-new.html')) {
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await page.waitForURL(/\/search\.html/);
  }

  await page.getByRole('combobox', { name: 'Product' }).fill(PRODUCT);
  await page.getByRole('option', { name: PRODUCT, exact: true }).click();
  await page.getByRole('button', { name: 'Search', exact: true }).click();

  // Results arrive late and shuffled, maybe behind a sponsored card: pick the real card by name.
  const card = page
    .locator('article.result-card:not([data-sponsored])')
    .filter({ has: page.getByRole('heading', { name: PRODUCT, exact: true }) });
  await card.waitFor();
  await siteWaits(page, waits, () => window.__demo.search.suggestDelaysMs.at(-1) + window.__demo.search.searches.at(-1).delayMs);
  await card.getByRole('button', { name: 'Add to cart' }).click();

  await page.waitForURL(/\/cart\.html/);
  await page.getByLabel('Quantity').selectOption(QUANTITY);
  await siteWaits(page, waits, () => window.__demo.cart.placeOrderDelayMs);
  await page.getByRole('button', { name: 'Place order' }).click();

  await page.waitForURL(/\/confirmation\.html/);
  await page.getByRole('heading', { name: 'Order confirmed' }).waitFor();
  const number = await page.locator('#order-number').textContent();
  const summary = await page.locator('#order-summary').textContent();
  if (!/^NW-\d{6}$/.test(number)) throw new Error(`unexpected order number ${JSON.stringify(number)}`);
  if (summary !== `${QUANTITY} × ${PRODUCT}`) throw new Error(`unexpected order ${JSON.stringify(summary)}`);
}

async function run(base, seed) {
  const started = performance.now();
  const waits = { ms: 0 };
  let browser;
  let error;
  try {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await placeOrder(page, base, seed, waits);
  } catch (e) {
    error = e;
  } finally {
    await browser?.close();
  }
  const ms = Math.round(performance.now() - started);
  const seedValue = /^\d+$/.test(seed) ? Number(seed) : seed;
  const line = { seed: seedValue, ms, site_waits_ms: waits.ms, ok: !error };
  if (error) line.error = String(error.message || error).split('\n')[0];
  return line;
}

const args = parseArgs(process.argv.slice(2));
let failed = 0;
for (const seed of args.seeds) {
  for (let i = 0; i < args.runs; i++) {
    const result = await run(args.url, seed);
    if (!result.ok) failed++;
    console.log(JSON.stringify(result));
  }
}
process.exitCode = failed ? 1 : 0;
