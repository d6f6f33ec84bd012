//! Keyboard shortcuts of the editor. Plain keys are ignored while typing in a field.

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

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
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
  if (mod && key === 'z' && !e.shiftKey && !typing(e.target)) return act(h.undo);
  if (mod && ((key === 'z' && e.shiftKey) || key === 'y') && !typing(e.target)) return act(h.redo);
  if (mod && key === 'l') return act(h.layout);
  if (mod && key === 'enter') return act(h.run);
  if (mod && key === 'f') return act(h.find);
  if (typing(e.target) || mod) return false;
  if (e.altKey && key === 'arrowup') return act(h.raise);
  if (e.altKey && key === 'arrowdown') return act(h.lower);
  if (!e.altKey && key === 'a') return act(h.addState);
  if (key === 'delete') return act(h.deleteState);
  return false;
}
