import { describe, expect, it } from 'vitest';
import type { RunEvent } from './events';
import { emptyRun, reduceAll } from './reducer';

const entered = (step: number, state: string, elapsed: number): RunEvent => ({
  event: 'state_entered',
  step,
  state,
  state_index: 0,
  visit: 1,
  elapsed_ms: elapsed,
  url: `http://site/${state}`,
  checks: [{ check: `url ${state}`, passed: true }],
});

const stream: RunEvent[] = [
  { event: 'run_started', workflow: 'demo', states: 3 },
  entered(1, 'Start', 0),
  { event: 'observed', step: 1, url: 'about:blank', title: '', text: '', elements: [], screenshot: 'screens/aa/aa.png' },
  { event: 'action_started', step: 1, state: 'Start', index: 0, action: { type: 'navigate_to', url: 'http://site/' } },
  { event: 'action_finished', step: 1, state: 'Start', index: 0, action: { type: 'navigate_to', url: 'http://site/' }, elapsed_ms: 40, duration_ms: 35, attempts: 1, detail: null, error: null },
  entered(2, 'Login', 120),
  entered(3, 'Done', 300),
];

describe('run-event reducer', () => {
  it('builds steps with checks, actions and screenshots, and lights the active state', () => {
    const v = reduceAll(emptyRun, stream);
    expect(v.phase).toBe('running');
    expect(v.steps.map((s) => s.state)).toEqual(['Start', 'Login', 'Done']);
    expect(v.steps[0].screenshot).toBe('screens/aa/aa.png');
    expect(v.steps[0].actions).toEqual([expect.objectContaining({ index: 0, status: 'done', durationMs: 35 })]);
    expect(v.steps[0].durationMs).toBe(120);
    expect(v.steps[2].durationMs).toBeNull();
    expect(v.activeState).toBe('Done');
    expect(v.lastEdge).toEqual({ from: 'Login', to: 'Done' });
  });

  it('finishes with the status, message and the last step’s duration', () => {
    const v = reduceAll(emptyRun, [
      ...stream,
      { event: 'run_finished', status: 'succeeded', end_state: 'Done', outcome: 'success', message: 'ok', failure: null, duration_ms: 450, steps: 3, actions: 1 },
    ]);
    expect(v.phase).toBe('succeeded');
    expect(v.steps[2].durationMs).toBe(150);
    expect(v.message).toBe('ok');
  });

  it('marks failed and preempted actions', () => {
    const v = reduceAll(emptyRun, [
      ...stream.slice(0, 2),
      { event: 'action_finished', step: 1, state: 'Start', index: 0, action: { type: 'click', target: { css: '#go' } }, elapsed_ms: 1, duration_ms: 10000, attempts: 20, detail: null, error: 'not visible' },
      { event: 'action_preempted', step: 1, state: 'Start', index: 1, by_state: 'Popup', reason: 'obscured' },
    ]);
    expect(v.steps[0].actions.map((a) => a.status)).toEqual(['failed', 'preempted']);
    expect(v.steps[0].notices[0].text).toMatch(/preempted by Popup/);
  });

  it('follows review requests and resolutions through the run phase', () => {
    let v = reduceAll(emptyRun, [...stream, { event: 'escalated', step: 3, state: 'Done', stage: 'human', reason: 'stuck', outcome: 'pending' }]);
    expect(v.phase).toBe('escalated');
    v = reduceAll(v, [{ event: 'review_requested', review_id: 7, step: 3, state: 'Done', reason: 'stuck' }]);
    expect(v.phase).toBe('needs_human_review');
    expect(v.openReviews).toEqual([7]);
    v = reduceAll(v, [{ event: 'review_resolved', review_id: 7, resolution: { kind: 'retry' } }]);
    expect(v.phase).toBe('running');
    expect(v.notices.at(-1)?.text).toBe('review #7 resolved: retry');
  });

  it('records verify, retry, heal and breaker events as notices on their step', () => {
    const v = reduceAll(emptyRun, [
      ...stream,
      { event: 'verified', step: 3, state: 'Done', via: 'next', next_state: null },
      { event: 'retrying', step: 3, state: 'Done', attempt: 1, max: 2, reason: 'no change' },
      { event: 'healed', step: 3, state: 'Done', index: 0, field: 'target', from: { css: '#a' }, to: { role: 'button', name: 'Go' } },
      { event: 'breaker_tripped', breaker: 'state_entries', count: 5, limit: 5, state: 'Done' },
    ]);
    expect(v.steps[2].notices.map((n) => n.kind)).toEqual(['verified', 'retrying', 'healed']);
    expect(v.steps[2].notices[2].text).toBe('Done: action 1 healed {"css":"#a"} → {"role":"button","name":"Go"}');
    expect(v.notices.at(-1)).toMatchObject({ kind: 'breaker_tripped', level: 'error', step: null });
    expect(v.phase).toBe('retrying');
  });

  it('keeps going on an unknown event and says so', () => {
    const v = reduceAll(emptyRun, [...stream, { event: 'teleported', step: 3 }, entered(4, 'After', 500)]);
    expect(v.notices.some((n) => n.kind === 'unknown' && n.text.includes('teleported'))).toBe(true);
    expect(v.steps).toHaveLength(4);
  });
});

