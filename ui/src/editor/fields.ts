//! What each check and action type has for fields, and a fresh value of each type, so one
//! generic form edits every variant of the typed whitelist.

import type { Action, Check, ExtractRead, VariableMatch } from '../bindings';

export type FieldKind = 'string' | 'number' | 'bool' | 'enum' | 'target' | 'window' | 'tab' | 'point' | 'strings' | 'lines' | 'choices' | 'skill' | 'arguments' | 'outputs';

/** Kinds edited as rows of their own, each row with its own problems. */
export const ROW_KINDS: FieldKind[] = ['arguments', 'outputs'];

export interface FieldSpec {
  key: string;
  kind: FieldKind;
  options?: string[];
  optional?: boolean;
  /** The value the Rust model assumes when the field is absent. */
  fallback?: unknown;
  help?: string;
  /** Only meaningful while a sibling field has one of these values (its fallback counts
   * when it is absent), e.g. an extract's `attribute` only with `read: attribute`. */
  when?: { key: string; is: string[] };
}

/** Whether `spec` applies to `obj` as it stands. A field that does not apply is still
 * shown while it holds a value, so the validator's complaint about it has a place. */
export function applies(spec: FieldSpec, obj: Record<string, unknown>, fields: FieldSpec[]): boolean {
  if (!spec.when) return true;
  const { key, is } = spec.when;
  const current = obj[key] ?? fields.find((f) => f.key === key)?.fallback;
  return is.includes(String(current)) || obj[spec.key] != null;
}

/** A `choices` field's text as the workflow holds it: one line is one string, several a
 * list (an empty line stays while the next is being begun, as in `lines`). */
export function choicesOf(text: string, optional?: boolean): string | string[] | undefined {
  if (text === '') return optional ? undefined : '';
  const lines = text.split('\n');
  return lines.length === 1 ? lines[0] : lines;
}

const TITLE_MODES = ['exact', 'contains', 'pattern'];
const VARIABLE_MODES: VariableMatch[] = ['equals', 'contains', 'pattern', 'less_than', 'at_most', 'greater_than', 'at_least'];
const EXTRACT_READS: ExtractRead[] = ['text', 'lines', 'attribute', 'value', 'count', 'list', 'table'];

export const CHECK_FIELDS: Record<Check['type'], FieldSpec[]> = {
  url: [{ key: 'match', kind: 'enum', options: ['exact', 'prefix', 'pattern'], optional: true, fallback: 'exact' }, { key: 'value', kind: 'string', help: 'the URL; {{name}} parameters work' }],
  title: [{ key: 'match', kind: 'enum', options: TITLE_MODES, optional: true, fallback: 'exact' }, { key: 'value', kind: 'string' }],
  text: [{ key: 'match', kind: 'enum', options: ['equals', 'contains'], optional: true, fallback: 'equals' }, { key: 'value', kind: 'string' }],
  element: [{ key: 'by', kind: 'enum', options: ['css', 'xpath'], optional: true, fallback: 'css' }, { key: 'selector', kind: 'string' }],
  window_title: [{ key: 'match', kind: 'enum', options: TITLE_MODES, optional: true, fallback: 'exact' }, { key: 'value', kind: 'string' }],
  app_class: [{ key: 'value', kind: 'string' }],
  window_exists: [{ key: 'title', kind: 'string', optional: true }, { key: 'match', kind: 'enum', options: TITLE_MODES, optional: true, fallback: 'exact' }, { key: 'app_class', kind: 'string', optional: true }],
  window_focused: [{ key: 'title', kind: 'string', optional: true }, { key: 'match', kind: 'enum', options: TITLE_MODES, optional: true, fallback: 'exact' }, { key: 'app_class', kind: 'string', optional: true }],
  variable: [
    { key: 'name', kind: 'string', help: 'a variable an extract action sets, or a parameter' },
    { key: 'match', kind: 'enum', options: VARIABLE_MODES, optional: true, fallback: 'equals', help: 'the numeric modes compare the first number on each side ($1,234.50 is 1234.5)' },
    { key: 'value', kind: 'string', help: 'what to compare with; {{name}} references work' },
  ],
};

export const CHECK_TYPES = Object.keys(CHECK_FIELDS) as Check['type'][];

export function newCheck(type: Check['type']): Check {
  switch (type) {
    case 'element':
      return { type, selector: '' } as Check;
    case 'window_exists':
    case 'window_focused':
      return { type, title: '' } as Check;
    case 'variable':
      return { type, name: '', value: '' };
    default:
      return { type, value: '' } as Check;
  }
}

const target: FieldSpec = { key: 'target', kind: 'target' };
const button: FieldSpec = { key: 'button', kind: 'enum', options: ['left', 'right', 'middle'], optional: true, fallback: 'left' };
const count: FieldSpec = { key: 'count', kind: 'number', optional: true, fallback: 1, help: '2 for a double click' };
const window: FieldSpec = { key: 'window', kind: 'window', optional: true };
const timeout: FieldSpec = { key: 'timeout', kind: 'number', optional: true, help: 'seconds (default: action_timeout)' };

