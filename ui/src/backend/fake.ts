//! An in-memory backend: the UI's browser tests and plain-browser development run on it.
//! It can replay a recorded run's event stream at its recorded pace (or faster), and it
//! lets tests play "another program" changing a file on disk.

import { applyResolution } from '../review/apply';
import type { GraphReport, Healed, HealedCheck, HealedSaved, ModelSettings, ModelSettingsChange, RecordedWorkflow, Resolution, RetryRecord, ReviewList, ReviewSummary, ReviewView, Route, SynthesizedState } from '../bindings';
import { eventsFromDetail, type RunEvent } from '../run/events';
import { BackendError, type Backend, type RecordRequest, type Unsubscribe } from './types';
import type { AgentRunRequest, Diagnostic, Target, OpenedWorkflow, PageRecord, RunDetail, RunFilter, RunRequest, RunSummary, SaveResult, Workflow, WorkflowChange, WorkflowEntry } from '../bindings';
import { unifiedDiff } from './diff';
import { fakeValidate, type SkillLibrary } from './validate';
import { fakeReport, fakeRoute } from './fakeGraph';
import { checkBatch, runFakeBatch, runFakeJudge, type FakeBatch } from './fakeBatch';
import type { BatchMessage, BatchRequest, JudgeAnswers, JudgeMessage, RowResult, TrashEntry } from '../bindings';
import { FakeTrash } from './fakeTrash';
import { reviewList, reviewSummary } from './fakeReviews';

export interface Recording {
  /** The run as `statewright runs show --json` printed it. */
  detail: RunDetail;
  /** The events to replay, in order; rebuilt from `detail` when absent (as for past runs). */
  events?: RunEvent[];
}

export interface FakeOptions {
  workflows?: Record<string, Workflow>;
  recording?: Recording | null;
  reviews?: ReviewView[];
  /** Where screenshot paths are served from (fixtures). */
  screenshotBase?: string;
  /** Replay pace as a factor on recorded time: 1 = as recorded, 0.1 = ten times faster. */
  timeScale?: number;
}

const text = (wf: Workflow) => `${JSON.stringify(wf, null, 2)}\n`;

async function hash(s: string): Promise<string> {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16);
}

/** Files of the skills folder are listed under this prefix, as the Rust library does. */
const SKILLS = 'skills/';

const entry = (id: string, wf: Workflow, modified_ms: number): WorkflowEntry => ({ id, name: wf.name, states: wf.states.length, modified_ms, error: null, skill: id.startsWith(SKILLS) });

const slug = (name: string) => {
  const trimmed = name.trim();
  if (!trimmed || !/^[\p{L}\p{N} _-]+$/u.test(trimmed)) throw new BackendError('bad_name', `“${name}” is not a usable workflow name`);
  return `${trimmed.toLowerCase().replace(/ /g, '-')}.json`;
};

const entryOf = (id: string, t: string) => entry(id, JSON.parse(t) as Workflow, Date.now());

/** The file `name` names in the folder of `id`: a renamed or duplicated skill stays a skill. */
const sibling = (id: string, name: string) => (id.startsWith(SKILLS) ? SKILLS : '') + slug(name);

export class FakeBackend implements Backend {
  readonly kind = 'fake';
  readonly canSaveFixes = true;
  files = new Map<string, string>();
  runs = new Map<string, RunDetail>();
  reviews: ReviewView[];
  private workflowWatchers = new Set<(c: WorkflowChange) => void>();
  private reviewWatchers = new Set<() => void>();
  private timers = new Map<string, number[]>();
  private runCount = 0;
  /** Every run request, in order, for tests to inspect. */
  requests: RunRequest[] = [];
  /** The event streams of stored runs, where known (the store's detail has no heals). */
  private runEvents = new Map<string, RunEvent[]>();
  /** Previous contents of workflow files a save replaced, as the store keeps them (id = index + 1). */
  versions: { path: string; text: string; reason: string }[] = [];

