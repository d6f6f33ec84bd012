//! Checks, actions and targets in short form, for graph nodes and lists.

import type { Action, Check, TabSelector, Target, VariableMatch, WindowSelector } from '../bindings';

const clip = (s: string, n = 40) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const q = (s: string) => `“${clip(s)}”`;

export function targetShort(t: Target | null | undefined): string {
  if (!t) return '';
  const nth = (t.exact === false ? ' (loosely)' : '') + (t.nth != null ? `[${t.nth}]` : '');
  if (t.css) return clip(t.css) + nth;
  if (t.xpath) return clip(t.xpath) + nth;
  if (t.text) return `text ${q(t.text)}${nth}`;
  if (t.role) return `${t.role}${t.name ? ` ${q(t.name)}` : ''}${nth}`;
  return '(no target)';
}

function windowShort(w: WindowSelector | null | undefined): string {
  if (!w) return 'screen';
  return [w.title ? q(w.title) : '', w.app_class ? `class ${w.app_class}` : ''].filter(Boolean).join(' ');
}

/** A variable check's comparison as a reader writes it: `total ≥ 100`, `name contains “Ann”`. */
const COMPARE: Record<VariableMatch, string> = {
  equals: '=',
  contains: 'contains',
  pattern: 'matches',
  less_than: '<',
  at_most: '≤',
  greater_than: '>',
  at_least: '≥',
};
const NUMERIC = new Set<VariableMatch>(['less_than', 'at_most', 'greater_than', 'at_least']);

function variableShort(c: Extract<Check, { type: 'variable' }>): string {
  const mode = c.match ?? 'equals';
  // Numbers read better bare; text is quoted so that spaces and empties show.
  const value = NUMERIC.has(mode) ? clip(c.value) : q(c.value);
  return `${c.negate ? 'not ' : ''}variable ${c.name || '?'} ${COMPARE[mode]} ${value}`;
}

/** What an extract reads, in words: `text`, `href`, `count`… */
function extractWhat(a: Extract<Action, { type: 'extract' }>): string {
  const read = a.read ?? 'text';
  return read === 'attribute' ? (a.attribute || 'attribute') : read;
}

/** A skill call as a function call: `use_skill demo-sign-in(site, username) → greeting`,
 * the arguments by name (their values are mostly {{references}} to the same names). */
function useSkillShort(a: Extract<Action, { type: 'use_skill' }>): string {
  const outputs = Object.keys(a.outputs ?? {});
  return `use_skill ${a.skill || '?'}(${Object.keys(a.args ?? {}).join(', ')})${outputs.length ? ` → ${outputs.join(', ')}` : ''}`;
}

export function checkShort(c: Check): string {
  if (c.type === 'variable') return variableShort(c);
  const not = c.negate ? 'not ' : '';
  const mode = 'match' in c && c.match && c.match !== 'exact' && c.match !== 'equals' ? ` ${c.match}` : '';
  switch (c.type) {
    case 'url':
      return `${not}url${mode} ${clip(c.value)}`;
    case 'title':
      return `${not}title${mode} ${q(c.value)}`;
    case 'text':
      return `${not}text${mode} ${q(c.value)}`;
    case 'element':
      return `${not}element ${clip(c.selector)}`;
    case 'window_title':
      return `${not}window title${mode} ${q(c.value)}`;
    case 'app_class':
      return `${not}app ${c.value}`;
    case 'window_exists':
      return `${not}window ${windowShort(c)}`;
    case 'window_focused':
      return `${not}focused ${windowShort(c)}`;
    default:
      return (c as { type: string }).type;
  }
}

function tabShort(tab: TabSelector | undefined): string {
  if (tab?.url) return `switch to tab ${clip(tab.url)}`;
  if (tab?.title) return `switch to tab ${q(tab.title)}`;
  return 'back to the previous tab';
}

export function actionShort(a: Action): string {
  switch (a.type) {
    case 'navigate_to':
      return `go to ${clip(a.url)}`;
    case 'go_back':
      return 'go back to the page before';
    case 'click':
      return `${a.count === 2 ? 'double-click' : 'click'} ${targetShort(a.target)}`;
    case 'type':
      return `type ${q(a.text)} into ${targetShort(a.target)}`;
    case 'press_key':
      return `press ${a.key}`;
    case 'scroll':
      return `scroll ${a.direction}${a.target ? ` in ${targetShort(a.target)}` : ''}`;
    case 'scroll_to':
      return `scroll to ${targetShort(a.target)}`;
    case 'hover':
      return `hover ${targetShort(a.target)}`;
    case 'drag':
      return `drag ${targetShort(a.target)} to ${targetShort(a.to)}`;
    case 'check':
      return `${a.checked === false ? 'uncheck' : 'check'} ${targetShort(a.target)}`;
    case 'select_option': {
      const chosen = a.label ?? a.value ?? '';
      return `select ${typeof chosen === 'string' ? q(chosen) : chosen.map(q).join(', ')} in ${targetShort(a.target)}`;
    }
    case 'upload':
      return `upload ${a.files.length === 1 ? q(a.files[0].split(/[\\/]/).pop() ?? '') : `${a.files.length} files`} into ${targetShort(a.target)}`;
    case 'download':
      return `download ${a.filename} through ${targetShort(a.target)}`;
    case 'wait':
      return `wait ${a.seconds}s`;
    case 'wait_for':
      return `wait for ${targetShort(a.target)}`;
    case 'extract':
      return `extract ${extractWhat(a)} of ${targetShort(a.target)} → ${a.into || '?'}`;
    case 'use_skill':
      return useSkillShort(a);
    case 'save_html':
      return `save html ${a.filename}`;
    case 'screenshot':
      return `screenshot ${a.filename}`;
    case 'switch_tab':
      return `${tabShort(a.tab)}${a.close ? ', closing this one' : ''}`;
    case 'launch':
      return `launch ${a.program}`;
    case 'focus_window':
      return `focus ${windowShort(a.window)}`;
    case 'mouse_click':
      return `click at ${a.x},${a.y}`;
    case 'mouse_drag':
      return `drag ${a.from.x},${a.from.y} → ${a.to.x},${a.to.y}`;
    case 'scroll_at':
      return `wheel at ${a.x},${a.y}`;
    case 'key_combo':
      return `keys ${a.keys}`;
    case 'type_text':
      return `type ${q(a.text)}`;
    case 'wait_for_window':
      return `wait for window ${windowShort(a.window)}`;
    default:
      return (a as { type: string }).type;
  }
}
