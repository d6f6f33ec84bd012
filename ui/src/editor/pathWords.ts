//! The validator positions its findings by JSON path (`states[14].actions[0].target`);
//! people know states by name and count actions from 1: "state Cart › action 1 › target".

import type { Workflow } from '../bindings';

/** Numbered lists inside a state, as one item of each is called. */
const ITEMS: Record<string, string> = { actions: 'action', checks: 'check', expect: 'expected check', next: 'next state', pre: 'precondition', post: 'postcondition' };
/** Maps whose keys are names, as one entry of each is called: `argument username`. */
const ENTRIES: Record<string, string> = { args: 'argument', outputs: 'output' };

export function pathInWords(wf: Workflow, path: string): string {
  if (!path) return 'workflow';
  const words: string[] = [];
  let list: unknown = wf;
  /** Set to `args`/`outputs` after one: the next segment is an entry's name, whatever it reads. */
  let entryOf: string | null = null;
  // Each segment is a field name, optionally followed by one or more [index].
  for (const seg of path.split('.')) {
    if (entryOf) {
      words.push(`${ENTRIES[entryOf]} ${seg}`);
      entryOf = null;
      continue;
    }
    const m = /^([^[\]]+)((?:\[\d+\])*)$/.exec(seg);
    if (!m) return path;
    const [, field, indexes] = m;
    const idx = [...indexes.matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]));
    const value = (list as Record<string, unknown> | undefined)?.[field];
    if (ENTRIES[field] && !idx.length && words.length > 0) {
      entryOf = field;
      continue;
    }
    if (field === 'states' && idx.length === 1) {
      const state = wf.states[idx[0]];
      words.push(state ? `state ${state.name}` : `state ${idx[0] + 1}`);
      list = state;
    } else if (field === 'parameters' && words.length === 0) {
      words.push('parameter');
      list = value;
    } else if (idx.length === 1 && ITEMS[field]) {
      words.push(`${ITEMS[field]} ${idx[0] + 1}`);
      list = (value as unknown[] | undefined)?.[idx[0]];
    } else {
      words.push([field.replace(/_/g, ' '), ...idx.map((i) => String(i + 1))].join(' '));
      list = value;
    }
  }
  if (entryOf) words.push(entryOf === 'args' ? 'arguments' : entryOf);
  // "parameter › password" reads better as one word pair.
  return words.join(' › ').replace(/^parameter › /, 'parameter ');
}
