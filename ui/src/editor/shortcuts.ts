//! Keyboard shortcuts of the editor. Undo and redo are the editor's unless the focus is in
//! a control that edits text, which has its own undo; plain keys are ignored in any form
//! control (a select's letters jump to an option, a checkbox's space ticks it).

export interface ShortcutHandlers {
  save: () => void;
  undo: () => void;
  redo: () => void;
  layout: () => void;
  addState: () => void;
  deleteState: () => void;
  raise: () => void;
  lower: () => void;
  run: () => void;
  find: () => void;
}

export const SHORTCUTS: [string, string][] = [
  ['Ctrl+S', 'save'],
  ['Ctrl+Z', 'undo'],
  ['Ctrl+Shift+Z / Ctrl+Y', 'redo'],
  ['Ctrl+L', 'lay out the graph'],
  ['Ctrl+Enter', 'run'],
  ['Ctrl+F', 'find a state by name, check or selector'],
  ['A', 'add a state'],
  ['Delete', 'delete the selected state'],
  ['Alt+↑ / Alt+↓', 'raise / lower the selected state’s priority'],
];

/** The part of a focused element the shortcuts look at (an `HTMLElement` has them all). */
export interface Focused {
  tagName: string;
  type?: string;
  isContentEditable?: boolean;
}

/** Input types that are not a line of text: no text of theirs for Ctrl+Z to take back. */
const NOT_TEXT = new Set(['checkbox', 'radio', 'range', 'color', 'file', 'button', 'submit', 'reset', 'image', 'hidden']);

/** A control with its own text undo: a text-like input, a textarea, editable content. */
export function editsText(el: Focused | null): boolean {
  if (!el) return false;
  if (el.tagName === 'INPUT') return !NOT_TEXT.has((el.type ?? 'text').toLowerCase());
  return el.tagName === 'TEXTAREA' || !!el.isContentEditable;
}

/** Any form control: its keys are its own (typing, type-ahead, ticking, sliding). */
export function inFormControl(el: Focused | null): boolean {
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'SELECT' || editsText(el));
}

export function handleShortcut(e: KeyboardEvent, h: ShortcutHandlers): boolean {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.toLowerCase();
  const act = (f: () => void) => {
    e.preventDefault();
    f();
    return true;
  };
  if (mod && key === 's') return act(h.save);
  const target = e.target as Focused | null;
  if (mod && key === 'z' && !e.shiftKey && !editsText(target)) return act(h.undo);
  if (mod && ((key === 'z' && e.shiftKey) || key === 'y') && !editsText(target)) return act(h.redo);
  if (mod && key === 'l') return act(h.layout);
  if (mod && key === 'enter') return act(h.run);
  if (mod && key === 'f') return act(h.find);
  if (inFormControl(target) || mod) return false;
  if (e.altKey && key === 'arrowup') return act(h.raise);
  if (e.altKey && key === 'arrowdown') return act(h.lower);
  if (!e.altKey && key === 'a') return act(h.addState);
  if (key === 'delete') return act(h.deleteState);
  return false;
}
