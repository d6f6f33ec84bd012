//! The open workflow: its undo history, the validator's findings, node positions (and the
//! last auto-layout, whose edge routes and interrupt lane the graph draws), and
//! saving and reloading, with on-disk changes reloaded when clean and asked about when not.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { Backend } from '../backend/types';
import type { Diagnostic, Workflow } from '../bindings';
import * as h from './history';
import { type Layout, layout, type Positions } from './layout';
import { EditError } from './model';
import { notAWorkflow } from './notAWorkflow';

export interface OpenDoc {
  id: string;
  hash: string;
  history: h.History;
}

export interface DiskConflict {
  id: string;
  hash: string;
  workflow: Workflow;
}


export function useWorkflowEditor(backend: Backend, notify: (msg: string, level?: 'info' | 'error') => void) {
  const [doc, setDoc] = useState<OpenDoc | null>(null);
  const [diagnostics, setDiagnostics] = useState<Diagnostic[]>([]);
  const [positions, setPositions] = useState<Positions>(new Map());
  const [laidOut, setLaidOut] = useState<Layout | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [conflict, setConflict] = useState<DiskConflict | null>(null);
  const [layoutMs, setLayoutMs] = useState<number | null>(null);
  const [layouts, setLayouts] = useState(0);
  const docRef = useRef(doc);
  docRef.current = doc;

  const relayout = useCallback(async (wf: Workflow) => {
    const t0 = performance.now();
    const laid = await layout(wf);
    setPositions(laid.positions);
    setLaidOut(laid);
    setLayoutMs(performance.now() - t0);
    setLayouts((n) => n + 1);
    return laid.positions;
  }, []);

  const load = useCallback(
    async (id: string) => {
      const opened = await backend.openWorkflow(id);
      if (!opened.workflow) {
        notify(notAWorkflow(opened), 'error');
        return false;
      }
      // Lay out first, then show: the graph renders once, already in place.
      await relayout(opened.workflow);
      setDoc({ id, hash: opened.hash, history: h.fresh(opened.workflow) });
      setDiagnostics(opened.diagnostics);
      setSelected(null);
      return true;
    },
    [backend, notify, relayout],
  );

  const edit = useCallback(
    /** Applies an edit; false when it was refused (the person is told why). */
    (f: (wf: Workflow) => Workflow): boolean => {
      const cur = docRef.current;
      if (!cur) return false;
      try {
        const next = f(cur.history.present);
        setDoc({ ...cur, history: h.apply(cur.history, next) });
        return true;
      } catch (e) {
        if (e instanceof EditError) {
          notify(e.message, 'error');
          return false;
        }
        throw e;
      }
    },
    [notify],
  );

  const undo = useCallback(() => setDoc((d) => d && { ...d, history: h.undo(d.history) }), []);
  const redo = useCallback(() => setDoc((d) => d && { ...d, history: h.redo(d.history) }), []);

  const save = useCallback(
    async (overwrite = false) => {
      const cur = docRef.current;
      if (!cur) return false;
      const wf = cur.history.present;
      try {
        const result = await backend.saveWorkflow(cur.id, wf, overwrite ? null : cur.hash);
        setDoc((d) => (d && d.id === cur.id ? { ...d, hash: result.hash, history: h.markSaved(d.history, wf) } : d));
        // A save reports every problem of the file as written, use_skill ones included.
        const diagnostics = result.diagnostics;
        setDiagnostics(diagnostics);
        const errors = diagnostics.filter((d) => d.severity === 'error').length;
        notify(errors ? `Saved ${cur.id} with ${errors} problem(s)` : `Saved ${cur.id}`);
        return true;
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'conflict') {
          const opened = await backend.openWorkflow(cur.id);
          if (opened.workflow) setConflict({ id: cur.id, hash: opened.hash, workflow: opened.workflow });
        } else notify(`Cannot save: ${(e as Error).message}`, 'error');
        return false;
      }
    },
    [backend, notify],
  );

  // The validator runs shortly after each edit, so messages follow the fields they concern.
  const present = doc?.history.present;
  useEffect(() => {
    if (!present) return;
    let live = true;
    const t = window.setTimeout(() => {
      backend.validateWorkflow(present).then((d) => live && setDiagnostics(d));
    }, 200);
    return () => {
      live = false;
      window.clearTimeout(t);
    };
  }, [backend, present]);

  /** Another program changed a file: reload the open one if clean, ask if not. */
  const onDiskChange = useCallback(
    async (id: string) => {
      const cur = docRef.current;
      if (!cur || cur.id !== id) return;
      let opened;
      try {
        opened = await backend.openWorkflow(id);
      } catch {
        return; // removed or mid-write; a later event follows
      }
      if (opened.hash === cur.hash || !opened.workflow) return; // our own save, or not a workflow yet
      if (!h.isDirty(cur.history)) {
        setDoc({ id, hash: opened.hash, history: h.fresh(opened.workflow) });
        setDiagnostics(opened.diagnostics);
        notify(`${id} changed on disk: reloaded`);
      } else {
        setConflict({ id, hash: opened.hash, workflow: opened.workflow });
      }
    },
    [backend, notify],
  );

  const resolveConflict = useCallback(
    (choice: 'reload' | 'keep') => {
      const c = conflict;
      setConflict(null);
      if (!c) return;
      if (choice === 'reload') setDoc({ id: c.id, hash: c.hash, history: h.fresh(c.workflow) });
      // Keeping mine: the next save overwrites the version on disk, knowingly.
      else setDoc((d) => d && { ...d, hash: c.hash });
    },
    [conflict],
  );

  const renamed = useCallback((id: string) => setDoc((d) => d && { ...d, id }), []);

  return { doc, setDoc, diagnostics, positions, setPositions, laidOut, selected, setSelected, conflict, layoutMs, layouts, load, edit, undo, redo, save, relayout, onDiskChange, resolveConflict, renamed, close: () => setDoc(null) };
}

export type WorkflowEditor = ReturnType<typeof useWorkflowEditor>;
