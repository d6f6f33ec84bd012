//! Live runs: events are buffered and folded once per animation frame, so a run streaming
//! many steps per second costs one React render per frame, not one per event.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { RunEvent } from './events';
import { emptyRun, reduceAll, type RunView } from './reducer';

export function useRunStream() {
  const [view, setView] = useState<RunView>(emptyRun);
  const queue = useRef<RunEvent[]>([]);
  const frame = useRef<number | null>(null);

  const flush = useCallback(() => {
    frame.current = null;
    const batch = queue.current;
    queue.current = [];
    if (batch.length) setView((v) => reduceAll(v, batch));
  }, []);

  const push = useCallback(
    (e: RunEvent) => {
      queue.current.push(e);
      if (frame.current == null) frame.current = requestAnimationFrame(flush);
    },
    [flush],
  );

  const replace = useCallback((events: RunEvent[]) => {
    queue.current = [];
    setView(reduceAll(emptyRun, events));
  }, []);

  useEffect(() => () => void (frame.current != null && cancelAnimationFrame(frame.current)), []);
  return { view, push, replace, reset: () => setView(emptyRun) };
}