describe('runs with a goal', () => {
  it('keep the latest planned route and say when it was replanned', () => {
    const v = reduceAll(emptyRun, [
      { event: 'run_started', workflow: 'demo', states: 3 },
      { event: 'route_planned', step: 1, from: 'Start', to: 'Cart', route: ['Start', 'Login', 'Cart'], cost_ms: 3000, replanned: false },
      entered(1, 'Start', 0),
      { event: 'route_planned', step: 2, from: 'Welcome', to: 'Cart', route: ['Welcome', 'Cart'], cost_ms: 900, replanned: true },
    ]);
    expect(v.route).toEqual(['Welcome', 'Cart']);
    expect(v.notices.map((n) => [n.level, n.text])).toEqual([
      ['info', 'route: Start → Login → Cart'],
      ['warn', 'replanned: Welcome → Cart'],
    ]);
  });
});

describe('the model in the loop', () => {
  it('counts model calls and says what each answered, and when a fix worked', () => {
    const call = { model: 'm', prompt_chars: 900, prompt_tokens: 100, completion_tokens: 20, latency_ms: 812, cost: 0, answer: '{"kind":"click","element":3}', accepted: true };
    const v = reduceAll(emptyRun, [
      { event: 'run_started', workflow: 'demo', states: 3 },
      entered(1, 'Login', 0),
      { event: 'model_called', step: 1, state: 'Login', ...call, accepted: false, error: 'there is no element 99 on the page' },
      { event: 'model_called', step: 1, state: 'Login', ...call },
      { event: 'advice_worked', step: 2, model: 'm', resolution: { kind: 'retry' }, request: {} as never },
    ]);
    expect(v.help.modelCalls).toBe(2);
    expect(v.steps[0].help.modelCalls).toBe(2);
    const texts = v.steps[0].notices.map((n) => n.text);
    expect(texts[0]).toBe('model m failed: there is no element 99 on the page (812 ms, 120 tokens)');
    expect(texts[1]).toBe('model m answered {"kind":"click","element":3} (812 ms, 120 tokens)');
    expect(v.notices.at(-1)?.text).toBe("the model's retry got the run going: proposed as a fix for review");
  });
});

describe('healed checks', () => {
  it('count as heals on the step they happened in, and say what the check became', () => {
    const v = reduceAll(emptyRun, [
      { event: 'run_started', workflow: 'demo', states: 2 },
      entered(1, 'Start', 0),
      { event: 'checks_located', step: 1, state: 'Start', checks: [] },
      { event: 'check_healed', step: 1, state: 'Home', index: 1, from: { type: 'element', selector: '#signin' }, to: { type: 'element', selector: 'a[href="login.html"]' } },
    ]);
    expect(v.help.heals).toBe(1);
    expect(v.steps[0].help.heals).toBe(1);
    expect(v.steps[0].notices.map((n) => n.text)).toEqual(['Home: check 2 healed element "#signin" → element "a[href=\\"login.html\\"]"']);
    expect(v.notices.some((n) => n.kind === 'unknown')).toBe(false);
  });
});