  constructor(private options: FakeOptions = {}) {
    for (const [id, wf] of Object.entries(options.workflows ?? {})) this.files.set(id, text(wf));
    if (options.recording) {
      this.runs.set(options.recording.detail.run.id, options.recording.detail);
      if (options.recording.events) this.runEvents.set(options.recording.detail.run.id, options.recording.events);
    }
    this.reviews = options.reviews ?? [];
  }

  private read(id: string): string {
    const t = this.files.get(id);
    if (t == null) throw new BackendError('not_found', `no workflow named \`${id}\``);
    return t;
  }

  async listWorkflows(): Promise<WorkflowEntry[]> {
    return [...this.files.entries()]
      .map(([id, t]) => entry(id, JSON.parse(t) as Workflow, 0))
      // The workflows, then the skills, each by name: the Rust library's order.
      .sort((a, b) => Number(a.skill) - Number(b.skill) || a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id.localeCompare(b.id));
  }

  /** The skills folder's files by skill name (`skills/demo-sign-in.json` → `demo-sign-in`). */
  private skills(): SkillLibrary {
    const found: SkillLibrary = {};
    for (const [id, t] of this.files) if (id.startsWith(SKILLS)) found[id.slice(SKILLS.length).replace(/\.json$/, '')] = JSON.parse(t) as Workflow;
    return found;
  }

  async openWorkflow(id: string): Promise<OpenedWorkflow> {
    const t = this.read(id);
    const workflow = JSON.parse(t) as Workflow;
    return { id, workflow, hash: await hash(t), diagnostics: fakeValidate(workflow, this.skills()) };
  }

  private async create(id: string, wf: Workflow): Promise<WorkflowEntry> {
    if (this.files.has(id)) throw new BackendError('exists', `a workflow file \`${id}\` already exists`);
    this.files.set(id, text(wf));
    return entry(id, wf, Date.now());
  }

  private stopRecordingNow: (() => void) | null = null;

  /** A recording the fake "hears" until it is stopped: a sign-in on the page asked for. */
  async recordWorkflow(r: RecordRequest): Promise<RecordedWorkflow> {
    if (this.stopRecordingNow) throw new BackendError('invalid_run', 'a recording is already under way');
    const id = slug(r.name);
    await new Promise<void>((resolve) => (this.stopRecordingNow = resolve));
    this.stopRecordingNow = null;
    const merged = this.files.has(id);
    const params = Object.keys(r.params);
    const wf = {
      version: 1,
      name: r.name.trim(),
      description: `Compiled from a recording of ${r.url}.`,
      parameters: Object.fromEntries(Object.entries(r.params).map(([k, v]) => [k, { description: 'as in the demonstration', default: v }])),
      states: [
        { name: 'Sign in (done)', checks: [{ type: 'url', match: 'prefix', value: `${r.url}welcome` }], terminal: { outcome: 'success', message: 'the demonstration ended here' } },
        { name: 'Sign in', checks: [{ type: 'url', match: 'prefix', value: r.url }, { type: 'element', selector: '#username' }], actions: [{ type: 'type', target: { role: 'textbox', name: 'Username' }, text: params.length ? `{{${params[0]}}}` : 'demo' }, { type: 'click', target: { role: 'button', name: 'Sign in' } }], next: ['Sign in (done)'] },
        { name: 'Start', checks: [{ type: 'url', value: 'about:blank' }], actions: [{ type: 'navigate_to', url: r.url }], next: ['Sign in'] },
      ],
    } as Workflow;
    this.files.set(id, text(wf));
    this.workflowWatchers.forEach((w) => w({ id, removed: false }));
    return { id, run_id: `rec-${++this.runCount}`, acts: 4, states: 3, actions: 4, merged, notes: [] };
  }

  async stopRecording(): Promise<void> {
    if (!this.stopRecordingNow) throw new BackendError('not_found', 'no recording is under way');
    this.stopRecordingNow();
  }

  async createWorkflow(name: string): Promise<WorkflowEntry> {
    return this.create(slug(name), {
      version: 1,
      name: name.trim(),
      states: [
        { name: 'Start', checks: [{ type: 'url', value: 'about:blank' }], actions: [{ type: 'navigate_to', url: 'https://example.com/' }], next: ['Done'] },
        { name: 'Done', checks: [{ type: 'url', match: 'prefix', value: 'https://example.com' }], terminal: { outcome: 'success' } },
      ],
    } as Workflow);
  }

