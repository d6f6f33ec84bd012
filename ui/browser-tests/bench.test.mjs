// Benchmarks in a real browser against the built UI: how long a 300-state workflow takes to
// open and lay out, and how responsive the run viewer stays while a run streams 10 steps per
// second (frame gaps and long tasks measured in the page). Figures are printed (`bench:`);
// the bounds are loose on purpose, to catch hangs and regressions by multiples, not load.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

let app;
before(async () => (app = await openApp()));
after(async () => app?.close());

const STATES = 300;

test(`a ${STATES}-state workflow opens and lays out (the figure is the benchmark; only a hang fails)`, async () => {
  const { page } = app;
  await page.evaluate((n) => {
    const states = Array.from({ length: n }, (_, i) => ({
      name: `S${i}`,
      checks: [{ type: 'url', match: 'prefix', value: `http://site/${i}` }, { type: 'text', value: `Page ${i}` }],
      actions: i === n - 1 ? undefined : [{ type: 'click', target: { css: `#next-${i}` } }, { type: 'wait', seconds: 0.1 }],
      next: i === n - 1 ? undefined : [`S${i + 1}`, ...(i % 7 === 0 && i + 5 < n ? [`S${i + 5}`] : [])],
      terminal: i === n - 1 ? { outcome: 'success' } : undefined,
    }));
    window.statewrightFake.writeFromOutside('big.json', { version: 1, name: 'big', states });
  }, STATES);
  const entry = page.getByTestId('workflow-entry').filter({ hasText: 'big' });
  await entry.waitFor();
  const ms = await page.evaluate(async () => {
    const t0 = performance.now();
    [...document.querySelectorAll('[data-testid="workflow-entry"]')].find((b) => b.textContent.startsWith('big')).click();
    await new Promise((resolve) => {
      const poll = () => (document.querySelector('[data-testid="layout-ms"]') && document.querySelectorAll('.react-flow__node').length > 0 ? resolve() : requestAnimationFrame(poll));
      poll();
    });
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return { total: performance.now() - t0, layout: Number(document.querySelector('[data-testid="layout-ms"]').textContent.match(/\d+/)[0]) };
  });
  console.log(`bench: ${STATES} states open+layout+render ${ms.total.toFixed(0)} ms (ELK layout ${ms.layout} ms)`);
  // The figure is what matters, and it goes in the notes (quiet machine: about 0.6-0.9 s).
  // On a loaded 2-core machine it varies by a factor of two, so the test fails only on what
  // no load explains: a layout that hangs or goes quadratic.
  assert.ok(ms.total < 4000, `opening ${STATES} states took ${ms.total.toFixed(0)} ms`);
});

test('the viewer stays responsive while a run streams 10 steps per second', async () => {
  const { page } = app;
  const STEPS = 60;
  await page.evaluate((steps) => {
    const shots = window.statewrightFake.runs.values().next().value.steps.map((s) => s.screenshot).filter(Boolean);
    const events = [{ event: 'run_started', workflow: 'big', states: 300 }];
    for (let i = 0; i < steps; i++) {
      const t = i * 100;
      events.push({ event: 'state_entered', step: i + 1, state: `S${i}`, state_index: i, visit: 1, elapsed_ms: t, url: `http://site/${i}`, checks: [{ check: `url prefix http://site/${i}`, passed: true }, { check: `text Page ${i}`, passed: true }] });
      events.push({ event: 'observed', step: i + 1, url: `http://site/${i}`, title: `Page ${i}`, text: 'x'.repeat(2000), elements: [], screenshot: shots[i % shots.length] });
      const action = { type: 'click', target: { css: `#next-${i}` } };
      events.push({ event: 'action_started', step: i + 1, state: `S${i}`, index: 0, action });
      events.push({ event: 'action_finished', step: i + 1, state: `S${i}`, index: 0, action, elapsed_ms: t + 60, duration_ms: 50, attempts: 1, detail: null, error: null });
    }
    events.push({ event: 'run_finished', status: 'succeeded', end_state: `S${steps - 1}`, outcome: 'success', message: '', failure: null, duration_ms: steps * 100, steps, actions: steps });
    const detail = { ...window.statewrightFake.runs.values().next().value, run: { ...window.statewrightFake.runs.values().next().value.run, workflow: 'big' } };
    window.statewrightFake.replayWith({ detail, events }, 1);
  }, STEPS);
  await page.getByRole('button', { name: 'Run…' }).click();
  const measuring = page.evaluate(async () => {
    const gaps = [];
    const longTasks = [];
    new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask', buffered: false });
    let last = performance.now();
    const t0 = last;
    await new Promise((resolve) => {
      const tick = (now) => {
        gaps.push(now - last);
        last = now;
        if (document.querySelector('[data-testid="run-phase"]')?.textContent === 'succeeded') return resolve();
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    gaps.sort((a, b) => a - b);
    const pct = (p) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))];
    return { seconds: (performance.now() - t0) / 1000, frames: gaps.length, p50: pct(0.5), p95: pct(0.95), max: gaps.at(-1), longTasks: longTasks.length, longTaskMs: longTasks.reduce((a, b) => a + b, 0), maxLongTask: Math.max(0, ...longTasks) };
  });
  await page.getByRole('dialog', { name: 'start run' }).getByRole('button', { name: 'Start run' }).click();
  const r = await measuring;
  const fps = r.frames / r.seconds;
  console.log(
    `bench: streaming ${STEPS} steps at 10/s: ${fps.toFixed(0)} fps, frame gap p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, max ${r.max.toFixed(0)} ms; ` +
      `${r.longTasks} long tasks (${r.longTaskMs.toFixed(0)} ms total, longest ${r.maxLongTask.toFixed(0)} ms)`,
  );
  assert.equal(await page.getByTestId('timeline-step').count(), STEPS);
  assert.ok(r.p95 < 100, `95% of frames within 100 ms (p95 ${r.p95.toFixed(1)} ms)`);
  assert.ok(r.maxLongTask < 500, `no task blocks the page for 500 ms (longest ${r.maxLongTask.toFixed(0)} ms)`);
  assert.deepEqual(app.errors, []);
});
