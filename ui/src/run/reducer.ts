//! Folds a run's event stream into what the run viewer shows: steps with their checks,
//! actions and screenshots, the active state, the edge just taken, notices and status.
//! Pure and immutable: live runs and replays of past runs go through the same function.

import type { Action, Check, CheckResult, Target } from '../bindings';
import type { KnownEvent, RunEvent } from './events';

export type RunPhase =
  | 'idle'
  | 'running'
  | 'retrying'
  | 'escalated'
  | 'needs_human_review'
  | 'succeeded'
  | 'failed'
  | 'cancelled'
  | 'interrupted';

export interface ActionView {
  index: number;
  action: Action | null;
  status: 'running' | 'done' | 'failed' | 'preempted';
  durationMs: number | null;
  attempts: number | null;
  detail: string | null;
  error: string | null;
  /** The locator that found the element after the written one failed (a heal). */
  healedTo: Target | null;
  /** What an `extract` read (a string, a number, a list or a table's rows); undefined
   * for other actions and before it finished. */
  value: unknown;
}

/** What a run (or a step) needed beyond its workflow: a "succeeded" that took two reviews
 * and three heals is not the same as one that went straight through. */
export interface Help {
  reviews: number;
  heals: number;
  retries: number;
  modelCalls: number;
}

export const noHelp: Help = { reviews: 0, heals: 0, retries: 0, modelCalls: 0 };

export interface Notice {
  kind: string;
  level: 'info' | 'warn' | 'error';
  text: string;
  step: number | null;
}

export interface StepView {
  step: number;
  state: string;
  stateIndex: number;
  visit: number;
  elapsedMs: number;
  url: string;
  checks: CheckResult[];
  actions: ActionView[];
  screenshot: string | null;
  title: string | null;
  text: string | null;
  elements: unknown;
  notices: Notice[];
  help: Help;
  /** The addresses of the tabs its actions opened, which the run went on in (masked). */
  tabs: string[];
  /** Until the next step (or the end of the run); null while it is the current step. */
  durationMs: number | null;
}

export interface RunView {
  workflow: string | null;
  phase: RunPhase;
  steps: StepView[];
  activeState: string | null;
  lastEdge: { from: string; to: string } | null;
  /** A run with a goal: the states it plans to pass through from where it is. */
  route: string[] | null;
  /** Reviews, heals, retries and model calls over the whole run. */
  help: Help;
  notices: Notice[];
  openReviews: number[];
  endState: string | null;
  message: string | null;
  failure: unknown;
  durationMs: number | null;
  /** The run's variables as extracted so far (secret ones masked); the final event's own
   * list replaces them when the run ends. Empty when nothing was extracted. */
  outputs: Record<string, unknown>;
  events: number;
}

export const emptyRun: RunView = {
  workflow: null,
  phase: 'idle',
  steps: [],
  activeState: null,
  lastEdge: null,
  route: null,
  help: noHelp,
  notices: [],
  openReviews: [],
  endState: null,
  message: null,
  failure: null,
  durationMs: null,
  outputs: {},
  events: 0,
};

function updateStep(view: RunView, step: number, f: (s: StepView) => StepView): RunView {
  // Events nearly always concern the newest step: search from the end.
  for (let i = view.steps.length - 1; i >= 0; i--) {
    if (view.steps[i].step === step) {
      const steps = view.steps.slice();
      steps[i] = f(steps[i]);
      return { ...view, steps };
    }
  }
  return view;
}

function updateAction(view: RunView, step: number, index: number, f: (a: ActionView | undefined) => ActionView): RunView {
  return updateStep(view, step, (s) => {
    const at = s.actions.findIndex((a) => a.index === index);
    const actions = s.actions.slice();
    if (at < 0) actions.push(f(undefined));
    else actions[at] = f(actions[at]);
    return { ...s, actions };
  });
}

/** Counts one more of `kind` on the run and on the step it happened in. */
/** An element check in a line: `element "#signin"`. */
function checkText(check: Check): string {
  return check.type === 'element' ? `element ${JSON.stringify(check.selector)}` : JSON.stringify(check);
}

function needed(view: RunView, step: number, kind: keyof Help): RunView {
  const bump = (h: Help) => ({ ...h, [kind]: h[kind] + 1 });
  return updateStep({ ...view, help: bump(view.help) }, step, (s) => ({ ...s, help: bump(s.help) }));
}

