import type { OpenedWorkflow } from '../bindings';

/** Why a file in the workflows folder does not open in the editor, with where in the file
 * the first problem is (as the list's warning says it): a JSON syntax error is found by its
 * line and column; a whole file's problem (too large, not UTF-8) is at 1:1, which says nothing. */
export function notAWorkflow(opened: OpenedWorkflow): string {
  const first = opened.diagnostics[0];
  if (!first) return `${opened.id} is not a workflow: unreadable`;
  const place = first.line === 1 && first.column === 1 ? '' : `line ${first.line}, column ${first.column}: `;
  return `${opened.id} is not a workflow: ${place}${first.message}`;
}
