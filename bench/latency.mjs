// Appear-to-act latency: on the demo site's reaction page a button appears at random
// moments, twenty times a run; Statewright (workflows/demo-rounds.json) and Playwright
// (bench/playwright-rounds.mjs) each click it every time, seed by seed in the same go. The
// page itself times each click from the button's appearance, so both are measured alike.
//
//   node bench/latency.mjs [--seeds 1-3] [--bin target/release/statewright]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, seedList } from './args.mjs';


const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** The figures the page wrote, from the page Statewright saved at the end of its run. */
function statewright(bin, url, seed) {
  const runs = mkdtempSync(join(tmpdir(), 'statewright-latency-'));
  const out = spawnSync(bin, ['run', 'workflows/demo-rounds.json', '-p', `site=${url}`, '-p', `seed=${seed}`, '--json', '--no-review'], {
    encoding: 'utf8',
    env: { ...process.env, STATEWRIGHT_RUNS_DIR: runs },
  });
  const summary = JSON.parse(out.stdout || '{}');
  if (summary.status !== 'succeeded') throw new Error(`statewright failed on seed ${seed}: ${out.stderr}`);
  const dir = join(runs, summary.run_id);
  const html = readFileSync(join(dir, readdirSync(dir).find((f) => f === 'rounds.html')), 'utf8');
  const figures = html.match(/<pre id="latency">([^<]*)<\/pre>/);
  if (!figures) throw new Error(`no figures in the saved page of seed ${seed}`);
  return JSON.parse(figures[1].replaceAll('&quot;', '"'));
}

function playwright(url, seed) {
  const out = spawnSync('node', ['bench/playwright-rounds.mjs', '--url', url, '--seed', seed], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`playwright failed on seed ${seed}: ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').pop());
}

async function main() {
  const args = parseArgs(process.argv.slice(2), { seeds: '1-3', bin: 'target/release/statewright', port: 8942 });
  const url = `http://127.0.0.1:${args.port}`;
  const server = spawn(args.bin, ['demo-site', '--port', String(args.port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise((resolve, reject) => {
    server.stderr.on('data', (d) => String(d).includes('serving on') && resolve());
    server.on('exit', (code) => reject(new Error(`demo-site exited with ${code}`)));
  });
  const samples = { sw: [], pw: [] };
  try {
    for (const seed of seedList(args.seeds)) {
      const sw = statewright(args.bin, url, seed);
      const pw = playwright(url, seed);
      samples.sw.push(...sw.samples_ms);
      samples.pw.push(...pw.samples_ms);
      console.log(`seed ${seed.padStart(3)}  statewright p50 ${sw.p50_ms} ms p95 ${sw.p95_ms} ms  playwright p50 ${pw.p50_ms} ms p95 ${pw.p95_ms} ms`);
    }
  } finally {
    server.kill();
  }
  const summary = (xs) => ({ p50_ms: percentile(xs, 50), p95_ms: percentile(xs, 95), clicks: xs.length });
  const sw = summary(samples.sw);
  const pw = summary(samples.pw);
  console.log(JSON.stringify({ statewright: sw, playwright: pw, p50_ratio: Number((sw.p50_ms / pw.p50_ms).toFixed(3)) }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
