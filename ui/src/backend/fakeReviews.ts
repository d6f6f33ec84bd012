//! The fake's review queue as the store lists it (`Store::review_list`): every open review,
//! then the latest closed ones, each newest first and without its page, with how many are
//! closed.

import type { ReviewList, ReviewSummary, ReviewView } from '../bindings';

/** Closed reviews listed when the caller does not say, as `list_reviews`. */
const CLOSED_LISTED = 50;

/** A review as a list has it: the store's summary columns, nothing of the page. */
export function reviewSummary(r: ReviewView): ReviewSummary {
  const { id, run_id, workflow, workflow_path, step, state, status, created_ms, resolved_ms, reason, failure, resolution, saved_to, proposed_by } = r;
  return { id, run_id, workflow, workflow_path, step, state, status, created_ms, resolved_ms, reason, failure, resolution, saved_to, proposed_by };
}

export function reviewList(reviews: ReviewView[], closedLimit: number | null): ReviewList {
  const newest = [...reviews].sort((a, b) => b.id - a.id);
  const closed = newest.filter((r) => r.status !== 'open');
  const shown = closed.slice(0, closedLimit ?? CLOSED_LISTED);
  const open = newest.filter((r) => r.status === 'open');
  return { reviews: [...open, ...shown].map(reviewSummary), closed: closed.length };
}
