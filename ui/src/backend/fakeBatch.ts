//! The fake's `statewright batch`: any `.csv` or `.jsonl` file holds the README's three
//! orders, the second of which fails at the login; rows take a moment each, so many at a
//! time as asked. Like the runner, a row that succeeded in an earlier go with the same file
//! is skipped, and a cancelled batch still reports, its rows not ended as cancelled.

import type { BatchMessage, BatchReport, BatchRequest, RowResult } from '../bindings';
import { BackendError } from './types';

export const BATCH_ROWS: Record<string, string>[] = [
  { seed: '1', quantity: '2' },
  { seed: '2', quantity: '1' },
  { seed: '3', quantity: '4' },
];

export interface FakeBatch {
  cancel(): void;
}

/** Checks the data file as the shell would before anything starts. */
export function checkBatchData(data: string) {
  if (!/\.(csv|jsonl)$/.test(data)) throw new BackendError('invalid_run', `${data}: not a CSV (.csv) or JSON Lines (.jsonl) file`);
  if (/missing/.test(data)) throw new BackendError('invalid_run', `${data}: no such file`);
}

/** A row's outcome as its run ended. */
function outcome(row: number, values: Record<string, string>, runId: string): RowResult {
  const failed = row === 2;
  return {
    row,
    values,
    status: failed ? 'failed' : 'succeeded',
    end_state: failed ? 'Login error' : 'Order confirmed',
    duration_ms: 5000 + row * 100,
    run_id: runId,
    message: failed ? 'the shop refused the sign-in' : 'The order was placed and confirmed.',
  };
}

export function runFakeBatch(
  request: BatchRequest,
  rowMs: number,
  earlier: RowResult[],
  newRunId: () => string,
  onRowEnded: (r: RowResult) => void,
  onMessage: (m: BatchMessage) => void,
): FakeBatch {
  const total = BATCH_ROWS.length;
  const results: (RowResult | null)[] = BATCH_ROWS.map((_, i) => earlier.find((r) => r.row === i + 1 && r.status === 'succeeded') ?? null);
  const skipped = results.filter(Boolean).length;
  const pending = BATCH_ROWS.map((_, i) => i + 1).filter((row) => !results[row - 1]);
  const running = new Map<number, { runId: string; timer: number }>();
  const slots = Math.max(1, request.concurrency ?? 2);
  const base = request.data.replace(/\.(csv|jsonl)$/, '');
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
    const r: BatchReport = { total, succeeded, failed: total - succeeded, skipped, results_csv: `${base}.results.csv`, results_json: `${base}.results.json`, rows };
    onMessage({ kind: 'done', report: r });
  };
  const next = () => {
    while (running.size < slots && pending.length) {
      const row = pending.shift()!;
      const runId = newRunId();
      const timer = window.setTimeout(() => {
        running.delete(row);
        end(outcome(row, BATCH_ROWS[row - 1], runId));
        next();
      }, rowMs);
      running.set(row, { runId, timer });
      onMessage({ kind: 'started', row, run_id: runId });
    }
    report();
  };
  // The first messages come after the batch id is returned, as from the shell.
  const first = window.setTimeout(next, 0);
  return {
    cancel() {
      window.clearTimeout(first);
      for (const [row, { runId, timer }] of running) {
        window.clearTimeout(timer);
        running.delete(row);
        end({ row, values: BATCH_ROWS[row - 1], status: 'cancelled', end_state: null, duration_ms: 0, run_id: runId, message: 'the run was cancelled' });
      }
      for (const row of pending.splice(0)) {
        end({ row, values: BATCH_ROWS[row - 1], status: 'cancelled', end_state: null, duration_ms: 0, run_id: null, message: 'the batch was stopped before this row ran' });
      }
    },
  };
}
