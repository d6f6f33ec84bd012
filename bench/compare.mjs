// Benchmark: the bundled demo task done by Statewright (deterministic replay of
// workflows/demo-shop.json) and by a hand-written Playwright script, seed by seed, in the
// same go, on the same locally served site. Both timings cover launching the browser
// through closing it; Statewright's is the wall time of the whole `statewright run`
// process, so it also pays for process start-up and for recording every step. The site's
// own waits (drawn from the seed) are printed beside, as a share of Playwright's time: the
// ratio no client could go below.
//
//   node bench/compare.mjs [--seeds 1-10] [--bin target/release/statewright] [--site assets/demo-site]
import { spawn, spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { parseArgs, seedList } from './args.mjs';


const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function statewright(bin, url, seed) {
  const began = performance.now();
  const out = spawnSync(bin, ['run', 'workflows/demo-shop.json', '-p', `site=${url}`, '-p', `seed=${seed}`, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, STATEWRIGHT_RUNS_DIR: 'runs/bench' },
  });
  const ms = performance.now() - began;
  const summary = JSON.parse(out.stdout || '{}');
  return { ms, ok: out.status === 0 && summary.status === 'succeeded', engine_ms: summary.duration_ms };
}

function playwright(url, seed) {
  const out = spawnSync('node', ['bench/playwright-demo.mjs', '--url', url, '--seed', seed], { encoding: 'utf8' });
  const line = (out.stdout || '').trim().split('\n').pop() || '{}';
  const result = JSON.parse(line);
  return { ms: result.ms, waits: result.site_waits_ms, ok: out.status === 0 && result.ok === true };
}

async function main() {
  const defaults = { seeds: '1-10', bin: 'target/release/statewright', port: 8941, site: '' };
  const args = parseArgs(process.argv.slice(2), defaults);
  const url = `http://127.0.0.1:${args.port}`;
  // --site serves the demo site from a folder (assets/demo-site) instead of the copy built
  // into the binary: two builds compared on one and the same site.
  const site = args.site ? ['--dir', args.site] : [];
  const server = spawn(args.bin, ['demo-site', '--port', String(args.port), ...site], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise((resolve, reject) => {
    server.stderr.on('data', (d) => String(d).includes('serving on') && resolve());
    server.on('exit', (code) => reject(new Error(`demo-site exited with ${code}`)));
  });
  const rows = [];
  try {
    for (const [i, seed] of seedList(args.seeds).entries()) {
      // Alternate who goes first, so neither always runs on a warmer machine.
      const order = i % 2 ? ['pw', 'sw'] : ['sw', 'pw'];
      const row = { seed };
      for (const who of order) row[who] = who === 'sw' ? statewright(args.bin, url, seed) : playwright(url, seed);
      rows.push(row);
      console.log(
        `seed ${seed.padStart(3)}  statewright ${row.sw.ms.toFixed(0).padStart(6)} ms${row.sw.ok ? '' : ' FAILED'}` +
          `  playwright ${row.pw.ms.toFixed(0).padStart(6)} ms${row.pw.ok ? '' : ' FAILED'}` +
          `  ratio ${(row.sw.ms / row.pw.ms).toFixed(3)}` +
          `  (the site's own waits: ${row.pw.waits} ms, ${(row.pw.waits / row.pw.ms).toFixed(3)} of Playwright's)`,
      );
    }
  } finally {
    server.kill();
  }
  const ok = rows.filter((r) => r.sw.ok && r.pw.ok);
  const sw = median(ok.map((r) => r.sw.ms));
  const pw = median(ok.map((r) => r.pw.ms));
  const ratios = ok.map((r) => r.sw.ms / r.pw.ms);
  console.log(
    JSON.stringify({
      seeds: rows.length,
      both_succeeded: ok.length,
      statewright_median_ms: Math.round(sw),
      playwright_median_ms: Math.round(pw),
      ratio_of_medians: Number((sw / pw).toFixed(3)),
      median_ratio: Number(median(ratios).toFixed(3)),
      // No client can beat this ratio: the waits the site imposed, over Playwright's time.
      site_waits_ratio: Number(median(ok.map((r) => r.pw.waits / r.pw.ms)).toFixed(3)),
    }),
  );
  if (ok.length !== rows.length) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
