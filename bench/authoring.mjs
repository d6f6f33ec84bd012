// Benchmark: from a demonstration to a workflow. A person's purchase (the recorder test's
// fixtures/person.mjs: real input events at a script's speed) is recorded with
// `statewright record` on one seed, compiled, and the draft replayed on other seeds with no
// model. Prints the acts recorded, the draft's states and actions, replay success over the
// seeds, and the median replay time as a ratio to the recording's, all from the same go.
//
//   node bench/authoring.mjs [--seeds 2-11] [--bin target/release/statewright]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs, seedList } from './args.mjs';

const PASSWORD = 'correct horse battery staple';
const PRODUCT = 'Stainless steel kettle';
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function waitFor(child, text) {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (d) => {
      seen += String(d);
      const m = seen.match(text);
      if (m) resolve(m);
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${seen}`)));
  });
}

async function main() {
  const args = parseArgs(process.argv.slice(2), { seeds: '2-11', bin: 'target/release/statewright', port: 8951 });
  const dir = mkdtempSync(path.join(tmpdir(), 'sw-authoring-'));
  const env = { ...process.env, STATEWRIGHT_RUNS_DIR: path.join(dir, 'runs') };
  const site = `http://127.0.0.1:${args.port}`;
  const server = spawn(args.bin, ['demo-site', '--port', String(args.port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  await waitFor(server, /serving on/);
  const chromium = spawn(process.env.STATEWRIGHT_CHROME || '/usr/bin/chromium', [
    '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--remote-debugging-port=0', `--user-data-dir=${path.join(dir, 'profile')}`, 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  const [, ws] = await waitFor(chromium, /DevTools listening on (\S+)/);
  const draft = path.join(dir, 'draft.json');
  try {
    // One recording of a purchase on seed 1 (it shows the interstitial and the consent popup).
    const began = performance.now();
    const recorder = spawn(args.bin, [
      'record', '{{site}}/?seed={{seed}}', '--cdp-url', ws, '-p', `site=${site}`, '-p', 'seed=1', '-p', `product=${PRODUCT}`,
      '-p', 'quantity=2', '-p', 'username=demo', '-p', `password=${PASSWORD}`, '--until-url', 'confirmation\\.html',
      '--out', draft, '--json',
    ], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    recorder.stdout.on('data', (d) => { out += d; });
    const person = spawnSync('node', ['crates/cli/tests/fixtures/person.mjs', ws, site, PASSWORD, PRODUCT], { encoding: 'utf8' });
    if (person.status !== 0) throw new Error(`the person's script failed: ${person.stderr}`);
    await new Promise((resolve) => recorder.on('exit', resolve));
    const recordMs = performance.now() - began;
    const summary = JSON.parse(out);
    const workflow = JSON.parse(readFileSync(draft, 'utf8'));
    const actions = workflow.states.reduce((n, s) => n + (s.actions || []).length, 0);

    const replays = [];
    for (const seed of seedList(args.seeds)) {
      const t0 = performance.now();
      const r = spawnSync(args.bin, ['run', draft, '-p', `site=${site}`, '-p', `seed=${seed}`, '-p', `password=${PASSWORD}`,
        '--review-timeout', '5', '--json'], { encoding: 'utf8', env });
      const ms = performance.now() - t0;
      const s = JSON.parse(r.stdout || '{}');
      replays.push({ seed, ok: s.status === 'succeeded' && s.llm_calls === 0, ms });
      console.log(`seed ${String(seed).padStart(3)}: ${s.status ?? 'no summary'} in ${(ms / 1000).toFixed(2)} s, ${s.llm_calls ?? '?'} model calls`);
    }
    const ok = replays.filter((r) => r.ok);
    const replayMs = median(ok.map((r) => r.ms));
    console.log(`recording: ${summary.acts} acts in ${(recordMs / 1000).toFixed(2)} s (recorder process, person at script speed)`);
    console.log(`draft: ${workflow.states.length} states, ${actions} actions (${summary.compiled.interrupts.length} interrupt)`);
    console.log(`replay: ${ok.length}/${replays.length} seeds succeeded with 0 model calls; median ${(replayMs / 1000).toFixed(2)} s`);
    console.log(`replay / recording time: ${(replayMs / recordMs).toFixed(2)}×`);
    process.exitCode = ok.length === replays.length ? 0 : 1;
  } finally {
    chromium.kill();
    server.kill();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
