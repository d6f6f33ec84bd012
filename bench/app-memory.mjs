// The app's footprint: the built app (release, UI embedded) opened on the demo workflow in a
// real window, driven over tauri-driver as the end-to-end test drives it. Prints the memory of
// the app and of every process it started (WebKit's web and network processes), idle with
// the demo open and again after the run viewer, the batch tab and the review queue were shown.
// RSS counts pages the processes share once per process; PSS shares them out.
//
//   node bench/app-memory.mjs --app target/release/statewright-app [--settle 25]
//
// Needs a display and a D-Bus session: `scripts/bench app-memory` provides both.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Session } from '../ui/e2e/webdriver.mjs';
import { parseArgs } from './args.mjs';
import { memory, tree } from './proc.mjs';

const repo = resolve(import.meta.dirname, '..');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mib = (kib) => (kib / 1024).toFixed(0);

/** The process's name as the kernel has it (the first 15 bytes of the file name). */
function comm(pid) {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** The app and everything it started, grouped by process name, in KiB. */
function footprint(driverPid) {
  const app = tree([driverPid]).find((pid) => comm(pid) === 'statewright-app');
  if (!app) throw new Error('the app is not running');
  const byName = new Map();
  for (const pid of tree([app])) {
    const name = comm(pid);
    const m = memory([pid]);
    const sum = byName.get(name) ?? { rss: 0, pss: 0, count: 0 };
    byName.set(name, { rss: sum.rss + m.rss, pss: sum.pss + m.pss, count: sum.count + 1 });
  }
  const total = [...byName.values()].reduce((a, b) => ({ rss: a.rss + b.rss, pss: a.pss + b.pss }), { rss: 0, pss: 0 });
  return { byName, total };
}

/** Samples once a second for `seconds` and keeps the last (memory settles after start-up).
 * The default outlasts the layout worker's idle time (ui/src/editor/layout.ts): an app left
 * alone has stopped it. */
async function settled(driverPid, seconds) {
  let last = null;
  for (let i = 0; i < seconds; i++) {
    await sleep(1000);
    last = footprint(driverPid);
  }
  return last;
}

function report(label, { byName, total }) {
  console.log(`${label}: RSS ${mib(total.rss)} MiB, PSS ${mib(total.pss)} MiB`);
  for (const [name, m] of byName) console.log(`  ${name.padEnd(16)} ×${m.count}  RSS ${mib(m.rss).padStart(4)} MiB  PSS ${mib(m.pss).padStart(4)} MiB`);
}

async function main() {
  const args = parseArgs(process.argv.slice(2), { app: join(process.env.CARGO_TARGET_DIR ?? 'target', 'release/statewright-app'), settle: 25 });
  const home = mkdtempSync(join(tmpdir(), 'statewright-bench-app-'));
  mkdirSync(join(home, 'workflows'));
  cpSync(join(repo, 'workflows/demo-shop.json'), join(home, 'workflows/demo-shop.json'));
  const port = 4900 + Math.floor(Math.random() * 200);
  const driver = spawn('tauri-driver', ['--port', String(port), '--native-port', String(port + 1)], {
    env: { ...process.env, STATEWRIGHT_WORKFLOWS_DIR: join(home, 'workflows'), STATEWRIGHT_RUNS_DIR: join(home, 'runs'), STATEWRIGHT_CONFIG_DIR: join(home, 'config') },
    detached: true,
    stdio: 'ignore',
  });
  let session;
  try {
    session = await Session.create(`http://127.0.0.1:${port}`, resolve(args.app));
    await session.waitFor('the workflow list', () => document.querySelectorAll('[data-testid="workflow-entry"]').length > 0);
    await session.run(() => [...document.querySelectorAll('[data-testid="workflow-entry"]')].find((b) => b.textContent.startsWith('demo-shop')).click());
    await session.waitFor('the graph', () => !!document.querySelector('[data-testid="node-Start"]'));
    report('idle with the demo open', await settled(driver.pid, args.settle));

    for (const tab of ['Runs', 'Batch', 'Review', 'Editor']) {
      await session.run((tab) => [...document.querySelectorAll('[role="tab"]')].find((b) => b.textContent.startsWith(tab))?.click(), tab);
      await sleep(500);
    }
    report('after the other views were shown', await settled(driver.pid, args.settle));
  } finally {
    await session?.close().catch(() => {});
    try {
      process.kill(-driver.pid, 'SIGKILL');
    } catch {}
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
