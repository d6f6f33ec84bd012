//! Transitions seen in the last runs of a workflow, drawn as their own kind of edge.

import { useEffect, useState } from 'react';
import type { Backend } from '../backend/types';
import { edgeKey, type SeenTransitions } from '../editor/graph';

export function useSeenTransitions(backend: Backend, workflow: string | null, refreshKey: number): SeenTransitions {
  const [seen, setSeen] = useState<SeenTransitions>(new Map());
  useEffect(() => {
    if (!workflow) return setSeen(new Map());
    let live = true;
    (async () => {
      const runs = await backend.listRuns({ workflow, status: null, limit: 10 });
      const counts: SeenTransitions = new Map();
      for (const r of runs) {
        const detail = await backend.openRun(r.id);
        detail.steps.forEach((s, i) => {
          const prev = detail.steps[i - 1];
          if (prev) counts.set(edgeKey(prev.state, s.state), (counts.get(edgeKey(prev.state, s.state)) ?? 0) + 1);
        });
      }
      if (live) setSeen(counts);
    })().catch(() => live && setSeen(new Map()));
    return () => {
      live = false;
    };
  }, [backend, workflow, refreshKey]);
  return seen;
}