describe('what a run needed', () => {
  it('counts reviews, heals, retries and model calls on the run and on the step they happened in', () => {
    const click = { type: 'click', target: { css: '#old' } } as const;
    const v = reduceAll(emptyRun, [
      { event: 'run_started', workflow: 'demo', states: 3 },
      entered(1, 'Home', 0),
      { event: 'healed', step: 1, state: 'Home', index: 0, field: 'target', from: { css: '#old' }, to: { role: 'link', name: 'Sign in' } },
      { event: 'action_finished', step: 1, state: 'Home', index: 0, action: click, elapsed_ms: 10, duration_ms: 5, attempts: 1 },
      entered(2, 'Login', 100),
      { event: 'retrying', step: 2, state: 'Login', attempt: 1, max: 2, reason: 'not verified' },
      { event: 'retrying', step: 2, state: 'Login', attempt: 2, max: 2, reason: 'not verified' },
      { event: 'review_requested', review_id: 7, step: 2, state: 'Login', reason: 'stuck' },
      { event: 'review_resolved', review_id: 7, resolution: { kind: 'retry' } },
      entered(3, 'Done', 300),
    ]);
    expect(v.help).toEqual({ reviews: 1, heals: 1, retries: 2, modelCalls: 0 });
    expect(v.steps.map((s) => s.help)).toEqual([
      { reviews: 0, heals: 1, retries: 0, modelCalls: 0 },
      { reviews: 1, heals: 0, retries: 2, modelCalls: 0 },
      { reviews: 0, heals: 0, retries: 0, modelCalls: 0 },
    ]);
    expect(v.steps[0].actions[0]).toEqual(expect.objectContaining({ status: 'done', healedTo: { role: 'link', name: 'Sign in' } }));
  });

  it('say a drag’s healed drop target, and box the element it dragged, not the drop target', () => {
    const drag = { type: 'drag', target: { css: '#card' }, to: { css: '#column-3' } } as const;
    const v = reduceAll(emptyRun, [
      { event: 'run_started', workflow: 'board', states: 2 },
      entered(1, 'Board', 0),
      { event: 'healed', step: 1, state: 'Board', index: 0, field: 'to', from: { css: '#done-column' }, to: { css: '#column-3' } },
      { event: 'action_finished', step: 1, state: 'Board', index: 0, action: drag, elapsed_ms: 10, duration_ms: 5, attempts: 1 },
    ]);
    expect(v.help.heals).toBe(1);
    expect(v.steps[0].notices.at(-1)?.text).toBe('Board: action 1 drop target healed {"css":"#done-column"} → {"css":"#column-3"}');
    expect(v.steps[0].actions[0].healedTo).toBeNull();
  });
});

describe('extracted values', () => {
  const extract = (index: number, into: string, value: unknown): RunEvent => ({
    event: 'action_finished',
    step: 2,
    state: 'Login',
    index,
    action: { type: 'extract', target: { css: `#${into}` }, into },
    elapsed_ms: 130,
    duration_ms: 4,
    attempts: 1,
    value,
  });

  it('keeps each extract’s value on its action and gathers the outputs as the run goes', () => {
    const rows = [{ Order: 'NW-1', Total: '$12.00' }];
    const v = reduceAll(emptyRun, [...stream.slice(0, 6), extract(0, 'total', '12.00'), extract(1, 'rows', rows), extract(2, 'total', '13.00')]);
    expect(v.steps[1].actions.map((a) => a.value)).toEqual(['12.00', rows, '13.00']);
    expect(v.outputs).toEqual({ total: '13.00', rows });
    expect(v.steps[0].actions[0].value).toBeUndefined();
  });

  it('takes the run’s own outputs when it ends (secrets masked there)', () => {
    const v = reduceAll(emptyRun, [
      ...stream.slice(0, 6),
      extract(0, 'echo', 'hunter2'),
      { event: 'run_finished', status: 'succeeded', end_state: 'Done', outcome: 'success', message: 'ok', failure: null, duration_ms: 450, steps: 3, actions: 2, outputs: { echo: '••••••' } },
    ]);
    expect(v.outputs).toEqual({ echo: '••••••' });
  });

  it('has no outputs for a run that extracted nothing, even with an older end event', () => {
    const v = reduceAll(emptyRun, [...stream, { event: 'run_finished', status: 'succeeded', end_state: 'Done', outcome: 'success', message: 'ok', failure: null, duration_ms: 450, steps: 3, actions: 1 }]);
    expect(v.outputs).toEqual({});
  });
});
