//! The events of a run as the UI receives them: the engine's own (generated from Rust),
//! the verify/escalate events, and anything newer, which the viewer shows as a notice
//! rather than failing on.

import type { Event, RunDetail } from '../bindings';

/** An engine event; `observed` carries the stored screenshot's path once it is saved. */
export type EngineEvent = Event & { screenshot?: string | null };

export type VerifyEvent =
  | { event: 'verified'; step: number; state: string; via: string; next_state: string | null }
  | { event: 'retrying'; step: number; state: string; attempt: number; max: number; reason: string }
  | { event: 'interrupt_entered'; step: number; state: string; interrupted: string }
  | { event: 'healed'; step: number; state: string; index: number; from: unknown; to: unknown }
  | { event: 'breaker_tripped'; breaker: string; count: number; limit: number; state: string | null }
  | { event: 'escalated'; step: number; state: string; stage: string; reason: string; outcome: string }
  | { event: 'review_requested'; review_id: number; step: number; state: string; reason: string }
  | { event: 'review_resolved'; review_id: number; resolution: unknown };

export type KnownEvent = EngineEvent | VerifyEvent;

/** Whatever arrives on the wire; unknown kinds are kept and shown, never fatal. */
export type RunEvent = KnownEvent | { event: string; [field: string]: unknown };

/** The event stream of a recorded run, rebuilt from the store so that past runs are
 * scrubbed by the same reducer as live ones. */
export function eventsFromDetail(detail: RunDetail): RunEvent[] {
  const { run } = detail;
  const events: RunEvent[] = [{ event: 'run_started', workflow: run.workflow, states: 0 }];
  const actionsByStep = new Map<number, RunDetail['actions']>();
  for (const a of detail.actions) {
    const list = actionsByStep.get(a.step) ?? [];
    list.push(a);
    actionsByStep.set(a.step, list);
  }
  for (const s of detail.steps) {
    events.push({
      event: 'state_entered',
      step: s.step,
      state: s.state,
      state_index: s.state_index,
      visit: s.visit,
      elapsed_ms: s.elapsed_ms,
      url: s.url,
      checks: (s.checks as { check: string; passed: boolean }[]) ?? [],
    });
    events.push({
      event: 'observed',
      step: s.step,
      url: s.page?.url ?? s.url,
      title: s.page?.title ?? s.page_title ?? '',
      text: s.page?.text ?? '',
      elements: s.page?.elements ?? [],
      screenshot: s.screenshot,
    });
    for (const a of actionsByStep.get(s.step) ?? []) {
      if (a.kind === 'preempted') {
        events.push({ event: 'action_preempted', step: a.step, state: a.state, index: a.index, by_state: a.by_state ?? '', reason: a.error ?? '' });
        continue;
      }
      events.push({
        event: 'action_finished',
        step: a.step,
        state: a.state,
        index: a.index,
        action: { type: a.kind, ...((a.args as object) ?? {}) },
        elapsed_ms: a.elapsed_ms ?? 0,
        duration_ms: a.duration_ms ?? 0,
        attempts: a.attempts ?? 1,
        detail: a.detail,
        error: a.error,
      });
    }
  }
  if (run.finished_ms != null) {
    events.push({
      event: 'run_finished',
      status: run.status,
      end_state: run.end_state,
      outcome: run.outcome,
      message: run.message ?? '',
      failure: run.failure ?? null,
      duration_ms: run.duration_ms ?? 0,
      steps: run.steps,
      actions: run.actions,
    });
  }
  return events;
}
