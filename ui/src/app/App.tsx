//! The workbench: workflows on the left; the editor, the run viewer or the review queue.

import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Backend } from '../backend/types';
import type { AgentRunRequest, RunRequest, WorkflowEntry } from '../bindings';
import type { BatchRequest } from '../bindings';
import { useBatch } from '../batch/useBatch';
import { EditorView } from '../editor/EditorView';
import { isDirty } from '../editor/history';
import { SkillLibraryContext, useSkillLibrary } from '../editor/SkillLibrary';
import { useWorkflowEditor } from '../editor/useWorkflowEditor';
import type { ReviewList } from '../bindings';
import { eventsFromDetail, type RunEvent } from '../run/events';
import { PastRuns } from '../run/PastRuns';
import { StepPagesContext, stepElementsOf } from '../run/stepPages';
import { useRunStream } from '../run/useRunStream';
import { Modal, type Choice } from './Modal';
import { BatchDialog, BatchView, GoalRunDialog, ModelSettingsDialog, RecordDialog, ReviewPanel, RunViewer, SaveHealedDialog, StartRunDialog, TrashDialog } from './lazyViews';
import { PANELS } from './panelWidth';
import { Splitter, usePanelWidth } from './Splitter';
import { useGraphReport } from './useGraphReport';
import { WorkflowList } from './WorkflowList';

type View = 'editor' | 'run' | 'batch' | 'review';
/** Closed reviews listed at first, and added by each *Show more*. */
const CLOSED_REVIEWS_PAGE = 50;
const TAB_NAMES: Record<View, string> = { editor: 'Editor', run: 'Runs', batch: 'Batch', review: 'Review' };
interface Toast {
  id: number;
  text: string;
  level: 'info' | 'error';
}

