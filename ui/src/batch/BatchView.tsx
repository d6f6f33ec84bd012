//! The batch tab: one line per row of the data file as the rows run, with the results
//! table's columns (row, status, end state, duration, run id, message, then the endpoint
//! when the batch has a pool of browsers, the row's values, and what the run read, one
//! column per output, as the CLI's CSV has them); a run id opens that run in the viewer.
//! Endpoints given up on are named above the table as the batch hears of them. A batch of
//! goals (a task file) has the model's use and its answer as columns too, and once it is
//! over *Judge answers* has the model grade them (`statewright judge`): a verdict column
//! fills in task by task, and the score follows.

import { cellText, columnsOf } from '../run/preview';
import { batchLines, score, tally, type BatchLine } from './progress';
import type { ShownBatch } from './useBatch';

/** How each of the judge's verdicts is shown: `unjudged` got none (the next go asks again). */
const VERDICTS: Record<string, { label: string; phase: string }> = {
  success: { label: 'success', phase: 'succeeded' },
  not_success: { label: 'not success', phase: 'failed' },
  unjudged: { label: 'no verdict', phase: 'waiting' },
};
const seconds = (ms: number | null) => (ms == null ? '' : `${(ms / 1000).toFixed(1)} s`);

/** `3 calls · 2,345 tokens · $0.0012`, as `runs show` says it; empty for a run that asked none. */
function modelUse(l: BatchLine): string {
  if (!l.llm_calls) return '';
  const cost = l.llm_cost ? ` · $${l.llm_cost.toFixed(4)}` : '';
  return `${l.llm_calls} call${l.llm_calls === 1 ? '' : 's'} · ${(l.llm_tokens ?? 0).toLocaleString('en')} tokens${cost}`;
}

interface Props {
  batch: ShownBatch | null;
  live: boolean;
  judging: boolean;
  onCancel: () => void;
  onJudge: () => void;
  onOpenRun: (runId: string) => void;
}

export function BatchView({ batch, live, judging, onCancel, onJudge, onOpenRun }: Props) {
  if (!batch) return <p className="empty">No batch yet: Batch… in the editor runs the workflow once per row of a data file, and Run with a goal… › Task file… the model once per task.</p>;
  const { progress, request } = batch;
  const lines = batchLines(progress);
  // The values' columns, in the file's order as far as the rows ended tell it.
  const columns = [...new Set(lines.flatMap((l) => Object.keys(l.values)))];
  const outputs = columnsOf(lines.map((l) => l.outputs ?? {}));
  const pooled = (request.browsers != null && request.browsers.kind !== 'launch') || lines.some((l) => l.endpoint);
  const endpoints = progress.report?.endpoints ?? [];
  const asked = lines.some((l) => (l.llm_calls ?? 0) > 0);
  const judged = lines.some((l) => l.judged);
  const { each } = request;
  const { judge } = batch;
  return (
    <section className="batch-view" aria-label="batch">
      <div className="toolbar">
        <strong>{each.kind === 'workflow' ? each.workflow.replace(/\.json$/, '') : 'tasks for the model'}</strong>
        <code className="hint" title={request.data}>
          {request.data}
        </code>
        <span data-testid="batch-tally">{tally(progress)}</span>
        {live && (
          <button className="danger" onClick={onCancel}>
            Cancel batch
          </button>
        )}
        {each.kind === 'goals' && progress.report && !judging && (
          <button onClick={onJudge} title="the model set under Model… grades each answer from the run's last screenshots, as statewright judge">
            {judge ? 'Judge again' : 'Judge answers'}
          </button>
        )}
        {judging && (
          <>
            <span data-testid="judge-progress">
              judging {judge?.done ?? 0}/{judge?.total ?? '?'}…
            </span>
            <button className="danger" onClick={onCancel}>
              Stop judging
            </button>
          </>
        )}
        {judge?.report && <strong data-testid="judge-score">{score(judge.report)}</strong>}
        {progress.report && (
          <span className="hint" data-testid="batch-results" title={`${progress.report.results_csv} and ${progress.report.results_json}`}>
            results: {progress.report.results_csv} and {progress.report.results_json}
          </span>
        )}
      </div>
      {progress.failure && <p className="problem error">{progress.failure}</p>}
      {judge?.failure && <p className="problem error">The judge stopped: {judge.failure}</p>}
      {progress.dead.map((d, i) => (
        <p key={i} className="problem warning" data-testid="batch-dead-endpoint">
          Browser endpoint <code>{d.url}</code> is dead, its rows go to the others: {d.reason}
        </p>
      ))}
      {endpoints.length > 0 && (
        <p className="hint batch-endpoints" data-testid="batch-endpoints">
          {endpoints.map((e) => `${e.url}: ${e.runs} row(s)${e.dead ? ' · dead' : ''}`).join(' · ')}
        </p>
      )}
      <div className="batch-table">
        <table>
          <thead>
            <tr>
              <th>row</th>
              <th>status</th>
              <th>end state</th>
              <th>duration</th>
              <th>run</th>
              <th>message</th>
              {pooled && <th>endpoint</th>}
              {asked && <th title="the run's calls to the model, their tokens and cost">model</th>}
              {judged && <th title="what the judge said of the answer">verdict</th>}
              {columns.map((c) => (
                <th key={`value-${c}`}>{c}</th>
              ))}
              {outputs.map((c) => (
                <th key={`output-${c}`} className="output-column" title="read by the run">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => (
              <tr key={l.row} data-testid="batch-row">
                <td>{l.row}</td>
                <td>
                  <span className={`phase phase-${l.status}`} data-testid="batch-status">
                    {l.status}
                  </span>
                </td>
                <td data-testid="batch-end-state">{l.end_state}</td>
                <td>{seconds(l.duration_ms)}</td>
                <td>
                  {l.run_id && (
                    <button className="link" onClick={() => onOpenRun(l.run_id!)} data-testid="batch-run-id">
                      <code>{l.run_id}</code>
                    </button>
                  )}
                </td>
                <td>{l.message}</td>
                {pooled && (
                  <td data-testid="batch-endpoint">
                    <code>{l.endpoint}</code>
                  </td>
                )}
                {asked && <td data-testid="batch-model">{modelUse(l)}</td>}
                {judged && (
                  <td data-testid="batch-verdict" title={l.judged?.model ? `judged by ${l.judged.model}` : 'decided by the run’s status'}>
                    {l.judged && (
                      <>
                        <span className={`phase phase-${VERDICTS[l.judged.verdict]?.phase ?? 'failed'}`}>{VERDICTS[l.judged.verdict]?.label ?? l.judged.verdict}</span> {l.judged.reason}
                      </>
                    )}
                  </td>
                )}
                {columns.map((c) => (
                  <td key={`value-${c}`}>{l.values[c]}</td>
                ))}
                {outputs.map((c) => (
                  <td key={`output-${c}`} data-testid={`batch-output-${c}`}>
                    {cellText(l.outputs?.[c])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
