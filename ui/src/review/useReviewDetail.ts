//! The review shown, in full. The queue lists each review without its page (months of
//! reviews in full were tens of megabytes a poll), so the one a person looks at is asked
//! for on its own: when it is chosen, and again when its status changes (resolved from a
//! terminal, say).

import { useEffect, useState } from 'react';
import type { Backend } from '../backend/types';
import type { ReviewSummary, ReviewView } from '../bindings';

/** `shown`'s detail once it has come; null until then. */
export function useReviewDetail(backend: Backend, shown: ReviewSummary | null, notify: (m: string, level: 'error') => void): ReviewView | null {
  const [detail, setDetail] = useState<ReviewView | null>(null);
  const id = shown?.id ?? null;
  const status = shown?.status ?? null;
  useEffect(() => {
    if (id == null) return;
    let live = true;
    backend
      .showReview(id)
      .then((d) => live && setDetail(d))
      .catch((e) => live && notify((e as Error).message, 'error'));
    return () => {
      live = false;
    };
  }, [backend, id, status, notify]);
  return detail && detail.id === id ? detail : null;
}
