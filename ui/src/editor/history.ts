//! Undo/redo over immutable workflows, and "dirty" as "not what was last saved".

import type { Workflow } from '../bindings';

export interface History {
  past: Workflow[];
  present: Workflow;
  future: Workflow[];
  /** The workflow as last loaded or saved; the editor is clean when `present` is it. */
  saved: Workflow;
}

const LIMIT = 200;

export function fresh(workflow: Workflow): History {
  return { past: [], present: workflow, future: [], saved: workflow };
}

export function apply(h: History, next: Workflow): History {
  if (next === h.present) return h;
  return { ...h, past: [...h.past, h.present].slice(-LIMIT), present: next, future: [] };
}

export function undo(h: History): History {
  if (!h.past.length) return h;
  return { ...h, past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] };
}

export function redo(h: History): History {
  if (!h.future.length) return h;
  return { ...h, past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) };
}

export function markSaved(h: History, saved: Workflow = h.present): History {
  return { ...h, saved };
}

export function isDirty(h: History): boolean {
  return h.present !== h.saved;
}
