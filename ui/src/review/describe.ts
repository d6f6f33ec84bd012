//! What the review panel says about a stuck run, in one set of words: actions are
//! numbered from 1 everywhere ("action 1 (click) of state `Home page`"), as the editor's
//! graph and the run viewer number them, whatever the engine's own message says.

import type { Action, Failure, OpenTab, PageElement, ReviewView, Target } from '../bindings';

/** One action of a state, as every part of the panel names it. */
export function actionRef(state: string, index: number, type: string): string {
  return `action ${index + 1} (${type}) of state \`${state}\``;
}

/** The failure in a sentence. The engine's reason numbers actions from 0, so an action
 * failure is re-worded from its fields; other reasons carry no numbers and are kept. */
export function failureText(review: Pick<ReviewView, 'failure' | 'reason'>): string {
  const f: Failure = review.failure;
  if (f.kind === 'action') return `${actionRef(f.state, f.index, f.action)} failed: ${f.error}`;
  // The engine appends its closest states to the sentence; the panel shows them as a table.
  if (f.kind === 'no_state' && f.silent) return `the page did not answer once in ${f.seconds} s (a script kept it busy, or it never finished loading)`;
  if (f.kind === 'no_state') return `no state matched this page for ${f.seconds} s`;
  return review.reason;
}

/** The state the page most likely is: the engine's closest match when no state matched,
 * else the state the run was in. A person confirms a good guess in one click. */
export function likelyState(review: Pick<ReviewView, 'failure' | 'state' | 'states'>): string {
  const known = (s: string | null | undefined): s is string => !!s && review.states.includes(s);
  const f = review.failure;
  if (f.kind === 'no_state') {
    const best = [...f.closest].sort((a, b) => b.passed / Math.max(b.total, 1) - a.passed / Math.max(a.total, 1)).find((d) => known(d.state));
    if (best) return best.state;
  }
  if (f.kind === 'ambiguous' && known(f.states[0])) return f.states[0];
  if (known(review.state)) return review.state;
  if ('state' in f && known(f.state)) return f.state;
  return review.states[0] ?? '';
}

/** An element as a person knows it: its role and accessible name. */
export function elementLabel(el: PageElement): string {
  const name = el.name || el.text;
  return `${el.role || el.tag}${name ? ` “${name}”` : ''}`;
}

/** The locator to suggest for a picked element: role + accessible name when it has both
 * (it survives restyling and re-ids), its CSS selector otherwise. */
export function targetFor(el: PageElement): Target {
  return el.role && el.name ? { role: el.role, name: el.name } : { css: el.selector };
}

const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/** The action a person most likely means on a picked element: a box set to the state it
 * is not in (`check`, which a replay cannot undo), else a click. */
export function actionOn(el: PageElement): Action {
  const target = targetFor(el);
  if (!CHECKABLE.has(el.role) && el.type !== 'checkbox' && el.type !== 'radio') return { type: 'click', target };
  return el.checked && el.role !== 'radio' && el.type !== 'radio' ? { type: 'check', target, checked: false } : { type: 'check', target };
}

/** One of the run's other tabs, as a person knows it: its title, else its address. */
export function tabLabel(tab: OpenTab): string {
  return `“${tab.title || tab.url}”${tab.previous ? ' (the tab before)' : ''}`;
}

/** The step that goes to `tab`, named as the engine names a tab (`TabSelector::naming`):
 * the tab before by no name (whatever it is called on a later run), another by its title,
 * else its exact address. A title with numbers in it (an unread count) is a pattern in
 * which any number matches, since counts change by themselves. */
export function switchTo(tab: OpenTab): Action {
  if (tab.previous) return { type: 'switch_tab' };
  if (!tab.title.trim()) return { type: 'switch_tab', tab: { url: tab.url, match: 'exact' } };
  if (!/\d/.test(tab.title)) return { type: 'switch_tab', tab: { title: tab.title, match: 'exact' } };
  const parts = tab.title.split(/\d+/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return { type: 'switch_tab', tab: { title: `^${parts.join('\\d+')}$`, match: 'pattern' } };
}
