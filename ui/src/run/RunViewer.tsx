//! The run viewer, laid out like Playwright's trace viewer: the selected step's page large
//! in the centre with what was acted on boxed; beside it the graph with the active state lit
//! and the edge just taken, and the step's details; the timeline of steps and a scrubber
//! below. While a run is live it shows the newest step, until the person picks one.

import { useEffect, useMemo, useState } from 'react';
import { PANELS } from '../app/panelWidth';
import { Splitter, usePanelWidth } from '../app/Splitter';
import type { Workflow } from '../bindings';
import { GraphCanvas } from '../editor/GraphCanvas';
import type { Layout, Positions } from '../editor/layout';
import type { RunView } from './reducer';
import { upToStep } from './reducer';
import { StepDetail } from './StepDetail';
import { StepShot } from './StepShot';
import { HelpBadges } from './HelpBadges';
import { RunOutputs } from './RunOutputs';
import { Timeline } from './Timeline';

export interface RunViewerProps {
  view: RunView;
  runId: string | null;
  live: boolean;
  workflow: Workflow | null;
  positions: Positions;
  /** The editor's last auto-layout: the graph's edge routes and interrupt lane. */
  layout?: Layout | null;
  shotUrl: (p: string) => string;
  onCancel: () => void;
  /** Synthesise prompt-only `state` from step `step`'s page (the workflow must be open). */
  onSynthesize?: (state: string, step: number) => void;
  /** *Save healed locators…*: offered once a run that healed a locator has ended. */
  onSaveHealed?: () => void;
}

const FINAL = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);

export function RunViewer({ view, runId, live, workflow, positions, layout, shotUrl, onCancel, onSynthesize, onSaveHealed }: RunViewerProps) {
  const promptStates = useMemo(() => (workflow?.states ?? []).filter((s) => s.prompt?.trim() && !s.checks?.length).map((s) => s.name), [workflow]);
  // null = follow the newest step.
  const [picked, setPicked] = useState<number | null>(null);
  useEffect(() => setPicked(null), [runId]);
  const count = view.steps.length;
  const position = picked == null ? count : Math.max(1, view.steps.findIndex((s) => s.step === picked) + 1);
  const step = view.steps[position - 1] ?? null;
  const highlight = picked == null ? { activeState: view.activeState, lastEdge: view.lastEdge } : upToStep(view, position);
  const visited = useMemo(() => new Set(view.steps.slice(0, position).map((s) => s.state)), [view.steps, position]);
  const running = live && !FINAL.has(view.phase);
  const side = usePanelWidth(PANELS.runSide);

  return (
    <div className="run-viewer" data-testid="run-viewer">
      <div className="toolbar">
        <strong title={view.workflow ?? undefined}>{view.workflow ?? 'run'}</strong>
        {runId && (
          <code className="hint" title={runId}>
            {runId}
          </code>
        )}
        <span className={`phase phase-${view.phase}`} data-testid="run-phase">
          {view.phase.replace(/_/g, ' ')}
        </span>
        <span className="hint">
          {count} step{count === 1 ? '' : 's'}
          {view.durationMs != null && ` · ${(view.durationMs / 1000).toFixed(1)} s`}
        </span>
        <HelpBadges help={view.help} />
        {view.activeState && (
          <span>
            active: <strong data-testid="active-state">{view.activeState}</strong>
          </span>
        )}
        {running && (
          <button className="danger" onClick={onCancel}>
            Cancel run
          </button>
        )}
        {onSaveHealed && runId && FINAL.has(view.phase) && view.help.heals > 0 && (
          <button onClick={onSaveHealed} title="write the locators that found the elements into the workflow file (the diff is shown first)">
            Save healed locators…
          </button>
        )}
      </div>
      {/* Always one line high: the result arriving must not shrink the canvas under the last state. */}
      <p className={`run-message phase-${view.phase}`} data-testid="run-message" title={view.message ?? undefined}>
        {view.message}
      </p>
      <div className="run-body">
        {step ? <StepShot step={step} src={step.screenshot ? shotUrl(step.screenshot) : null} /> : <p className="step-stage empty">Waiting for the first step…</p>}
        <Splitter panel={side} />
        <div className="run-side" ref={side.ref} style={side.style}>
          <div className="run-graph">
            {workflow ? (
              <GraphCanvas
                workflow={workflow}
                positions={positions}
                layout={layout}
                active={highlight.activeState}
                lastEdge={highlight.lastEdge}
                visited={visited}
                route={view.route ?? undefined}
                readOnly
              />
            ) : (
              <p className="empty">The workflow of this run is not open.</p>
            )}
          </div>
          <aside className="side-panel">
            {view.notices.filter((n) => n.step == null).map((n, i) => (
              <p key={i} className={`notice ${n.level}`}>
                {n.text}
              </p>
            ))}
            <RunOutputs outputs={view.outputs} />
            {step && <StepDetail step={step} promptStates={live ? [] : promptStates} onSynthesize={onSynthesize && ((s) => onSynthesize(s, step.step))} />}
          </aside>
        </div>
      </div>
      {count > 0 && (
        <label className="scrubber">
          <span>step</span>
          <input type="range" aria-label="scrub steps" min={1} max={count} value={position} onChange={(e) => setPicked(Number(e.target.value) >= count && running ? null : view.steps[Number(e.target.value) - 1].step)} />
          <span data-testid="scrub-position">
            {position}/{count}
          </span>
          {picked != null && <button onClick={() => setPicked(null)}>Latest</button>}
        </label>
      )}
      <Timeline steps={view.steps} selected={step?.step ?? null} onPick={setPicked} shotUrl={shotUrl} />
    </div>
  );
}
