//! A fix the model found (it got a run going) waiting for a person: what it does, its diff,
//! and approve (saved into the workflow) or reject.

import type { ReviewView } from '../bindings';

export function ProposalForm({ review, onPreview, onDecide }: { review: ReviewView; onPreview: () => void; onDecide: (approve: boolean) => void }) {
  return (
    <div className="proposal" data-testid="proposal">
      <p>
        <strong>Proposed by the model {review.proposed_by}</strong>: <code>{JSON.stringify(review.resolution)}</code>
      </p>
      <p className="hint">It got the run past this point. Approving saves it into the workflow, so the next run needs no model here.</p>
      <div className="modal-actions">
        <button onClick={onPreview}>Preview diff</button>
        <button className="danger" onClick={() => onDecide(false)}>
          Reject
        </button>
        <button className="primary" onClick={() => onDecide(true)}>
          Approve
        </button>
      </div>
    </div>
  );
}
