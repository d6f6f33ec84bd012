//! The fake's `statewright batch`: any `.csv`, `.jsonl` or `.json` file holds the README's
//! three orders, the second of which fails at the login; rows take a moment each, so many
//! at a time as asked. Like the runner, a row that succeeded in an earlier go with the same
//! file is skipped, and a cancelled batch still reports, its rows not ended as cancelled. A
//! row that succeeds reads an order number and a total (its outputs). A task file for the
//! model (`agent --tasks`) holds three WebVoyager tasks, the second of which the model gives
//! up on; the others answer with the page's title, after two calls to the model.
//!
//! With a pool (shared browsers or endpoints) each row takes a free slot on the least busy
//! live endpoint, as the runner's do, and the report lists them; an endpoint whose host has
//! `dead` in it cannot be attached to: the batch hears so once, and its rows go elsewhere.

import type { BatchBrowsers, BatchMessage, BatchReport, BatchRequest, EndpointReport, JudgeMessage, JudgeReport, Judgement, RowResult } from '../bindings';
import { maskUrl } from '../batch/browsers';
import { BackendError } from './types';

export const BATCH_ROWS: Record<string, string>[] = [
  { seed: '1', quantity: '2' },
  { seed: '2', quantity: '1' },
  { seed: '3', quantity: '4' },
];

export const TASK_ROWS: Record<string, string>[] = [
  { id: 'Northwind--0', goal: 'What is the title of the sign-in page?', url: '{{site}}/?seed=2', web_name: 'Northwind' },
  { id: 'Northwind--1', goal: 'Find the impossible thing', url: '{{site}}/?seed=2', web_name: 'Northwind' },
  { id: 'Northwind--2', goal: 'What is the title of the reaction page?', url: '{{site}}/rounds.html', web_name: 'Northwind' },
];
const TASK_ANSWERS = ['Sign in · Northwind Supply', null, 'Reaction rounds · Northwind Supply'];

export interface FakeBatch {
  cancel(): void;
}

interface Endpoint {
  url: string;
  report: EndpointReport;
  busy: number;
}

/** Checks the data file and the browsers as the shell would before anything starts; the
 * pool's endpoints, or null when each row launches its own browser. */
export function checkBatch(request: BatchRequest): Endpoint[] | null {
  const { data } = request;
  if (!/\.(csv|jsonl|json)$/.test(data)) throw new BackendError('invalid_run', `${data}: not a CSV (.csv), JSON Lines (.jsonl) or JSON (.json) file`);
  if (/missing/.test(data)) throw new BackendError('invalid_run', `${data}: no such file`);
  return endpointsOf(request.browsers ?? { kind: 'launch' });
}