export const ACTION_FIELDS: Record<Action['type'], FieldSpec[]> = {
  navigate_to: [{ key: 'url', kind: 'string' }],
  go_back: [],
  click: [target, button, count],
  type: [target, { key: 'text', kind: 'string' }, { key: 'clear', kind: 'bool', optional: true, fallback: true, help: 'replace the content (off: append)' }],
  press_key: [{ key: 'key', kind: 'string', help: 'Enter, Tab, Control+A…' }],
  scroll: [{ key: 'direction', kind: 'enum', options: ['up', 'down', 'left', 'right'] }, { key: 'amount', kind: 'number', fallback: 500 }, { ...target, optional: true }],
  scroll_to: [target],
  hover: [target],
  drag: [
    { ...target, help: 'what to press on and carry (a card, a slider\'s handle)' },
    { ...target, key: 'to', help: 'where to let it go (a column, a place on the track)' },
  ],
  select_option: [
    target,
    { key: 'value', kind: 'choices', optional: true, help: 'the option\'s value, or one a line to choose several of a list that takes several' },
    { key: 'label', kind: 'choices', optional: true, help: 'the label people see, or one a line to choose several of a list that takes several' },
  ],
  check: [
    { ...target, help: 'the checkbox, radio button or switch, its label, or what holds it (a to-do item)' },
    { key: 'checked', kind: 'bool', optional: true, fallback: true, help: 'checked (off: unchecked); clicked only when it is not so already' },
  ],
  upload: [
    { ...target, help: 'the file field (shown or hidden), or the button that opens its file chooser' },
    { key: 'files', kind: 'lines', help: 'one path per line (relative ones from where statewright runs); {{name}} parameters work' },
  ],
  download: [
    { ...target, help: 'what to click for the file (a link, an Export button)' },
    { key: 'filename', kind: 'string', help: 'the name it is kept under in the run\'s folder, e.g. report.pdf' },
    { key: 'timeout', kind: 'number', optional: true, help: 'seconds the download may take (default 120)' },
  ],
  wait: [{ key: 'seconds', kind: 'number' }],
  wait_for: [target, timeout],
  extract: [
    target,
    { key: 'into', kind: 'string', help: 'the variable to set: {{name}} in later actions and checks, and among the run\'s outputs' },
    { key: 'read', kind: 'enum', options: EXTRACT_READS, optional: true, fallback: 'text', help: 'text on one line, text with its line breaks, an attribute, a field\'s value, how many match, every match\'s text, or a table\'s rows' },
    { key: 'attribute', kind: 'string', optional: true, help: 'which attribute, e.g. href', when: { key: 'read', is: ['attribute'] } },
    { key: 'pattern', kind: 'string', optional: true, help: 'a regular expression; its first group (or the whole match) is kept', when: { key: 'read', is: ['text', 'lines', 'attribute', 'value'] } },
  ],
  use_skill: [
    { key: 'skill', kind: 'skill', help: 'the skill to run: skills/NAME.json, from where its preconditions hold' },
    { key: 'args', kind: 'arguments', optional: true, help: 'values for the skill\'s parameters; {{name}} references work' },
    { key: 'outputs', kind: 'outputs', optional: true, help: 'variables set here, each from one of the skill\'s variables, once it has ended' },
  ],
  save_html: [{ key: 'filename', kind: 'string' }],
  screenshot: [{ key: 'filename', kind: 'string' }],
  switch_tab: [
    { key: 'tab', kind: 'tab', optional: true, help: 'the tab whose address or title contains these (or as match says); empty: the tab the run was on before' },
    { key: 'close', kind: 'bool', optional: true, fallback: false, help: 'close the tab the run leaves (an advertisement, a finished popup)' },
  ],
  launch: [{ key: 'program', kind: 'string' }, { key: 'args', kind: 'strings', optional: true }],
  focus_window: [{ ...window, optional: false }],
  mouse_click: [{ key: 'x', kind: 'number' }, { key: 'y', kind: 'number' }, window, button, count],
  mouse_drag: [{ key: 'from', kind: 'point' }, { key: 'to', kind: 'point' }, window],
  scroll_at: [{ key: 'x', kind: 'number' }, { key: 'y', kind: 'number' }, window, { key: 'dx', kind: 'number', optional: true, fallback: 0 }, { key: 'dy', kind: 'number', optional: true, fallback: 0 }],
  key_combo: [{ key: 'keys', kind: 'string' }],
  type_text: [{ key: 'text', kind: 'string' }],
  wait_for_window: [{ ...window, optional: false }, timeout],
};

export const ACTION_TYPES = Object.keys(ACTION_FIELDS) as Action['type'][];

/** `a` as another type of action: a new one of that type, keeping the element `a` works on
 * when the new type works on one too (a picked element stays picked). */
export function retype(a: Action, type: Action['type']): Action {
  const fresh = newAction(type) as Record<string, unknown>;
  const old = a as Record<string, unknown>;
  if ('target' in old && old.target && ACTION_FIELDS[type].some((f) => f.key === 'target')) fresh.target = old.target;
  return fresh as Action;
}

export function newAction(type: Action['type']): Action {
  const a: Record<string, unknown> = { type };
  for (const f of ACTION_FIELDS[type]) {
    if (f.optional) continue;
    a[f.key] =
      f.kind === 'target' ? { css: '' } : f.kind === 'strings' || f.kind === 'lines' ? [] : f.kind === 'window' ? { title: '' } : f.kind === 'point' ? { x: 0, y: 0 } : f.kind === 'number' ? (f.fallback ?? 0) : f.kind === 'enum' ? f.options![0] : f.kind === 'bool' ? false : '';
  }
  return a as Action;
}