  async duplicateWorkflow(id: string, name: string): Promise<WorkflowEntry> {
    const wf = JSON.parse(this.read(id)) as Workflow;
    return this.create(sibling(id, name), { ...wf, name: name.trim() });
  }

  async renameWorkflow(id: string, name: string): Promise<WorkflowEntry> {
    const wf = { ...(JSON.parse(this.read(id)) as Workflow), name: name.trim() };
    const newId = sibling(id, name);
    if (newId !== id && this.files.has(newId)) throw new BackendError('exists', `a workflow file \`${newId}\` already exists`);
    this.files.delete(id);
    this.files.set(newId, text(wf));
    return entry(newId, wf, Date.now());
  }

  trash = new FakeTrash();

  /** As the Rust library: the file moves to the trash, and the folder's watcher hears it go. */
  async deleteWorkflow(id: string): Promise<TrashEntry> {
    const entry = this.trash.put(id, this.read(id), Date.now());
    this.files.delete(id);
    this.workflowWatchers.forEach((w) => w({ id, removed: true }));
    return entry;
  }

  async listTrash(): Promise<TrashEntry[]> {
    return this.trash.list();
  }

  async restoreWorkflow(trashId: string, name: string | null): Promise<WorkflowEntry> {
    const { entry, text: before } = this.trash.get(trashId);
    const id = name == null ? entry.original : sibling(entry.original, name);
    if (this.files.has(id)) throw new BackendError('exists', `a workflow file \`${id}\` already exists`);
    const wf = JSON.parse(before) as Workflow;
    this.files.set(id, name == null ? before : text({ ...wf, name: name.trim() }));
    this.trash.remove(trashId);
    this.workflowWatchers.forEach((w) => w({ id, removed: false }));
    return entryOf(id, this.read(id));
  }

  async saveWorkflow(id: string, workflow: Workflow, expectedHash: string | null): Promise<SaveResult> {
    const current = this.files.get(id);
    if (expectedHash && current != null && (await hash(current)) !== expectedHash)
      throw new BackendError('conflict', `\`${id}\` changed on disk since it was opened`);
    const t = text(workflow);
    this.files.set(id, t);
    // As the Rust library: a save reports every problem of the file, use_skill ones included.
    return { hash: await hash(t), diagnostics: fakeValidate(workflow, this.skills()) };
  }

  async validateWorkflow(workflow: Workflow): Promise<Diagnostic[]> {
    return fakeValidate(workflow, this.skills());
  }

  async watchWorkflows(onChange: (c: WorkflowChange) => void): Promise<Unsubscribe> {
    this.workflowWatchers.add(onChange);
    return () => this.workflowWatchers.delete(onChange);
  }

  /** Test hook: another program writes a workflow file. */
  writeFromOutside(id: string, workflow: Workflow) {
    this.files.set(id, text(workflow));
    for (const w of this.workflowWatchers) w({ id, removed: false });
  }

  /** Test hook: what the next runs replay, and how fast. */
  replayWith(recording: Recording, timeScale = 1) {
    this.options = { ...this.options, recording, timeScale };
  }

  /** Test hook: the events the next run replays (to add heals, reviews… to). */
  replayEvents(): RunEvent[] {
    const r = this.options.recording;
    return r ? (r.events ?? eventsFromDetail(r.detail)) : [];
  }

  private runsOf(workflow: Workflow): RunDetail[] {
    return [...this.runs.values()].filter((d) => d.run.workflow === workflow.name);
  }

  async analyzeWorkflow(workflow: Workflow): Promise<GraphReport> {
    return fakeReport(workflow, this.runsOf(workflow));
  }

  async planRoute(workflow: Workflow, to: string): Promise<Route> {
    const route = fakeRoute(workflow, this.runsOf(workflow), to);
    if (!route) throw new BackendError('no_route', `no known way from the start to \`${to}\``);
    return route;
  }