function endpointsOf(browsers: BatchBrowsers): Endpoint[] | null {
  const endpoint = (url: string, max_runs: number): Endpoint => {
    if (max_runs < 1) throw new BackendError('invalid_run', `${maskUrl(url)}: at least 1 run at a time`);
    if (!/^(https?|wss?):\/\/[^/?#]+/.test(url)) throw new BackendError('invalid_run', `\`${maskUrl(url)}\` is not a DevTools endpoint URL`);
    return { url, report: { url: maskUrl(url), max_runs, runs: 0, dead: null }, busy: 0 };
  };
  switch (browsers.kind) {
    case 'launch':
      return null;
    case 'shared':
      return Array.from({ length: browsers.browsers }, (_, i) => endpoint(`ws://127.0.0.1:${9300 + i}/devtools/browser/shared-${i}`, browsers.per_browser));
    case 'endpoints': {
      const file = browsers.pool_file;
      if (file && /missing/.test(file)) throw new BackendError('invalid_run', `cannot read the pool file ${file}: no such file`);
      const found = [...(file ? [endpoint('ws://10.0.0.5:9222/devtools/browser/pool', 2)] : []), ...browsers.cdp_urls.map((u) => endpoint(u, browsers.per_endpoint))];
      if (!found.length) throw new BackendError('invalid_run', 'no browser endpoint given: a DevTools URL per line, or a pool file');
      return found;
    }
  }
}

/** A row's outcome as its run ended. */
function outcome(goals: boolean, row: number, values: Record<string, string>, runId: string, endpoint: string | null): RowResult {
  const failed = row === 2;
  if (goals) {
    const answer = TASK_ANSWERS[row - 1];
    const model = { llm_calls: failed ? 1 : 2, llm_tokens: failed ? 640 : 1310, llm_cost: 0 };
    if (answer == null) return { row, values, status: 'failed', end_state: null, duration_ms: 2000, run_id: runId, message: 'the model gave up: there is no such thing here', endpoint, ...model };
    return { row, values, status: 'succeeded', end_state: 'Goal reached', duration_ms: 4000 + row * 100, run_id: runId, message: answer, endpoint, outputs: { answer }, ...model };
  }
  return {
    row,
    values,
    status: failed ? 'failed' : 'succeeded',
    end_state: failed ? 'Login error' : 'Order confirmed',
    duration_ms: 5000 + row * 100,
    run_id: runId,
    message: failed ? 'the shop refused the sign-in' : 'The order was placed and confirmed.',
    endpoint,
    outputs: failed ? {} : { order_number: `NW-${1000 + row}`, total: (12.5 * Number(values.quantity ?? 1)).toFixed(2) },
  };
}

export function runFakeBatch(
  request: BatchRequest,
  pool: Endpoint[] | null,
  rowMs: number,
  earlier: RowResult[],
  newRunId: () => string,
  onRowEnded: (r: RowResult) => void,
  onMessage: (m: BatchMessage) => void,
): FakeBatch {
  const goals = request.each.kind === 'goals';
  const data = goals ? TASK_ROWS : BATCH_ROWS;
  const total = data.length;
  const results: (RowResult | null)[] = data.map((_, i) => earlier.find((r) => r.row === i + 1 && r.status === 'succeeded') ?? null);
  const skipped = results.filter(Boolean).length;
  const pending = data.map((_, i) => i + 1).filter((row) => !results[row - 1]);
  const running = new Map<number, { runId: string; timer: number; endpoint: Endpoint | null }>();
  const capacity = pool ? pool.reduce((n, e) => n + e.report.max_runs, 0) : Infinity;
  const slots = Math.max(1, Math.min(request.concurrency ?? (pool ? capacity : 2), capacity));
  const base = request.data.replace(/\.(csv|jsonl|json)$/, '');
  let done = skipped;
  let over = false;

  const end = (result: RowResult) => {
    results[result.row - 1] = result;
    onRowEnded(result);
    onMessage({ kind: 'finished', result, done: ++done, total });
    report();
  };
  const report = () => {
    if (done < total || over) return;
    over = true;
    const rows = results.filter((r): r is RowResult => r != null);
    const succeeded = rows.filter((r) => r.status === 'succeeded').length;
    const r: BatchReport = { total, succeeded, failed: total - succeeded, skipped, results_csv: `${base}.results.csv`, results_json: `${base}.results.json`, rows, endpoints: pool?.map((e) => e.report) ?? [] };
    onMessage({ kind: 'done', report: r });
  };
  /** A free slot on the least busy live endpoint; `busy` when all are taken, `none` when all are dead. */
  const slot = (): Endpoint | 'busy' | 'none' => {
    for (;;) {
      const live = pool!.filter((e) => e.report.dead == null);
      if (!live.length) return 'none';
      const free = live.filter((e) => e.busy < e.report.max_runs).sort((a, b) => a.busy - b.busy || a.report.runs - b.report.runs)[0];
      if (!free) return 'busy';
      if (!/^[a-z]+:\/\/[^/?#]*dead/.test(free.url)) return free;
      free.report.dead = 'nothing is listening there';
      onMessage({ kind: 'endpoint_dead', url: free.report.url, reason: free.report.dead });
    }
  };
  const next = () => {
    while (running.size < slots && pending.length) {
      const found = pool ? slot() : null;
      if (found === 'busy') break;
      if (found === 'none') {
        const row = pending.shift()!;
        const why = pool!.map((e) => `${e.report.url} (${e.report.dead})`).join('; ');
        end({ row, values: data[row - 1], status: 'error', end_state: null, duration_ms: 0, run_id: null, message: `no browser endpoint is left to run this row: ${why}` });
        continue;
      }
      const endpoint = found;
      if (endpoint) (endpoint.busy++, endpoint.report.runs++);
      const row = pending.shift()!;
      const runId = newRunId();
      // A run that would take longer than the time limit is stopped at it.
      const limitMs = request.run_timeout != null ? request.run_timeout * 1000 : Infinity;
      const timer = window.setTimeout(() => {
        running.delete(row);
        if (endpoint) endpoint.busy--;
        const shown = endpoint?.report.url ?? null;
        if (limitMs < rowMs) {
          const message = `took longer than the time limit of a run (${request.run_timeout}s) and was stopped`;
          end({ row, values: data[row - 1], status: 'timed_out', end_state: null, duration_ms: limitMs, run_id: runId, message, endpoint: shown });
        } else end(outcome(goals, row, data[row - 1], runId, shown));
        next();
      }, Math.min(rowMs, limitMs));
      running.set(row, { runId, timer, endpoint });
      onMessage({ kind: 'started', row, run_id: runId });
    }
    report();
  };
  // The first messages come after the batch id is returned, as from the shell.
  const first = window.setTimeout(next, 0);
  return {
    cancel() {
      window.clearTimeout(first);
      for (const [row, { runId, timer, endpoint }] of running) {
        window.clearTimeout(timer);
        running.delete(row);
        if (endpoint) endpoint.busy--;
        end({ row, values: data[row - 1], status: 'cancelled', end_state: null, duration_ms: 0, run_id: runId, message: 'cancelled: stopped in the app', endpoint: endpoint?.report.url ?? null });
      }
      for (const row of pending.splice(0)) {
        end({ row, values: data[row - 1], status: 'cancelled', end_state: null, duration_ms: 0, run_id: null, message: 'the batch was stopped before this row ran' });
      }
    },
  };
}

/** The fake's `statewright judge`: a task judged before keeps its verdict unless `again`; a
 * task whose run failed is `not_success` at once; the model, a moment later each, calls an
 * answer that names the sign-in page a success and any other answer not. The verdicts go
 * into `rows`, as into the results table. */
export function runFakeJudge(rows: RowResult[], results: string, model: string, again: boolean, rowMs: number, reachable: boolean, onMessage: (m: JudgeMessage) => void): FakeBatch {
  const total = rows.length;
  let done = 0;
  let calls = 0;
  const timers: number[] = [];
  const judged = (row: RowResult, judgement: Judgement) => {
    row.judged = judgement;
    onMessage({ kind: 'judged', result: { ...row }, done: ++done, total });
  };
  const finish = (interrupted: boolean) => {
    const said = (verdict: string) => rows.filter((r) => r.judged?.verdict === verdict).length;
    const [success, not_success] = [said('success'), said('not_success')];
    const report: JudgeReport = {
      total, success, not_success, unjudged: total - success - not_success, score: total ? success / total : null,
      llm_calls: calls, llm_tokens: calls * 900, llm_cost: 0, interrupted,
      results_csv: results.replace(/\.json$/, '.csv'), results_json: results, rows: rows.map((r) => ({ ...r })),
    };
    onMessage({ kind: 'done', report });
  };
  const open = rows.filter((r) => again || !r.judged || r.judged.verdict === 'unjudged');
  for (const r of rows.filter((r) => !open.includes(r))) timers.push(window.setTimeout(() => judged(r, r.judged!), 0));
  const asked = open.filter((r) => r.status === 'succeeded');
  for (const r of open.filter((r) => r.status !== 'succeeded')) timers.push(window.setTimeout(() => judged(r, { verdict: 'not_success', reason: `the run ${r.status}: ${r.message}` }), 0));
  asked.forEach((r, i) =>
    timers.push(
      window.setTimeout(() => {
        const answer = String(r.outputs?.answer ?? '');
        if (!reachable) judged(r, { verdict: 'unjudged', reason: 'no verdict: the model could not be reached', model });
        else {
          calls++;
          judged(r, /^Sign in/.test(answer) ? { verdict: 'success', reason: 'the sign-in page’s title is on the last screenshot', model } : { verdict: 'not_success', reason: 'the answer is not what the task asked', model });
        }
        if (i === asked.length - 1) finish(false);
      }, rowMs * (i + 1)),
    ),
  );
  if (!asked.length) timers.push(window.setTimeout(() => finish(false), 0));
  return {
    cancel() {
      timers.forEach((t) => window.clearTimeout(t));
      finish(true);
    },
  };
}
