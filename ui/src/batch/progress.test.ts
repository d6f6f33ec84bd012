import { describe, expect, it } from 'vitest';
import { applyBatchMessage, batchLines, noProgress, tally } from './progress';
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
});