  async startRun(request: RunRequest, onEvent: (e: RunEvent) => void): Promise<string> {
    this.requests.push(request);
    const recording = this.options.recording;
    if (!recording) throw new BackendError('no_recording', 'the fake backend has no recorded run to replay');
    const runId = `fake-${++this.runCount}-${recording.detail.run.id}`;
    const timeScale = this.options.timeScale ?? 1;
    const timers: number[] = [];
    const events = recording.events ?? eventsFromDetail(recording.detail);
    let at = 0;
    events.forEach((e, i) => {
      const ms = (e as { elapsed_ms?: number }).elapsed_ms;
      if (typeof ms === 'number') at = ms * timeScale;
      const last = i === events.length - 1;
      timers.push(
        window.setTimeout(() => {
          onEvent(e);
          if (last) this.finish(runId, request, recording.detail, events);
        }, at + i),
      );
    });
    this.timers.set(runId, timers);
    return runId;
  }

  /** The goals asked for, as the shell would receive them. */
  agentRequests: AgentRunRequest[] = [];

  /** A stand-in for the model driving: it opens the page, looks once, and says it is done. */
  async startAgentRun(request: AgentRunRequest, onEvent: (e: RunEvent) => void): Promise<string> {
    if (!this.model.url) throw new BackendError('invalid_settings', 'a run with a goal needs a model: set one under Model…');
    if (!request.goal.trim()) throw new BackendError('invalid_run', 'say what the goal is');
    this.agentRequests.push(request);
    const runId = `fake-agent-${++this.runCount}`;
    const url = request.url.replace('{{site}}', 'http://127.0.0.1:8931');
    const step = (n: number) => ({ step: n, state: `agent step ${n}`, state_index: 0, visit: 1, url, checks: [] });
    const events: RunEvent[] = [
      { event: 'run_started', workflow: `agent: ${request.goal}`, states: 2 },
      { event: 'state_entered', ...step(1), url: 'about:blank', elapsed_ms: 0 },
      { event: 'action_finished', step: 1, state: 'agent step 1', index: 0, action: { type: 'navigate_to', url: request.url }, elapsed_ms: 40, duration_ms: 40, attempts: 1, detail: url },
      { event: 'state_entered', ...step(2), elapsed_ms: 60 },
      { event: 'observed', step: 2, url, title: 'Northwind Supply', text: 'Welcome', elements: [] },
      { event: 'model_called', step: 2, model: this.model.model ?? 'model', prompt_chars: 1800, prompt_tokens: 600, completion_tokens: 30, latency_ms: 700, cost: 0, answer: '{"kind": "finish"}', accepted: true },
      { event: 'run_finished', status: 'succeeded', end_state: 'Goal reached', outcome: 'success', message: 'the shop is open', duration_ms: 800, steps: 2, actions: 1 },
    ] as RunEvent[];
    const timers = events.map((e, i) => window.setTimeout(() => onEvent(e), 20 * (i + 1)));
    this.timers.set(runId, timers);
    return runId;
  }

  private finish(runId: string, request: RunRequest, detail: RunDetail, events: RunEvent[]) {
    this.timers.delete(runId);
    this.runEvents.set(runId, events);
    // What it healed and retried is kept with the run, as the store keeps it.
    // A heal recorded before drags healed their drop zone names no field: it was the target.
    const heals = <T extends Healed | HealedCheck>(kind: string) =>
      events.filter((e) => e.event === kind).map((e) => {
        const { step, state, index, from, to, field } = e as unknown as Healed;
        return (kind === 'healed' ? { step, state, index, field: field ?? 'target', from, to } : { step, state, index, from, to }) as T;
      });
    const [healed, healed_checks] = [heals<Healed>('healed'), heals<HealedCheck>('check_healed')];
    const retries = events.filter((e) => e.event === 'retrying').map((e) => {
      const { step, state, attempt, max, reason } = e as unknown as RetryRecord;
      return { step, state, attempt, max, reason };
    });
    const run = { ...detail.run, id: runId, workflow: request.workflow.replace(/\.json$/, ''), heals: healed.length + healed_checks.length, retries: retries.length };
    this.runs.set(runId, { ...detail, run, healed, healed_checks, retries });
  }

