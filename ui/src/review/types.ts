//! A human review item and its resolutions, exactly as the run store and the CLI's
//! `statewright review` commands define them.

import type { Action, Check, State } from '../bindings';

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

export type Resolution =
  | { kind: 'retry' }
  | { kind: 'skip' }
  | { kind: 'actions'; actions: Action[] }
  | { kind: 'declare_state'; state: string }
  | { kind: 'new_state'; state: State }
  | { kind: 'abort'; reason?: string };

export interface ReviewItem {
  id: number;
  run_id: string;
  workflow: string;
  step: number | null;
  state: string | null;
  status: 'open' | 'resolved';
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
}
