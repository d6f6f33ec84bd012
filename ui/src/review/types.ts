//! A human review item and its resolutions, exactly as the run store and the CLI's
//! `statewright review` commands define them.

import type { Action, Check, Resolution } from '../bindings';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PageElement {
  id: string;
  tag: string;
  role: string;
  name: string;
  text: string;
  rect: Rect;
  selector: string;
}

export interface Tried {
  stage: 'reobserve' | 'retry' | 'heal' | 'llm' | 'human';
  outcome: string;
}

export type { Resolution };

export interface ReviewItem {
  id: number;
  run_id: string;
  workflow: string;
  step: number | null;
  state: string | null;
  status: 'open' | 'resolved' | 'cancelled';
  created_ms: number;
  resolved_ms: number | null;
  reason: string;
  failure: object | null;
  tried: Tried[];
  /** A path under the runs folder. */
  screenshot: string | null;
  url: string;
  title: string;
  elements: PageElement[];
  action: { state: string; index: number; action: Action } | null;
  states: string[];
  suggested_checks: Check[];
  resolution: Resolution | null;
  /** Where the fix was saved, if it was. */
  saved_to?: string | null;
}