  async cancelRun(runId: string): Promise<void> {
    for (const t of this.timers.get(runId) ?? []) window.clearTimeout(t);
    this.timers.delete(runId);
  }

  /** Every batch asked for, in order, for tests to inspect. */
  batchRequests: BatchRequest[] = [];
  /** How long each row's run takes: long enough for a test to see rows waiting. */
  batchRowMs = 400;
  private batches = new Map<string, FakeBatch>();
  /** Each data file's results table, as the runner reads it back on the next go. */
  private batchResults = new Map<string, RowResult[]>();

  async startBatch(request: BatchRequest, onMessage: (m: BatchMessage) => void): Promise<string> {
    this.batchRequests.push(request);
    if (request.each.kind === 'goals' && !this.model.url) throw new BackendError('invalid_settings', 'a task file’s goals need a model: set one under Model…');
    const pool = checkBatch(request);
    const batchId = `fake-batch-${++this.runCount}`;
    const batch = runFakeBatch(
      request,
      pool,
      this.batchRowMs,
      this.batchResults.get(request.data) ?? [],
      () => `fake-${++this.runCount}-row`,
      (r) => this.storeRowRun(request, r),
      (m) => {
        if (m.kind === 'done') {
          this.batches.delete(batchId);
          this.batchResults.set(request.data, m.report.rows);
        }
        onMessage(m);
      },
    );
    this.batches.set(batchId, batch);
    return batchId;
  }

  async cancelBatch(batchId: string): Promise<void> {
    this.batches.get(batchId)?.cancel();
  }

  /** Every judge asked for, in order, for tests to inspect. */
  judgeRequests: JudgeAnswers[] = [];
  /** Whether the judge's model answers; when not, every task asked about gets no verdict. */
  judgeReachable = true;

  async judgeAnswers(request: JudgeAnswers, onMessage: (m: JudgeMessage) => void): Promise<string> {
    this.judgeRequests.push(request);
    if (!this.model.url) throw new BackendError('invalid_settings', 'judging answers needs a model: set one under Model…');
    const data = [...this.batchResults.keys()].find((d) => d.replace(/\.(csv|jsonl|json)$/, '.results.json') === request.results);
    if (data == null) throw new BackendError('invalid_run', `${request.results}: no results table here (a task file's batch writes one)`);
    const judgeId = `fake-judge-${++this.runCount}`;
    const rows = this.batchResults.get(data)!.map((r) => ({ ...r }));
    const judge = runFakeJudge(rows, request.results, this.model.model ?? 'model', request.again ?? false, this.batchRowMs / 2, this.judgeReachable, (m) => {
      if (m.kind === 'done') {
        this.batches.delete(judgeId);
        this.batchResults.set(data, m.report.rows);
      }
      onMessage(m);
    });
    this.batches.set(judgeId, judge);
    return judgeId;
  }

  /** A row's run joins the stored runs (the recorded one, with the row's outcome and values). */
  private storeRowRun(request: BatchRequest, r: RowResult) {
    const detail = this.options.recording?.detail;
    if (!detail || !r.run_id) return;
    const run = { ...detail.run, id: r.run_id, workflow: request.each.kind === 'workflow' ? request.each.workflow.replace(/\.json$/, '') : `agent: ${r.values.goal ?? ''}`, status: r.status, end_state: r.end_state, message: r.message, parameters: { ...(detail.run.parameters as object), ...request.params, ...r.values }, started_ms: Date.now() };
    this.runs.set(r.run_id, { ...detail, run });
  }

  /** A run's reviews, as the store keeps them with the run. */
  private reviewsOf(runId: string): ReviewSummary[] {
    return this.reviews.filter((r) => r.run_id === runId).sort((a, b) => a.id - b.id).map(reviewSummary);
  }

