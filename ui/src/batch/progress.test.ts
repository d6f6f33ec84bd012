import { describe, expect, it } from 'vitest';
import { applyBatchMessage, applyJudgeMessage, batchLines, noJudge, noProgress, score, tally } from './progress';
import type { BatchMessage, RowResult } from '../bindings';

const result = (row: number, status: string, run_id: string | null = `run-${row}`): RowResult => ({ row, values: { seed: String(row) }, status, end_state: status === 'failed' ? 'Login error' : 'Order confirmed', duration_ms: 1200, run_id, message: '' });
const play = (messages: BatchMessage[]) => messages.reduce(applyBatchMessage, noProgress);

describe('batch progress', () => {
  it('shows rows running, ended and waiting as the messages come', () => {
    const p = play([
      { kind: 'started', row: 1, run_id: 'run-1' },
      { kind: 'started', row: 2, run_id: 'run-2' },
      { kind: 'finished', result: result(2, 'failed'), done: 1, total: 4 },
    ]);
    expect(batchLines(p).map((l) => [l.row, l.status, l.run_id])).toEqual([
      [1, 'running', 'run-1'],
      [2, 'failed', 'run-2'],
      [3, 'waiting', null],
      [4, 'waiting', null],
    ]);
    expect(tally(p)).toBe('1/4 · 0 succeeded · 1 failed');
  });

  it('takes the report as the last word, skipped rows included', () => {
    const p = play([
      { kind: 'started', row: 2, run_id: 'run-2' },
      { kind: 'finished', result: result(2, 'cancelled', null), done: 2, total: 2 },
      { kind: 'done', report: { total: 2, succeeded: 1, failed: 1, skipped: 1, results_csv: 'o.results.csv', results_json: 'o.results.json', rows: [result(1, 'succeeded'), result(2, 'cancelled', null)] } },
    ]);
    expect(batchLines(p).map((l) => l.status)).toEqual(['succeeded', 'cancelled']);
    expect(tally(p)).toBe('2/2 · 1 succeeded · 1 failed · 1 skipped (done before)');
  });

  it('keeps the endpoints given up on, in the order heard', () => {
    const p = play([
      { kind: 'endpoint_dead', url: 'ws://a:1/?token=***', reason: 'nothing is listening' },
      { kind: 'started', row: 1, run_id: 'run-1' },
      { kind: 'endpoint_dead', url: 'http://b:2', reason: 'not a DevTools endpoint' },
    ]);
    expect(p.dead.map((d) => d.url)).toEqual(['ws://a:1/?token=***', 'http://b:2']);
    expect(batchLines(p).map((l) => l.status)).toEqual(['running']);
  });

  it('counts before the total is known', () => {
    expect(tally(play([{ kind: 'started', row: 1, run_id: 'r' }]))).toBe('0/? · 0 succeeded · 0 failed');
  });

  it('puts each verdict on its row as the judge gives it, and the score at the end', () => {
    const ended = play([
      { kind: 'finished', result: result(1, 'succeeded'), done: 1, total: 2 },
      { kind: 'finished', result: result(2, 'failed'), done: 2, total: 2 },
    ]);
    const judged = { ...result(2, 'failed'), judged: { verdict: 'not_success', reason: 'the run failed: ' } };
    let [batch, judge] = applyJudgeMessage(ended, noJudge, { kind: 'judged', result: judged, done: 1, total: 2 });
    expect(batchLines(batch).map((l) => l.judged?.verdict ?? null)).toEqual([null, 'not_success']);
    expect([judge.done, judge.total, judge.report]).toEqual([1, 2, null]);
    const success = { ...result(1, 'succeeded'), judged: { verdict: 'success', reason: 'shown', model: 'm' } };
    const report = { total: 2, success: 1, not_success: 1, unjudged: 0, score: 0.5, llm_calls: 1, llm_tokens: 900, llm_cost: 0, interrupted: false, results_csv: 't.results.csv', results_json: 't.results.json', rows: [success, judged] };
    [batch, judge] = applyJudgeMessage(batch, judge, { kind: 'done', report });
    expect(batchLines(batch).map((l) => l.judged?.verdict)).toEqual(['success', 'not_success']);
    expect(score(judge.report!)).toBe('score 50.0% · 1 success · 1 not success');
    expect(score({ ...report, success: 0, unjudged: 1, score: 0, interrupted: true })).toBe('score 0.0% · 0 success · 1 not success · 1 without a verdict · stopped');
  });
});
