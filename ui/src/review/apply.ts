//! What saving a resolution does to the workflow, for the fake backend's previews (the
//! real app asks Rust, which owns the rule). Kept beside the review types it reads.

import { addState, removeAction, setNext, updateState } from '../editor/model';
import type { Workflow } from '../bindings';
import type { Resolution, ReviewView } from '../bindings';

export function applyResolution(wf: Workflow, review: ReviewView, r: Resolution): Workflow {
  const at = review.action;
  switch (r.kind) {
    case 'skip':
      return at ? removeAction(wf, at.state, at.index) : wf;
    case 'actions': {
      if (!at) return wf;
      const s = wf.states.find((x) => x.name === at.state);
      if (!s) return wf;
      const actions = [...(s.actions ?? [])];
      actions.splice(at.index, 0, ...r.actions);
      return updateState(wf, at.state, { actions });
    }
    case 'new_state': {
      let next = addState(wf, r.state);
      const from = review.state && next.states.find((x) => x.name === review.state);
      if (from && from.next?.length) next = setNext(next, from.name, [...from.next, r.state.name]);
      return next;
    }
    case 'synthesized':
      return updateState(wf, r.state, { checks: r.checks, actions: r.actions ?? [] });
    default:
      return wf;
  }
}
