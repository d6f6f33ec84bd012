//! Finding states in a large graph by what a person remembers of them: the name, a check
//! ("url contains /cart") or a selector an action uses. Name hits come first.

import type { State, Workflow } from '../bindings';
import { checkShort, targetShort } from './summary';

/** What each state can be found by, kept while the state is unchanged (an edit makes a new
 * state object): the editor asks again at every render while a query is in the box, and
 * writing out every check and target took ~20 ms at 10,000 states each time. */
const haystacks = new WeakMap<State, string>();

/** What a state can be found by, besides its name, in lower case. */
function haystack(s: State): string {
  let found = haystacks.get(s);
  if (found === undefined) haystacks.set(s, (found = writeHaystack(s)));
  return found;
}

function writeHaystack(s: State): string {
  const checks = (s.checks ?? []).map((c) => `${checkShort(c)} ${JSON.stringify(c)}`);
  const targets = (s.actions ?? []).map((a) => ('target' in a && a.target ? `${targetShort(a.target)} ${JSON.stringify(a.target)}` : ''));
  return [...checks, ...targets].join('\n').toLowerCase();
}

export function searchStates(wf: Workflow, query: string): string[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const byName = wf.states.filter((s) => s.name.toLowerCase().includes(q));
  const named = new Set(byName);
  const byContent = wf.states.filter((s) => !named.has(s) && haystack(s).includes(q));
  return [...byName, ...byContent].map((s) => s.name);
}
