//! The one interface between the UI and whatever runs workflows: the Tauri shell in the
//! app, an in-memory fake in tests and in plain-browser development.

import type { Workflow } from '../bindings';
import type { Diagnostic } from '../bindings';
import type { RunSummary } from '../bindings';
import type { PageRecord, RunDetail } from '../bindings';
import type { WorkflowEntry } from '../bindings';
import type { OpenedWorkflow } from '../bindings';
import type { SaveResult } from '../bindings';
import type { WorkflowChange } from '../bindings';
import type { RunRequest } from '../bindings';
import type { AgentRunRequest } from '../bindings';
import type { RunFilter } from '../bindings';
import type { RunEvent } from '../run/events';
import type { BatchMessage, BatchRequest, JudgeAnswers, JudgeMessage } from '../bindings';
import type { GraphReport, HealedSaved, ModelSettings, ModelSettingsChange, RecordedWorkflow, Resolution, ReviewList, ReviewView, Route, SynthesizedState } from '../bindings';
import type { TrashEntry } from '../bindings';

export type { Workflow, Diagnostic, RunSummary, RunDetail, WorkflowEntry, OpenedWorkflow, SaveResult, TrashEntry };
export type { WorkflowChange, RunRequest, AgentRunRequest, RunFilter, GraphReport, Route, RecordedWorkflow, HealedSaved, SynthesizedState };

/** What *Record…* asks for: the draft's name (its file), the first page, parameter values
 * (literals equal to one become `{{name}}`), and whether to serve the demo site as `site`. */
export interface RecordRequest {
  name: string;
  url: string;
  params: Record<string, string>;
  demo_site: boolean;
  until_url: string | null;
}

/** Errors reach the UI as a stable code plus a message for people; branch on the code. */
export class BackendError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BackendError';
  }
}

export type Unsubscribe = () => void;

export interface Backend {
  readonly kind: 'tauri' | 'fake';
  /** Whether review fixes can be previewed and saved into the workflow from here. */
  readonly canSaveFixes: boolean;

  listWorkflows(): Promise<WorkflowEntry[]>;
  openWorkflow(id: string): Promise<OpenedWorkflow>;
  /** Creates `<name>.json` with one start state and one terminal state. */
  createWorkflow(name: string): Promise<WorkflowEntry>;
  duplicateWorkflow(id: string, name: string): Promise<WorkflowEntry>;
  renameWorkflow(id: string, name: string): Promise<WorkflowEntry>;
  /** Moves a workflow or skill file into the trash (`.trash/` in its folder), never removes
   * it. An id that names no file of the folders fails with `not_found`. */
  deleteWorkflow(id: string): Promise<TrashEntry>;
  /** The trash, the latest deleted first. */
  listTrash(): Promise<TrashEntry[]>;
  /** Puts a file of the trash back under the id it had or, given `name`, under the file that
   * name makes (the workflow renamed to it). Never overwrites: a taken name fails with
   * `exists` and the file stays in the trash. */
  restoreWorkflow(trashId: string, name: string | null): Promise<WorkflowEntry>;
  /** Writes the native format (stable field order). `expectedHash` guards against
   * overwriting a file someone else changed; pass null to overwrite anyway. */
  saveWorkflow(id: string, workflow: Workflow, expectedHash: string | null): Promise<SaveResult>;
  validateWorkflow(workflow: Workflow): Promise<Diagnostic[]>;
  /** The graph's findings (unreachable, unwinnable, dead-end states…) and its declared and
   * observed edges with how often and how fast stored runs took them. */
  analyzeWorkflow(workflow: Workflow): Promise<GraphReport>;
  /** The route a run from the start is expected to walk to `to` (*Go here*). */
  planRoute(workflow: Workflow, to: string): Promise<Route>;
  watchWorkflows(onChange: (change: WorkflowChange) => void): Promise<Unsubscribe>;

  /** Starts a run; events arrive on `onEvent` in order, persisted before they arrive. */
  startRun(request: RunRequest, onEvent: (event: RunEvent) => void): Promise<string>;
  /** *Run with a goal*: the model drives (`statewright agent`); events as for `startRun`. */
  startAgentRun(request: AgentRunRequest, onEvent: (event: RunEvent) => void): Promise<string>;
  cancelRun(runId: string): Promise<void>;
  /** Runs the workflow once per row of a CSV or JSON Lines file (`statewright batch`);
   * rows that succeeded in an earlier go are skipped and come back only in the report. */
  startBatch(request: BatchRequest, onMessage: (m: BatchMessage) => void): Promise<string>;
  /** Rows not started end as cancelled, running ones are cancelled; the report still comes.
   * Stops a judge too, keeping its verdicts so far. */
  cancelBatch(batchId: string): Promise<void>;
  /** *Judge answers* (`statewright judge`): the model grades a task file's answers; each
   * verdict, then the report, follow. Returns an id for `cancelBatch`. */
  judgeAnswers(request: JudgeAnswers, onMessage: (m: JudgeMessage) => void): Promise<string>;
  listRuns(filter: RunFilter): Promise<RunSummary[]>;
  /** A stored run with its steps, without their pages (a long run's are tens of MB). */
  openRun(runId: string): Promise<RunDetail>;
  /** One step's page, its text and elements, as the viewer shows that step (null: none kept). */
  openStepPage(runId: string, step: number): Promise<PageRecord | null>;
  /** A URL the UI can put in an <img> for a screenshot path from the store. */
  screenshotUrl(path: string): string;

  /** Every open review and the `closedLimit` latest closed ones (50 when null), without
   * their pages, and how many are closed in all. */
  listReviews(closedLimit: number | null): Promise<ReviewList>;
  /** One review in full: its page, its elements, what was tried. */
  showReview(id: number): Promise<ReviewView>;
  previewResolution(id: number, resolution: Resolution): Promise<{ diff: string }>;
  resolveReview(id: number, resolution: Resolution, save: boolean): Promise<void>;
  /** Approves (the fix saved into the workflow) or rejects a model's proposal. */
  decideProposal(id: number, approve: boolean): Promise<void>;
  /** The locators run `runId` healed, saved into its workflow file (`write`; the previous
   * content kept in the store as `version`), or with `write` off only diffed. Fails with
   * `not_found` (no such run) or `invalid_workflow` (nothing healed, already saved, or the
   * result would be invalid). */
  saveHealedLocators(runId: string, write: boolean): Promise<HealedSaved>;
  /** Called whenever the set of open reviews may have changed. */
  watchReviews(onChange: () => void): Promise<Unsubscribe>;

  /** Records a person's demonstration in a Chromium window until the tab is closed, the
   * `until_url` is reached or `stopRecording` is called; compiles it into the workflow file
   * `name` names (merged into it when it exists). */
  recordWorkflow(request: RecordRequest): Promise<RecordedWorkflow>;
  stopRecording(): Promise<void>;

  /** A prompt-only state written by the model from the page step `step` of run `runId`
   * saw: a `synthesized` resolution, for the editor to apply (unsaved). */
  synthesizeState(workflow: Workflow, state: string, runId: string, step: number): Promise<SynthesizedState>;
  /** The model the LLM stage asks (the key is never returned, only whether one is set). */
  modelSettings(): Promise<ModelSettings>;
  saveModelSettings(change: ModelSettingsChange): Promise<ModelSettings>;

  /** Before the window closes: when `mustAsk()`, the close is held and `ask(close)` decides. */
  guardClose(mustAsk: () => boolean, ask: (close: () => void) => void): Promise<Unsubscribe>;
}
