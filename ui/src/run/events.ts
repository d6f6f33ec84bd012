//! The events of a run as the UI receives them: the engine's own (generated from Rust), and
//! anything newer than this build, which the viewer shows as a notice rather than failing on.

import type { Event, RunDetail } from '../bindings';

/** An engine event; `observed` carries the stored screenshot's path once it is saved. */
export type EngineEvent = Event & { screenshot?: string | null };

/** Every event this build knows, verify/retry/escalate/review included (all from Rust). */
export type KnownEvent = EngineEvent;

/** Whatever arrives on the wire; unknown kinds are kept and shown, never fatal. */
export type RunEvent = KnownEvent | { event: string; [field: string]: unknown };

/** The store's outputs are a JSON object (`{}` when none); older records have none. */
function isOutputs(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** A past run's heals as the events that told of them live, by step. A heal recorded before
 * steps were kept goes to the last step of its state. Older records have none. */
function healsByStep(detail: RunDetail): Map<number, RunEvent[]> {
  const lastStep = new Map(detail.steps.map((s) => [s.state, s.step]));
  const byStep = new Map<number, RunEvent[]>();
  const add = (heal: { step?: number | null; state: string }, event: 'healed' | 'check_healed') => {
    const step = heal.step ?? lastStep.get(heal.state);
    if (step == null) return;
    byStep.set(step, [...(byStep.get(step) ?? []), { ...heal, event, step } as RunEvent]);
  };
  for (const h of detail.healed ?? []) add(h, 'healed');
  for (const h of detail.healed_checks ?? []) add(h, 'check_healed');
  return byStep;
}

/** The event stream of a recorded run, rebuilt from the store so that past runs are
 * scrubbed by the same reducer as live ones. The run's reviews are put back at their steps. */
export function eventsFromDetail(detail: RunDetail): RunEvent[] {
  const { run } = detail;
  const heals = healsByStep(detail);
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
      // A stored run comes without its pages: null until the viewer asks for the step's.
      elements: s.page ? s.page.elements : null,
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
        ...(a.value !== undefined && a.value !== null ? { value: a.value } : {}),
      });
    }
    for (const t of (detail.tabs_opened ?? []).filter((t) => t.step === s.step)) events.push({ event: 'tab_opened', ...t });
    // After the actions, so a healed action keeps the locator that found its element.
    events.push(...(heals.get(s.step) ?? []));
    for (const c of (detail.model_calls ?? []).filter((c) => c.step === s.step)) events.push({ event: 'model_called', ...c });
    for (const r of (detail.retries ?? []).filter((r) => r.step === s.step)) events.push({ event: 'retrying', ...r });
    // A run recorded by a build before runs kept their reviews (a fixture) has none.
    for (const r of (detail.reviews ?? []).filter((r) => r.step === s.step)) {
      events.push({ event: 'review_requested', review_id: r.id, step: s.step, state: r.state, reason: r.reason });
      if (r.resolution) events.push({ event: 'review_resolved', review_id: r.id, resolution: r.resolution });
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
      ...(isOutputs(run.outputs) ? { outputs: run.outputs } : {}),
    });
  }
  return events;
}