function notice(view: RunView, n: Notice): RunView {
  const withRunNotice = { ...view, notices: [...view.notices, n] };
  return n.step == null ? withRunNotice : updateStep(withRunNotice, n.step, (s) => ({ ...s, notices: [...s.notices, n] }));
}

const blankAction = (index: number): ActionView => ({
  index,
  action: null,
  status: 'running',
  durationMs: null,
  attempts: null,
  detail: null,
  error: null,
  healedTo: null,
  value: undefined,
});

/** An extract that finished with a value sets its variable among the outputs as it goes,
 * so a live run shows them before it ends (the store keeps them the same way). */
function extracted(view: RunView, action: Action, value: unknown): RunView {
  if (action.type !== 'extract' || value === undefined || !action.into) return view;
  return { ...view, outputs: { ...view.outputs, [action.into]: value } };
}

export function reduce(view: RunView, raw: RunEvent): RunView {
  const v = { ...view, events: view.events + 1 };
  const e = raw as KnownEvent;
  switch (e.event) {
    case 'run_started':
      return { ...emptyRun, workflow: e.workflow, phase: 'running', events: 1 };
    case 'state_entered': {
      const prev = v.steps[v.steps.length - 1];
      const steps = prev ? [...v.steps.slice(0, -1), { ...prev, durationMs: e.elapsed_ms - prev.elapsedMs }] : [...v.steps];
      steps.push({
        step: e.step,
        state: e.state,
        stateIndex: e.state_index,
        visit: e.visit,
        elapsedMs: e.elapsed_ms,
        url: e.url,
        checks: e.checks,
        actions: [],
        screenshot: null,
        title: null,
        text: null,
        elements: null,
        notices: [],
        help: noHelp,
        tabs: [],
        durationMs: null,
      });
      const phase = v.phase === 'idle' || v.phase === 'retrying' || v.phase === 'escalated' ? 'running' : v.phase;
      return { ...v, steps, phase, activeState: e.state, lastEdge: prev ? { from: prev.state, to: e.state } : null };
    }
    case 'observed':
      return updateStep(v, e.step, (s) => ({
        ...s,
        title: e.title,
        text: e.text,
        elements: e.elements,
        screenshot: e.screenshot ?? s.screenshot,
      }));
    case 'action_started':
      return updateAction(v, e.step, e.index, (a) => ({ ...(a ?? blankAction(e.index)), action: e.action, status: 'running' }));
    case 'action_finished':
      return updateAction(extracted(v, e.action, e.value), e.step, e.index, (a) => ({
        ...(a ?? blankAction(e.index)),
        action: e.action,
        status: e.error ? 'failed' : 'done',
        durationMs: e.duration_ms,
        attempts: e.attempts,
        detail: e.detail ?? null,
        error: e.error ?? null,
        value: e.value,
      }));
    case 'tab_opened':
      // The action's detail says it too; the step's badge shows it at a glance.
      return updateStep(v, e.step, (s) => ({ ...s, tabs: [...s.tabs, e.url] }));
    case 'action_preempted': {
      const next = updateAction(v, e.step, e.index, (a) => ({ ...(a ?? blankAction(e.index)), status: 'preempted', error: e.reason }));
      return notice(next, { kind: 'preempted', level: 'warn', step: e.step, text: `${e.state}: action ${e.index + 1} preempted by ${e.by_state}` });
    }
    case 'run_finished': {
      const last = v.steps[v.steps.length - 1];
      const steps = last && last.durationMs == null ? [...v.steps.slice(0, -1), { ...last, durationMs: Math.max(0, e.duration_ms - last.elapsedMs) }] : v.steps;
      return {
        ...v,
        steps,
        phase: e.status as RunPhase,
        endState: e.end_state ?? null,
        message: e.message,
        failure: e.failure,
        durationMs: e.duration_ms,
        // The engine's list is the word on it: masked as the store keeps it.
        outputs: e.outputs ?? v.outputs,
        openReviews: [],
      };
    }
    case 'verified':
      return notice(v, { kind: e.event, level: 'info', step: e.step, text: `${e.state} verified via ${e.via}${e.next_state ? ` → ${e.next_state}` : ''}` });
    case 'retrying':
      return notice(needed({ ...v, phase: 'retrying' }, e.step, 'retries'), { kind: e.event, level: 'warn', step: e.step, text: `${e.state}: retry ${e.attempt}/${e.max} — ${e.reason}` });
    case 'model_called': {
      const tokens = e.prompt_tokens + e.completion_tokens;
      const what = e.error ? `failed: ${e.error}` : e.accepted ? `answered ${e.answer}` : 'answered unusably';
      const text = `model ${e.model} ${what} (${e.latency_ms} ms, ${tokens} tokens)`;
      return notice(needed(v, e.step, 'modelCalls'), { kind: e.event, level: e.error ? 'warn' : 'info', step: e.step, text });
    }
    case 'advice_worked':
      return notice(v, { kind: e.event, level: 'info', step: e.step, text: `the model's ${e.resolution.kind} got the run going: proposed as a fix for review` });
    case 'route_planned':
      return notice({ ...v, route: e.route }, { kind: e.event, level: e.replanned ? 'warn' : 'info', step: null, text: `${e.replanned ? 'replanned' : 'route'}: ${e.route.join(' → ')}` });
    case 'interrupt_entered':
      return notice(v, { kind: e.event, level: 'info', step: e.step, text: `interrupt ${e.state}${e.interrupted ? ` while in ${e.interrupted}` : ''}` });
    case 'healed': {
      // A drag's healed drop target is not the element it acted on (boxed on the screenshot).
      const dropTarget = e.field === 'to';
      const healed = dropTarget
        ? needed(v, e.step, 'heals')
        : updateAction(needed(v, e.step, 'heals'), e.step, e.index, (a) => ({ ...(a ?? blankAction(e.index)), healedTo: e.to }));
      const what = `action ${e.index + 1}${dropTarget ? ' drop target' : ''}`;
      return notice(healed, { kind: e.event, level: 'warn', step: e.step, text: `${e.state}: ${what} healed ${JSON.stringify(e.from)} → ${JSON.stringify(e.to)}` });
    }
    case 'check_healed':
      return notice(needed(v, e.step, 'heals'), { kind: e.event, level: 'warn', step: e.step, text: `${e.state}: check ${e.index + 1} healed ${checkText(e.from)} → ${checkText(e.to)}` });
    case 'checks_located':
      // Bookkeeping for later heals: nothing a person needs to see.
      return v;
    case 'breaker_tripped':
      return notice(v, { kind: e.event, level: 'error', step: null, text: `breaker ${e.breaker} tripped (${e.count}/${e.limit})${e.state ? ` in ${e.state}` : ''}` });
    case 'escalated':
      return notice({ ...v, phase: 'escalated' }, { kind: e.event, level: 'warn', step: e.step, text: `${e.state ?? 'no state'}: escalated to ${e.stage} — ${e.reason} (${e.outcome})` });
    case 'review_requested':
      return notice(
        needed({ ...v, phase: 'needs_human_review', openReviews: [...v.openReviews, e.review_id] }, e.step, 'reviews'),
        { kind: e.event, level: 'error', step: e.step, text: `${e.state ?? 'no state'}: waiting for a person (review #${e.review_id}) — ${e.reason}` },
      );
    case 'review_resolved': {
      const openReviews = v.openReviews.filter((id) => id !== e.review_id);
      const kind = (e.resolution as { kind?: string } | null)?.kind ?? 'resolved';
      return notice({ ...v, phase: openReviews.length ? v.phase : 'running', openReviews }, { kind: e.event, level: 'info', step: null, text: `review #${e.review_id} resolved: ${kind}` });
    }
    default:
      return notice(v, { kind: 'unknown', level: 'info', step: null, text: `event “${String((raw as { event: unknown }).event)}”` });
  }
}

export function reduceAll(view: RunView, events: RunEvent[]): RunView {
  return events.reduce(reduce, view);
}

/** The view after the first `n` steps of a finished run: what scrubbing shows. */
export function upToStep(view: RunView, n: number): { activeState: string | null; lastEdge: RunView['lastEdge'] } {
  const steps = view.steps.slice(0, Math.max(0, n));
  const cur = steps[steps.length - 1];
  const prev = steps[steps.length - 2];
  return { activeState: cur?.state ?? null, lastEdge: cur && prev ? { from: prev.state, to: cur.state } : null };
}
