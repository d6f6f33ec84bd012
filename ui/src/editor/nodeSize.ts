//! The size of a state's box on the canvas. The layout reserves exactly this and the node
//! is drawn at exactly this, whatever the zoom shows inside it: edges are routed to the
//! box's border, so a box that grew or shrank on screen would leave them detached.

import type { State } from '../bindings';

export const NODE_WIDTH = 250;
/** The most check (or action) lines a node lists; the rest are counted in one more line. */
export const SHOWN_LINES = 4;
const LINE = 16;

/** The height a state node needs for its short-form lines (what StateNode renders). */
export function nodeHeight(checks: number, actions: number): number {
  const lines = Math.min(checks, SHOWN_LINES) + Math.min(actions, SHOWN_LINES) + (checks > SHOWN_LINES ? 1 : 0) + (actions > SHOWN_LINES ? 1 : 0);
  return 46 + lines * LINE;
}

/** A state's box height: a state known only by its prompt shows that prompt on one line. */
export function stateHeight(state: State): number {
  const checks = state.checks?.length ?? 0;
  const promptOnly = !checks && !!state.prompt?.trim();
  return nodeHeight(promptOnly ? 1 : checks, state.actions?.length ?? 0);
}
