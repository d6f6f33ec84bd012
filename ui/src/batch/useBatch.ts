//! The batch on screen: the last one started, followed message by message. One at a time
//! is shown; messages of one started before are dropped, not mixed into its table.

import { useCallback, useRef, useState } from 'react';
import type { Backend } from '../backend/types';
import { applyBatchMessage, applyJudgeMessage, noJudge, noProgress, type BatchProgress, type JudgeProgress } from './progress';
import type { BatchRequest, JudgeMessage } from '../bindings';

export interface ShownBatch {
  id: string;
  request: BatchRequest;
  progress: BatchProgress;
  /** *Judge answers* on its results, once asked. */
  judge: JudgeProgress | null;
}

export function useBatch(backend: Backend, onRowEnded: () => void) {
  const [batch, setBatch] = useState<ShownBatch | null>(null);
  const latest = useRef(0);

  /** Resolves once the backend accepted the batch; rejects (nothing shown) when it did not. */
  const start = useCallback(
    async (request: BatchRequest) => {
      const token = ++latest.current;
      let early = noProgress;
      let id: string | null = null;
      id = await backend.startBatch(request, (m) => {
        if (token !== latest.current) return;
        if (m.kind === 'finished') onRowEnded();
        // Messages before the id is known are kept until it is.
        if (id == null) early = applyBatchMessage(early, m);
        else setBatch((b) => b && { ...b, progress: applyBatchMessage(b.progress, m) });
      });
      if (token === latest.current) setBatch({ id: id!, request, progress: early, judge: null });
    },
    [backend, onRowEnded],
  );

  /** Has the model judge the answers of the batch shown (a task file's, once it is over),
   * every task anew when it was judged before; rejects (nothing changes) when the backend
   * refuses. */
  const judge = useCallback(async () => {
    const results = batch?.progress.report?.results_json;
    if (!results) return;
    const again = batch?.judge != null;
    const token = latest.current;
    const apply = (m: JudgeMessage) =>
      setBatch((b) => {
        if (!b || token !== latest.current) return b;
        const [progress, judge] = applyJudgeMessage(b.progress, b.judge ?? noJudge, m);
        return { ...b, progress, judge };
      });
    setBatch((b) => b && { ...b, judge: noJudge });
    try {
      const id = await backend.judgeAnswers({ results, again }, apply);
      setBatch((b) => b && token === latest.current && b.judge ? { ...b, judge: { ...b.judge, id } } : b);
    } catch (e) {
      setBatch((b) => b && { ...b, judge: null });
      throw e;
    }
  }, [backend, batch]);

  const live = batch != null && batch.progress.report == null && batch.progress.failure == null;
  const judging = batch?.judge != null && batch.judge.report == null && batch.judge.failure == null;
  const cancel = () => {
    const id = judging ? batch?.judge?.id : batch?.id;
    return id ? backend.cancelBatch(id) : Promise.resolve();
  };
  return { batch, live, judging, start, cancel, judge };
}
