// The Playwright baseline for appear-to-act latency: on the demo site's reaction page,
// click the button each time it appears (Playwright's auto-waiting click), twenty rounds,
// and print the page's own figures (appearance to click event, same clock for everyone).
//
//   node bench/playwright-rounds.mjs --url http://127.0.0.1:8931 --seed 1
import { chromium } from 'playwright-core';

function parseArgs(argv) {
  const args = { url: 'http://127.0.0.1:8931', seed: '1' };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in args)) throw new Error(`unknown argument ${argv[i]}; usage: --url BASE --seed N`);
    args[key] = argv[i + 1];
  }
  return args;
}

async function main() {
  const { url, seed } = parseArgs(process.argv.slice(2));
  const browser = await chromium.launch({
    executablePath: process.env.STATEWRIGHT_CHROME || '/usr/bin/chromium',
    args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${url.replace(/\/+$/, '')}/rounds.html?seed=${seed}`);
    for (let round = 1; round <= 20; round++) await page.click('#target');
    await page.getByText('All rounds done').waitFor();
    console.log(await page.textContent('#latency'));
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
