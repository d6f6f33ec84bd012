//! Finding states in a large graph by what a person remembers of them: the name, a check
//! ("url contains /cart") or a selector an action uses. Name hits come first.

import type { State, Workflow } from '../bindings';
import { checkShort, targetShort } from './summary';

/** What a state can be found by, besides its name, in lower case. */
function haystack(s: State): string {
  const checks = (s.checks ?? []).map((c) => `${checkShort(c)} ${JSON.stringify(c)}`);
  const targets = (s.actions ?? []).map((a) => ('target' in a && a.target ? `${targetShort(a.target)} ${JSON.stringify(a.target)}` : ''));
  return [...checks, ...targets].join('\n').toLowerCase();
}

export function searchStates(wf: Workflow, query: string): string[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const byName = wf.states.filter((s) => s.name.toLowerCase().includes(q));
  const byContent = wf.states.filter((s) => !byName.includes(s) && haystack(s).includes(q));
  return [...byName, ...byContent].map((s) => s.name);
}
