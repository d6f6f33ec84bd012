//! A batch as far as its messages tell: the rows running and ended, the pool endpoints
//! given up on, and once it is over the report. The shell names the number of rows only with the first row to end, and rows
//! that succeeded in an earlier go only in the report: until then they are "waiting".

import type { BatchMessage, BatchReport, JudgeMessage, JudgeReport, RowResult } from '../bindings';

export interface BatchProgress {
  /** Run ids of the rows started, by row number. */
  started: Record<number, string>;
  /** The rows ended in this go, by row number. */
  results: Record<number, RowResult>;
  /** Rows ended, counting those skipped, out of `total` (null until the first ends). */
  done: number;
  total: number | null;
  report: BatchReport | null;
  /** Why the batch stopped as a whole (the data file could not be read…). */
  failure: string | null;
  /** Pool endpoints given up on (URLs with credentials masked), in the order heard. */
  dead: { url: string; reason: string }[];
}

export const noProgress: BatchProgress = { started: {}, results: {}, done: 0, total: null, report: null, failure: null, dead: [] };

export function applyBatchMessage(p: BatchProgress, m: BatchMessage): BatchProgress {
  switch (m.kind) {
    case 'started':
      return { ...p, started: { ...p.started, [m.row]: m.run_id } };
    case 'finished':
      return { ...p, results: { ...p.results, [m.result.row]: m.result }, done: m.done, total: m.total };
    case 'done':
      return { ...p, report: m.report, results: Object.fromEntries(m.report.rows.map((r) => [r.row, r])), done: m.report.rows.length, total: m.report.total };
    case 'endpoint_dead':
      return { ...p, dead: [...p.dead, { url: m.url, reason: m.reason }] };
    case 'failed':
      return { ...p, failure: m.message };
  }
}

/** One line of the table: a row's result, or a row running or waiting. */
export type BatchLine = Omit<RowResult, 'duration_ms'> & { duration_ms: number | null };

export function batchLines(p: BatchProgress): BatchLine[] {
  const known = [...Object.keys(p.started), ...Object.keys(p.results)].map(Number);
  const last = Math.max(p.total ?? 0, ...known);
  return Array.from({ length: last }, (_, i) => {
    const row = i + 1;
    const result = p.results[row];
    if (result) return result;
    const runId = p.started[row];
    return { row, values: {}, status: runId ? 'running' : 'waiting', end_state: null, duration_ms: null, run_id: runId ?? null, message: '' };
  });
}

/** `done/total · N succeeded · M failed`, as the CLI counts: anything not succeeded failed. */
export function tally(p: BatchProgress): string {
  const ended = Object.values(p.results);
  const succeeded = p.report?.succeeded ?? ended.filter((r) => r.status === 'succeeded').length;
  const failed = p.report?.failed ?? ended.filter((r) => r.status !== 'succeeded').length;
  const skipped = p.report?.skipped ? ` · ${p.report.skipped} skipped (done before)` : '';
  return `${p.done}/${p.total ?? '?'} · ${succeeded} succeeded · ${failed} failed${skipped}`;
}

/** A judge of a task file's answers as far as its messages tell. */
export interface JudgeProgress {
  /** For cancelling; null until the backend has answered. */
  id: string | null;
  done: number;
  total: number | null;
  report: JudgeReport | null;
  failure: string | null;
}

export const noJudge: JudgeProgress = { id: null, done: 0, total: null, report: null, failure: null };

/** The judge's message applied to it, and a verdict to its row of the batch's table. */
export function applyJudgeMessage(batch: BatchProgress, judge: JudgeProgress, m: JudgeMessage): [BatchProgress, JudgeProgress] {
  switch (m.kind) {
    case 'judged':
      return [{ ...batch, results: { ...batch.results, [m.result.row]: m.result } }, { ...judge, done: m.done, total: m.total }];
    case 'done':
      return [{ ...batch, results: Object.fromEntries(m.report.rows.map((r) => [r.row, r])) }, { ...judge, report: m.report, done: m.report.total, total: m.report.total }];
    case 'failed':
      return [batch, { ...judge, failure: m.message }];
  }
}

/** `score 33.3% · 1 success · 2 not success`, as `statewright judge` ends. */
export function score(r: JudgeReport): string {
  const share = r.score == null ? 'no tasks' : `score ${(r.score * 100).toFixed(1)}%`;
  const unjudged = r.unjudged ? ` · ${r.unjudged} without a verdict` : '';
  return `${share} · ${r.success} success · ${r.not_success} not success${unjudged}${r.interrupted ? ' · stopped' : ''}`;
}