  async listRuns(filter: RunFilter): Promise<RunSummary[]> {
    return [...this.runs.values()]
      .map((d) => ({ ...d.run, reviews: this.reviewsOf(d.run.id).length }))
      .filter((r) => (!filter.workflow || r.workflow === filter.workflow) && (!filter.status || r.status === filter.status))
      .sort((a, b) => b.started_ms - a.started_ms)
      .slice(0, filter.limit ?? 100);
  }

  private storedRun(runId: string): RunDetail {
    const d = this.runs.get(runId);
    if (!d) throw new BackendError('not_found', `no run ${runId}`);
    return d;
  }

  /** As the app's store answers: the steps without their pages. */
  async openRun(runId: string): Promise<RunDetail> {
    const d = this.storedRun(runId);
    return { ...d, steps: d.steps.map(({ page: _page, ...step }) => step), reviews: this.reviewsOf(runId) };
  }

  async openStepPage(runId: string, step: number): Promise<PageRecord | null> {
    return this.storedRun(runId).steps.find((s) => s.step === step)?.page ?? null;
  }

  screenshotUrl(path: string): string {
    return `${this.options.screenshotBase ?? 'fixtures/demo-run/'}${path}`;
  }

  async listReviews(closedLimit: number | null): Promise<ReviewList> {
    return reviewList(this.reviews, closedLimit);
  }

  async showReview(id: number): Promise<ReviewView> {
    const r = this.reviews.find((x) => x.id === id);
    if (!r) throw new BackendError('not_found', `no review #${id}`);
    return r;
  }

  private workflowOf(review: ReviewView): [string, Workflow] {
    const id = `${review.workflow}.json`;
    return [id, JSON.parse(this.read(id)) as Workflow];
  }

  async previewResolution(id: number, resolution: Resolution): Promise<{ diff: string }> {
    const review = await this.showReview(id);
    const [file, wf] = this.workflowOf(review);
    return { diff: unifiedDiff(text(wf), text(applyResolution(wf, review, resolution)), file) };
  }

  async resolveReview(id: number, resolution: Resolution, save: boolean): Promise<void> {
    const review = await this.showReview(id);
    if (review.status !== 'open') throw new BackendError('already_resolved', `review #${id} is already resolved`);
    if (save) {
      const [file, wf] = this.workflowOf(review);
      this.writeFromOutside(file, applyResolution(wf, review, resolution));
    }
    this.reviews = this.reviews.map((r) => (r.id === id ? { ...r, status: 'resolved', resolution, resolved_ms: Date.now() } : r));
    for (const w of this.reviewWatchers) w();
  }

  /** The model settings file, as the fake keeps it (the key included, as the file would). */
  model: ModelSettingsChange = {};

  async modelSettings(): Promise<ModelSettings> {
    const { api_key, ...rest } = this.model;
    return { path: '~/.config/statewright/llm.json', ...rest, has_api_key: !!api_key, overridden_by_env: [] };
  }

  async saveModelSettings(change: ModelSettingsChange): Promise<ModelSettings> {
    if (change.url && !/^https?:\/\/[^/@]+/.test(change.url)) throw new BackendError('invalid_settings', `the LLM endpoint ${change.url} is not usable`);
    if (change.url && !change.model) throw new BackendError('invalid_settings', 'a model name is needed with a URL');
    const api_key = change.api_key == null ? this.model.api_key : change.api_key || null;
    this.model = { ...change, api_key };
    return this.modelSettings();
  }

  /** A stand-in for the model: recognise the step's page by its address. */
  /** The fake model writes the page's address and its main heading; a stored step keeps only
   * interactive elements, so the heading is left undecided, as the real backend says. */
  async synthesizeState(workflow: Workflow, state: string, runId: string, step: number): Promise<SynthesizedState> {
    if (!this.model.url) throw new BackendError('invalid_settings', 'no model is configured (Model… in the top bar)');
    const s = (await this.openRun(runId)).steps.find((x) => x.step === step);
    if (!s) throw new BackendError('not_found', `run ${runId} has no step ${step}`);
    if (!workflow.states.some((x) => x.name === state && x.prompt)) throw new BackendError('not_found', `state \`${state}\` has no prompt`);
    const heading = { type: 'element', selector: 'main h1' } as const;
    const resolution: Resolution = { kind: 'synthesized', state, checks: [{ type: 'url', match: 'prefix', value: s.url.split('?')[0] }, heading], actions: [] };
    const undecided = ['element "main h1": the step\'s snapshot keeps only the page\'s interactive elements, and none by this selector'];
    return { resolution, undecided };
  }

