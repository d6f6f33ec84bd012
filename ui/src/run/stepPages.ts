//! A stored run's pages, one step at a time: the run opens without them (a long run's page
//! texts and element snapshots are tens of megabytes), and the viewer asks for the shown
//! step's elements, to box what was acted on. Each step's page is asked for once.

import { createContext, useContext, useEffect, useState } from 'react';
import type { PageRecord } from '../bindings';
import type { StepView } from './reducer';

/** A step's elements, by step number; `null` when the step kept no page. */
export type StepElements = (step: number) => Promise<unknown>;

/** Asks `open` for a step's page once, however often and however soon it is wanted again;
 * a failed ask is forgotten, so the step is asked for again next time. */
export function stepElementsOf(open: (step: number) => Promise<PageRecord | null>): StepElements {
  const asked = new Map<number, Promise<unknown>>();
  return (step) => {
    let page = asked.get(step);
    if (!page) {
      page = open(step).then((p) => p?.elements ?? null);
      page.catch(() => asked.delete(step));
      asked.set(step, page);
    }
    return page;
  };
}

/** The stored run's pages, for the run viewer; null while a run is live (its events carry them). */
export const StepPagesContext = createContext<StepElements | null>(null);

/** The step's elements: its own when it has them, else the stored page's once it arrives. */
export function useStepElements(step: StepView): unknown {
  const load = useContext(StepPagesContext);
  const [loaded, setLoaded] = useState<{ step: number; elements: unknown } | null>(null);
  const missing = step.elements == null && load != null;
  useEffect(() => {
    if (!missing || !load) return;
    let current = true;
    load(step.step).then(
      (elements) => current && setLoaded({ step: step.step, elements }),
      () => {}, // No boxes, as for a step that kept no page; the screenshot still shows.
    );
    return () => {
      current = false;
    };
  }, [missing, load, step.step]);
  if (step.elements != null) return step.elements;
  return loaded?.step === step.step ? loaded.elements : null;
}