export function App({ backend }: { backend: Backend }) {
  const [view, setView] = useState<View>('editor');
  const [entries, setEntries] = useState<WorkflowEntry[]>([]);
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [question, setQuestion] = useState<{ title: string; body: string; choices: Choice[] } | null>(null);
  // The queue polled: every open review and the latest closed ones, without their pages.
  const [queue, setQueue] = useState<ReviewList>({ reviews: [], closed: 0 });
  const closedListed = useRef(CLOSED_REVIEWS_PAGE);
  /** The start dialog, open; with a goal for *Go here*. */
  const [starting, setStarting] = useState<{ goal: string | null } | null>(null);
  const [run, setRun] = useState<{ id: string | null; live: boolean }>({ id: null, live: false });
  // A stored run's pages come a step at a time; a live run's events carry them.
  const stepPages = useMemo(() => {
    const id = run.id;
    return id && !run.live ? stepElementsOf((step) => backend.openStepPage(id, step)) : null;
  }, [backend, run.id, run.live]);
  const [runsChanged, setRunsChanged] = useState(0);
  const [modelOpen, setModelOpen] = useState(false);
  const [recordOpen, setRecordOpen] = useState(false);
  const [goalOpen, setGoalOpen] = useState(false);
  // What the batch dialog runs once per row, while it is open.
  const [batchOf, setBatchOf] = useState<'workflow' | 'goals' | null>(null);
  const [trashOpen, setTrashOpen] = useState(false);
  /** The run whose healed locators are being previewed and saved. */
  const [savingHealed, setSavingHealed] = useState<string | null>(null);
  const stream = useRunStream();
  const workflowsPanel = usePanelWidth(PANELS.workflows);
  const toastId = useRef(0);

  const notify = useCallback((text: string, level: 'info' | 'error' = 'info', ms?: number) => {
    const id = ++toastId.current;
    setToasts((t) => [...t.slice(-3), { id, text, level }]);
    window.setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), ms ?? (level === 'error' ? 8000 : 4000));
  }, []);
  const fail = useCallback((e: unknown) => notify((e as Error).message ?? String(e), 'error'), [notify]);

  const editor = useWorkflowEditor(backend, notify);
  const wf = editor.doc?.history.present ?? null;
  const dirty = editor.doc ? isDirty(editor.doc.history) : false;
  const report = useGraphReport(backend, wf, runsChanged);
  const skills = useSkillLibrary(backend, entries);
  // Each row's run joins the past runs as it ends.
  const batches = useBatch(backend, useCallback(() => setRunsChanged((n) => n + 1), []));

  const refreshList = useCallback(() => backend.listWorkflows().then(setEntries).catch(fail), [backend, fail]);
  const refreshReviews = useCallback(() => backend.listReviews(closedListed.current).then(setQueue).catch(fail), [backend, fail]);
  const showMoreReviews = () => {
    closedListed.current += CLOSED_REVIEWS_PAGE;
    void refreshReviews();
  };

  useEffect(() => {
    void refreshList();
    void refreshReviews();
    const subs = [
      backend.watchWorkflows((change) => {
        void refreshList();
        void editor.onDiskChange(change.id);
      }),
      backend.watchReviews(() => void refreshReviews()),
    ];
    return () => void subs.forEach((s) => s.then((off) => off()));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [backend]);

  // Unsaved changes are never lost silently, not even by closing the window.
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useEffect(() => {
    const off = backend.guardClose(
      () => dirtyRef.current,
      (close) =>
        setQuestion({
          title: 'Unsaved changes',
          body: 'Close Statewright and lose the unsaved changes?',
          choices: [
            { label: 'Close without saving', kind: 'danger', onChoose: close },
            { label: 'Cancel', onChoose: () => setQuestion(null) },
          ],
        }),
    );
    return () => void off.then((f) => f());
  }, [backend]);

  /** Runs `then` once unsaved changes are saved or knowingly discarded. */
  const guardUnsaved = (then: () => void) => {
    if (!dirty) return then();
    setQuestion({
      title: 'Unsaved changes',
      body: `${editor.doc?.id} has unsaved changes.`,
      choices: [
        { label: 'Save', kind: 'primary', onChoose: () => (setQuestion(null), void editor.save().then((ok) => ok && then())) },
        { label: 'Discard', kind: 'danger', onChoose: () => (setQuestion(null), then()) },
        { label: 'Cancel', onChoose: () => setQuestion(null) },
      ],
    });
  };

  /** Asks, then moves the file to the trash; the editor lets go of it if it had it open. */
  const deleteWorkflow = (entry: WorkflowEntry) => {
    const open = editor.doc?.id === entry.id;
    const unsaved = open && dirty ? ' Its unsaved changes will be lost.' : '';
    setQuestion({
      title: 'Delete workflow',
      body: `Move ${entry.name} (${entry.id}) to the trash? Trash… restores it.${unsaved}`,
      choices: [
        {
          label: 'Move to trash',
          kind: 'danger',
          onChoose: () => {
            setQuestion(null);
            backend
              .deleteWorkflow(entry.id)
              .then(() => {
                if (editor.doc?.id === entry.id) editor.close();
                notify(`${entry.id} moved to the trash`);
                return refreshList();
              })
              .catch(fail);
          },
        },
        { label: 'Cancel', onChoose: () => setQuestion(null) },
      ],
    });
  };

  const open = (id: string) =>
    guardUnsaved(() => {
      setView('editor');
      void editor.load(id).catch(fail);
    });

  /** Shows a run live from its first event: a workflow run, or one the model drives. */
  const watch = async (start: (onEvent: (e: RunEvent) => void) => Promise<string>) => {
    stream.reset();
    setView('run');
    try {
      const id = await start((e) => {
        stream.push(e);
        if (e.event === 'run_finished') {
          setRunsChanged((n) => n + 1);
          setRun((r) => ({ ...r, live: false }));
        }
        if (e.event === 'review_requested' || e.event === 'review_resolved') void refreshReviews();
      });
      setRun({ id, live: true });
    } catch (e) {
      fail(e);
    }
  };
  const startRun = (request: RunRequest) => {
    setStarting(null);
    void watch((onEvent) => backend.startRun(request, onEvent));
  };
  const startGoalRun = (request: AgentRunRequest) => {
    setGoalOpen(false);
    void watch((onEvent) => backend.startAgentRun(request, onEvent));
  };

  /** A batch refused (no such file…) leaves the dialog open for the path to be fixed. */
  const startBatch = async (request: BatchRequest) => {
    try {
      await batches.start(request);
      setBatchOf(null);
      setView('batch');
    } catch (e) {
      fail(e);
    }
  };

  const openPastRun = async (id: string) => {
    try {
      const detail = await backend.openRun(id);
      stream.replace(eventsFromDetail(detail));
      setRun({ id, live: false });
      setView('run');
    } catch (e) {
      fail(e);
    }
  };

  /** The model writes a prompt-only state from a past step's page; the editor gets it unsaved. */
  const synthesize = async (state: string, step: number) => {
    if (!wf || !run.id) return;
    try {
      const { resolution: r, undecided } = await backend.synthesizeState(wf, state, run.id, step);
      if (r.kind !== 'synthesized') return;
      editor.edit((w) => ({ ...w, states: w.states.map((s) => (s.name === r.state ? { ...s, checks: r.checks, actions: r.actions ?? [] } : s)) }));
      editor.setSelected(r.state);
      setView('editor');
      // Checks the stored page could not decide are first held to a live page by a run: the
      // person reviewing the state should know which, and has longer to read them.
      const unsure = undecided.length ? ` · not decided from the stored page: ${undecided.join('; ')}` : '';
      notify(`${r.state} synthesised from step ${step}: review it, then save${unsure}`, 'info', unsure ? 12000 : undefined);
    } catch (e) {
      fail(e);
    }
  };

  const openReviews = queue.reviews.filter((r) => r.status === 'open').length;

  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">Statewright</span>
        <nav className="tabs" role="tablist">
          {(['editor', 'run', 'batch', 'review'] as View[]).map((v) => (
            <button key={v} role="tab" aria-selected={view === v} className={view === v ? 'tab active' : 'tab'} onClick={() => setView(v)}>
              {TAB_NAMES[v]}
              {v === 'review' && openReviews > 0 && (
                <span className="badge" data-testid="review-badge" title={`${openReviews} run(s) waiting for a person`}>
                  {openReviews}
                </span>
              )}
            </button>
          ))}
        </nav>
        <span className="hint">{backend.kind === 'fake' ? 'fake backend' : ''}</span>
        <button className="tab" onClick={() => setGoalOpen(true)} title="the model drives a browser towards a goal in words">
          Run with a goal…
        </button>
        <button className="tab" onClick={() => setModelOpen(true)} title="the model asked when a run is stuck">
          Model…
        </button>
      </header>
      <div className="main">
        {/* The review tab has its own list: the page it shows gets the width instead. */}
        <aside className="sidebar" hidden={view === 'review'} ref={workflowsPanel.ref} style={workflowsPanel.style}>
          <WorkflowList
            entries={entries}
            current={editor.doc?.id ?? null}
            onOpen={open}
            onRecord={() => setRecordOpen(true)}
            onCreate={(name) => guardUnsaved(() => backend.createWorkflow(name).then((e) => (refreshList(), editor.load(e.id), setView('editor'))).catch(fail))}
            onDuplicate={(id, name) => guardUnsaved(() => backend.duplicateWorkflow(id, name).then((e) => (refreshList(), editor.load(e.id))).catch(fail))}
            onRename={(id, name) =>
              guardUnsaved(() =>
                backend
                  .renameWorkflow(id, name)
                  .then((e) => (refreshList(), editor.load(e.id)))
                  .catch(fail),
              )
            }
            onDelete={deleteWorkflow}
            onTrash={() => setTrashOpen(true)}
          />
          <h2>Runs</h2>
          <PastRuns backend={backend} workflow={wf?.name ?? null} refreshKey={runsChanged} current={run.id} onOpen={(id) => void openPastRun(id)} />
        </aside>
        {view !== 'review' && <Splitter panel={workflowsPanel} />}
        <main className="content">
          <Suspense fallback={<p className="empty">Loading…</p>}>
            {view === 'editor' && (
              <SkillLibraryContext.Provider value={skills}>
                <EditorView
                  editor={editor}
                  backend={backend}
                  report={report}
                  notify={notify}
                  onRun={() => editor.doc && guardUnsaved(() => setStarting({ goal: null }))}
                  onBatch={() => editor.doc && guardUnsaved(() => setBatchOf('workflow'))}
                  onGoto={(goal) => editor.doc && guardUnsaved(() => setStarting({ goal }))}
                />
              </SkillLibraryContext.Provider>
            )}
            {view === 'run' && (
              <StepPagesContext.Provider value={stepPages}>
                <RunViewer
                  view={stream.view}
                  runId={run.id}
                  live={run.live}
                  workflow={wf && (stream.view.workflow == null || stream.view.workflow === wf.name) ? wf : null}
                  positions={editor.positions}
                  layout={editor.laidOut}
                  shotUrl={(p) => backend.screenshotUrl(p)}
                  onCancel={() => run.id && void backend.cancelRun(run.id).catch(fail)}
                  onSynthesize={(state, step) => void synthesize(state, step)}
                  onSaveHealed={() => run.id && setSavingHealed(run.id)}
                />
              </StepPagesContext.Provider>
            )}
            {view === 'batch' && <BatchView batch={batches.batch} live={batches.live} judging={batches.judging} onCancel={() => void batches.cancel().catch(fail)} onJudge={() => void batches.judge().catch(fail)} onOpenRun={(id) => void openPastRun(id)} />}
            {view === 'review' && <ReviewPanel backend={backend} queue={queue} onShowMore={showMoreReviews} notify={notify} />}
          </Suspense>
        </main>
      </div>
      {/* A dialog shows once its code is in: a moment on first use, at once after. Two
          boundaries keep the stacking order: a question shows over these, under the ones below. */}
      <Suspense fallback={null}>
        {starting && editor.doc && wf && (
          <StartRunDialog id={editor.doc.id} workflow={wf} goal={starting.goal} onStart={startRun} onClose={() => setStarting(null)} />
        )}
        {batchOf === 'workflow' && editor.doc && wf && <BatchDialog of={{ kind: 'workflow', id: editor.doc.id, workflow: wf }} onStart={startBatch} onClose={() => setBatchOf(null)} />}
        {batchOf === 'goals' && <BatchDialog of={{ kind: 'goals' }} onStart={startBatch} onClose={() => setBatchOf(null)} />}
      </Suspense>
      {editor.conflict && (
        <Modal
          title="Changed on disk"
          body={`${editor.conflict.id} was changed by another program while you have unsaved changes.`}
          choices={[
            { label: 'Reload from disk (discard mine)', kind: 'danger', onChoose: () => editor.resolveConflict('reload') },
            { label: 'Keep mine (overwrite on save)', kind: 'primary', onChoose: () => editor.resolveConflict('keep') },
          ]}
        />
      )}
      {question && <Modal {...question} />}
      <Suspense fallback={null}>
        {/* The written file reaches an open editor as any outside change does (the workflows watcher). */}
        {savingHealed && <SaveHealedDialog backend={backend} runId={savingHealed} notify={notify} onClose={() => setSavingHealed(null)} />}
        {trashOpen && <TrashDialog backend={backend} notify={notify} onRestored={() => void refreshList()} onClose={() => setTrashOpen(false)} />}
        {goalOpen && <GoalRunDialog onStart={startGoalRun} onTaskFile={() => (setGoalOpen(false), setBatchOf('goals'))} onClose={() => setGoalOpen(false)} />}
        {modelOpen && <ModelSettingsDialog backend={backend} notify={notify} onClose={() => setModelOpen(false)} />}
        {recordOpen && (
          <RecordDialog
            backend={backend}
            notify={notify}
            onClose={() => setRecordOpen(false)}
            onRecorded={(r) => {
              setRecordOpen(false);
              guardUnsaved(() => (refreshList(), editor.load(r.id), setView('editor')));
            }}
          />
        )}
      </Suspense>
      <div className="toasts" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast ${t.level}`} data-testid="toast">
            {t.text}
          </div>
        ))}
      </div>
    </div>
  );
}
