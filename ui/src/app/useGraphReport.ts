//! The graph's findings and edge evidence for the workflow being edited: asked again (after
//! a pause in typing) when it changes, and whenever a run finishes.

import { useEffect, useState } from 'react';
import type { Backend, GraphReport } from '../backend/types';
import type { Workflow } from '../bindings';

export const emptyReport: GraphReport = { findings: [], edges: [], runs: 0 };

/** Edits come in bursts (typing in a field): analyse once they settle. */
const SETTLE_MS = 250;

export function useGraphReport(backend: Backend, workflow: Workflow | null, refreshKey: number): GraphReport {
  const [report, setReport] = useState<GraphReport>(emptyReport);
  useEffect(() => {
    if (!workflow) return setReport(emptyReport);
    let live = true;
    const timer = window.setTimeout(() => {
      backend
        .analyzeWorkflow(workflow)
        .then((r) => live && setReport(r))
        // A workflow that does not parse mid-edit has no graph yet; the validator says why.
        .catch(() => live && setReport(emptyReport));
    }, SETTLE_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [backend, workflow, refreshKey]);
  return report;
}
