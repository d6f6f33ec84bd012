// Batch throughput: the same rows of the demo workflow (workflows/demo-shop.json, one seed per
// row, against the bundled demo site) run by `statewright batch` at each concurrency, each go
// in a fresh runs folder. Prints rows per minute, the ratio to the first concurrency, and
// the peak memory per concurrent run: the batch's processes (statewright and every Chromium,
// including a pool's) sampled from /proc every 200 ms, their sum at its peak divided by the
// concurrency. RSS counts pages that Chromium's processes share once per process; PSS shares
// them out, so it is the fairer sum.
//
//   node bench/batch.mjs [--rows 20] [--concurrency 1,2,4] [--browsers launch|shared|pool] [--bin target/release/statewright]
//
// `--browsers launch` (the batch's default): every row launches its own Chromium.
// `--browsers shared`: the batch launches two Chromiums once (`--shared-browsers 2`).
// `--browsers pool`: two headless Chromiums started here with --remote-debugging-port, the
// batch pointed at them (`--cdp-url A --cdp-url B`). Both share the concurrency out as
// `--per-endpoint` ⌈concurrency / 2⌉.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from './args.mjs';
import { memory, tree } from './proc.mjs';


/** A headless Chromium listening for DevTools on a free port; resolves to its ws URL. */
function startChromium(profile) {
  const chrome = process.env.STATEWRIGHT_CHROME || '/usr/bin/chromium';
  const child = spawn(
    chrome,
    ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (d) => {
      seen += d;
      const m = seen.match(/DevTools listening on (ws:\/\/\S+)/);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`chromium exited with ${code}: ${seen}`)));
  });
}

/** One go of the batch; resolves to its wall time and peak memory. */
function batch(bin, data, concurrency, pool, shared) {
  const runs = mkdtempSync(join(tmpdir(), 'statewright-bench-batch-'));
  const args = ['batch', 'workflows/demo-shop.json', '--data', data, '--demo-site', '--no-review', '--json',
    '--concurrency', String(concurrency), '--out', join(runs, 'results.csv')];
  for (const endpoint of pool) args.push('--cdp-url', endpoint.url);
  if (pool.length) args.push('--per-endpoint', String(Math.ceil(concurrency / pool.length)));
  if (shared) args.push('--shared-browsers', '2', '--per-endpoint', String(Math.ceil(concurrency / 2)));
  const started = process.hrtime.bigint();
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, STATEWRIGHT_RUNS_DIR: runs } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const peak = { rss: 0, pss: 0 };
  const roots = [child.pid, ...pool.map((e) => e.child.pid)];
  const sampler = setInterval(() => {
    const now = memory(tree(roots));
    peak.rss = Math.max(peak.rss, now.rss);
    peak.pss = Math.max(peak.pss, now.pss);
  }, 200);
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      clearInterval(sampler);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      rmSync(runs, { recursive: true, force: true });
      let report;
      try {
        report = JSON.parse(stdout);
      } catch {
        return reject(new Error(`batch at concurrency ${concurrency} exited with ${code}: ${stderr}`));
      }
      resolve({ seconds, peak, succeeded: report.succeeded, failed: report.failed });
    });
  });
}

async function main() {
  const args = parseArgs(process.argv.slice(2), { rows: 20, concurrency: '1,2,4', browsers: 'launch', bin: 'target/release/statewright' });
  const levels = args.concurrency.split(',').map(Number);
  const work = mkdtempSync(join(tmpdir(), 'statewright-bench-rows-'));
  const data = join(work, 'rows.csv');
  writeFileSync(data, `seed,quantity\n${Array.from({ length: args.rows }, (_, i) => `${i + 1},${(i % 5) + 1}`).join('\n')}\n`);
  const pool = [];
  try {
    if (args.browsers === 'pool') {
      for (const name of ['a', 'b']) pool.push(await startChromium(join(work, `profile-${name}`)));
    } else if (!['launch', 'shared'].includes(args.browsers)) {
      throw new Error(`--browsers is launch, shared or pool, not ${args.browsers}`);
    }
    const results = [];
    for (const concurrency of levels) {
      const r = await batch(args.bin, data, concurrency, pool, args.browsers === 'shared');
      const perMinute = (args.rows / r.seconds) * 60;
      results.push({ concurrency, perMinute, ...r });
      const ratio = perMinute / results[0].perMinute;
      const mib = (kib) => (kib / 1024 / concurrency).toFixed(0);
      console.log(
        `concurrency ${concurrency}: ${args.rows} rows in ${r.seconds.toFixed(1)} s = ${perMinute.toFixed(1)} rows/min ` +
          `(×${ratio.toFixed(2)}) · ${r.succeeded} succeeded, ${r.failed} failed · peak per run: ` +
          `RSS ${mib(r.peak.rss)} MiB, PSS ${mib(r.peak.pss)} MiB`,
      );
    }
    console.log(JSON.stringify({
      browsers: args.browsers,
      rows: args.rows,
      results: results.map((r) => ({
        concurrency: r.concurrency,
        seconds: Number(r.seconds.toFixed(1)),
        rows_per_minute: Number(r.perMinute.toFixed(1)),
        ratio: Number((r.perMinute / results[0].perMinute).toFixed(2)),
        peak_rss_mib_per_run: Math.round(r.peak.rss / 1024 / r.concurrency),
        peak_pss_mib_per_run: Math.round(r.peak.pss / 1024 / r.concurrency),
        succeeded: r.succeeded,
        failed: r.failed,
      })),
    }));
  } finally {
    // Chromium writes to its profile until it has exited: wait, then remove the folder.
    await Promise.all(pool.map((e) => new Promise((resolve) => (e.child.exitCode !== null ? resolve() : (e.child.on('exit', resolve), e.child.kill())))));
    rmSync(work, { recursive: true, force: true, maxRetries: 5 });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
