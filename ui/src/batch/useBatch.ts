//! The batch on screen: the last one started, followed message by message. One at a time
//! is shown; messages of one started before are dropped, not mixed into its table.

import { useCallback, useRef, useState } from 'react';
import type { Backend } from '../backend/types';
import { applyBatchMessage, noProgress, type BatchProgress } from './progress';
import type { BatchRequest } from '../bindings';

export interface ShownBatch {
  id: string;
  request: BatchRequest;
  progress: BatchProgress;
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
      if (token === latest.current) setBatch({ id: id!, request, progress: early });
    },
    [backend, onRowEnded],
  );

  const live = batch != null && batch.progress.report == null && batch.progress.failure == null;
  const cancel = () => (batch ? backend.cancelBatch(batch.id) : Promise.resolve());
  return { batch, live, start, cancel };
}
