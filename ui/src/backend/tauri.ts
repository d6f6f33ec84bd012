//! The backend inside the app: Tauri commands (thin wrappers over the core crates), a
//! Channel per run for its events, and broadcast events for file and review changes.

import { Channel, convertFileSrc, invoke } from '@tauri-apps/api/core';
import { listen } from '@tauri-apps/api/event';
import { getCurrentWindow } from '@tauri-apps/api/window';
import type { GraphReport, HealedSaved, ModelSettings, ModelSettingsChange, RecordedWorkflow, Resolution, ReviewList, ReviewView, Route, SynthesizedState } from '../bindings';
import type { RunEvent } from '../run/events';
import type { BatchMessage, BatchRequest, JudgeAnswers, JudgeMessage, TrashEntry } from '../bindings';
import { BackendError, type Backend, type RecordRequest, type Unsubscribe } from './types';
import type { AgentRunRequest, Diagnostic, ErrorPayload, OpenedWorkflow, PageRecord, RunDetail, RunFilter, RunMessage, RunRequest, RunSummary, SaveResult, Workflow, WorkflowChange, WorkflowEntry } from '../bindings';

async function call<T>(cmd: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(cmd, args);
  } catch (e) {
    const p = e as Partial<ErrorPayload> | string;
    if (typeof p === 'object' && p && typeof p.code === 'string') throw new BackendError(p.code, p.message ?? p.code);
    throw new BackendError('ipc', String(e));
  }
}

/** A run's channel: each message is an engine event (already in the run store) and, for
 * `observed`, the stored screenshot's path. */
function runChannel(onEvent: (e: RunEvent) => void): Channel<RunMessage> {
  const channel = new Channel<RunMessage>();
  channel.onmessage = (m) => onEvent({ ...m.event, screenshot: m.screenshot });
  return channel;
}

export class TauriBackend implements Backend {
  readonly kind = 'tauri';
  readonly canSaveFixes = true;

  listWorkflows = () => call<WorkflowEntry[]>('list_workflows');
  openWorkflow = (id: string) => call<OpenedWorkflow>('open_workflow', { id });
  createWorkflow = (name: string) => call<WorkflowEntry>('create_workflow', { name });
  duplicateWorkflow = (id: string, name: string) => call<WorkflowEntry>('duplicate_workflow', { id, name });
  renameWorkflow = (id: string, name: string) => call<WorkflowEntry>('rename_workflow', { id, name });
  deleteWorkflow = (id: string) => call<TrashEntry>('delete_workflow', { id });
  listTrash = () => call<TrashEntry[]>('list_trash');
  restoreWorkflow = (trashId: string, name: string | null) => call<WorkflowEntry>('restore_workflow', { trash_id: trashId, name });
  saveWorkflow = (id: string, workflow: Workflow, expectedHash: string | null) => call<SaveResult>('save_workflow', { id, workflow, expected_hash: expectedHash });
  validateWorkflow = (workflow: Workflow) => call<Diagnostic[]>('validate_workflow', { workflow });
  analyzeWorkflow = (workflow: Workflow) => call<GraphReport>('analyze_workflow', { workflow });
  planRoute = (workflow: Workflow, to: string) => call<Route>('plan_route', { workflow, to });

  async watchWorkflows(onChange: (c: WorkflowChange) => void): Promise<Unsubscribe> {
    return listen<WorkflowChange>('statewright://workflow-changed', (e) => onChange(e.payload));
  }

  startRun(request: RunRequest, onEvent: (e: RunEvent) => void): Promise<string> {
    return call<string>('start_run', { request, events: runChannel(onEvent) });
  }

  startAgentRun(request: AgentRunRequest, onEvent: (e: RunEvent) => void): Promise<string> {
    return call<string>('start_agent_run', { request, events: runChannel(onEvent) });
  }

  cancelRun = (runId: string) => call<void>('cancel_run', { run_id: runId });

  startBatch(request: BatchRequest, onMessage: (m: BatchMessage) => void): Promise<string> {
    const channel = new Channel<BatchMessage>();
    channel.onmessage = onMessage;
    return call<string>('start_batch', { request, events: channel });
  }

  cancelBatch = (batchId: string) => call<void>('cancel_batch', { batch_id: batchId });

  judgeAnswers(request: JudgeAnswers, onMessage: (m: JudgeMessage) => void): Promise<string> {
    const channel = new Channel<JudgeMessage>();
    channel.onmessage = onMessage;
    return call<string>('judge_answers', { request, events: channel });
  }
  listRuns = (filter: RunFilter) => call<RunSummary[]>('list_runs', { filter });
  openRun = (runId: string) => call<RunDetail>('open_run', { run_id: runId });
  openStepPage = (runId: string, step: number) => call<PageRecord | null>('open_step_page', { run_id: runId, step });
  /** Screenshots are served by the app's `shot:` protocol, from the runs folder only. */
  screenshotUrl = (path: string) => convertFileSrc(path, 'shot');

  listReviews = (limit: number | null) => call<ReviewList>('list_reviews', { limit });
  showReview = (id: number) => call<ReviewView>('show_review', { id });
  previewResolution = (id: number, resolution: Resolution) => call<{ diff: string }>('preview_resolution', { id, resolution });
  resolveReview = (id: number, resolution: Resolution, save: boolean) => call<void>('resolve_review', { id, resolution, save });
  decideProposal = (id: number, approve: boolean) => call<void>('decide_proposal', { id, approve });
  /** The shell's file watcher announces the written file (`statewright://workflow-changed`). */
  saveHealedLocators = (runId: string, write: boolean) => call<HealedSaved>('save_healed_locators', { run_id: runId, write });
  modelSettings = () => call<ModelSettings>('model_settings');
  synthesizeState = (workflow: Workflow, state: string, runId: string, step: number) =>
    call<SynthesizedState>('synthesize_state', { workflow, target: state, run_id: runId, step });
  recordWorkflow = (r: RecordRequest) =>
    call<RecordedWorkflow>('record_workflow', { name: r.name, url: r.url, params: r.params, demo_site: r.demo_site, until_url: r.until_url });
  stopRecording = () => call<void>('stop_recording');
  saveModelSettings = (change: ModelSettingsChange) => call<ModelSettings>('save_model_settings', { change });

  async watchReviews(onChange: () => void): Promise<Unsubscribe> {
    const off = await listen('statewright://reviews-changed', () => onChange());
    // Runs in other processes (the CLI) open reviews too: look again every few seconds.
    const timer = window.setInterval(onChange, 5000);
    return () => {
      off();
      window.clearInterval(timer);
    };
  }

  async guardClose(mustAsk: () => boolean, ask: (close: () => void) => void): Promise<Unsubscribe> {
    const window = getCurrentWindow();
    return window.onCloseRequested((event) => {
      if (!mustAsk()) return;
      event.preventDefault();
      ask(() => void window.destroy());
    });
  }
}