  async decideProposal(id: number, approve: boolean): Promise<void> {
    const review = await this.showReview(id);
    if (review.status !== 'open' || !review.proposed_by || !review.resolution) throw new BackendError('not_open', `review #${id} is not an open proposal`);
    if (approve) {
      const [file, wf] = this.workflowOf(review);
      this.writeFromOutside(file, applyResolution(wf, review, review.resolution));
    }
    this.reviews = this.reviews.map((r) => (r.id === id ? { ...r, status: approve ? 'approved' : 'rejected', resolved_ms: Date.now() } : r));
    for (const w of this.reviewWatchers) w();
  }

  /** As `statewright review save-healed`: each action the run healed gets the locator that
   * found its element, where the file still has the one that failed (the last heal wins). */
  async saveHealedLocators(runId: string, write: boolean): Promise<HealedSaved> {
    const { run, healed } = await this.openRun(runId);
    const heals = new Map((healed ?? []).map((h) => [`${h.index}.${h.field}@${h.state}`, h]));
    if (!heals.size) throw new BackendError('invalid_workflow', `run ${runId} healed no locator; nothing to save`);
    const path = `${run.workflow}.json`;
    const before = this.read(path);
    const wf = JSON.parse(before) as Workflow;
    const changes: string[] = [];
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    for (const h of heals.values()) {
      const action = wf.states.find((s) => s.name === h.state)?.actions?.[h.index] as Record<string, Target | undefined> | undefined;
      const was = action?.[h.field];
      if (!action || !was || !same(was, h.from) || same(was, h.to)) continue;
      action[h.field] = h.to;
      changes.push(`\`${h.state}\` action ${h.index + 1}: ${h.field === 'to' ? 'drop target\'s locator' : 'locator'} healed`);
    }
    if (!changes.length) throw new BackendError('invalid_workflow', 'the workflow already has these locators');
    const errors = (w: Workflow) => fakeValidate(w, this.skills()).filter((d) => d.severity === 'error');
    const already = new Set(errors(JSON.parse(before) as Workflow).map((d) => d.message));
    const problems = errors(wf).filter((d) => !already.has(d.message));
    if (problems.length) throw new BackendError('invalid_workflow', `the fix would make ${path} invalid, so nothing was written:\n${problems.map((d) => d.message).join('\n')}`);
    const diff = unifiedDiff(before, text(wf), path);
    if (!write) return { path, diff, changes, version: null };
    this.versions.push({ path, text: before, reason: `before saving the locators run ${runId} healed: ${changes.join('; ')}` });
    this.writeFromOutside(path, wf);
    return { path, diff, changes, version: this.versions.length };
  }

  async watchReviews(onChange: () => void): Promise<Unsubscribe> {
    this.reviewWatchers.add(onChange);
    return () => this.reviewWatchers.delete(onChange);
  }

  /** In a browser the page can only ask the browser to ask (`beforeunload`). */
  async guardClose(mustAsk: () => boolean): Promise<Unsubscribe> {
    const guard = (e: BeforeUnloadEvent) => {
      if (mustAsk()) e.preventDefault();
    };
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }

  /** Test hook: a run started from a terminal lands in the store, unannounced (with its
   * event stream when it matters: heals are only in the events). */
  addRunFromOutside(detail: RunDetail, events?: RunEvent[]) {
    this.runs.set(detail.run.id, detail);
    if (events) this.runEvents.set(detail.run.id, events);
  }

  /** Test hook: a run asks for a person. */
  addReview(review: ReviewView) {
    this.reviews = [...this.reviews, review];
    for (const w of this.reviewWatchers) w();
  }
}
