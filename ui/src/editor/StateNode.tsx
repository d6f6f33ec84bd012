//! A state on the canvas: priority, name, outcome, checks (where am I) and actions.
//!
//! Semantic zoom: the check and action lines are drawn only where they can be read (an
//! on-screen scale of DETAIL_ZOOM or more) or on the selected state; further out a node
//! shows its priority, tags and outcome, and its name set large enough to read. The box
//! keeps its laid-out size at every zoom (nodeSize.ts), so edges stay on its border.

import { Handle, Position, type NodeProps, type ReactFlowState, useStore } from '@xyflow/react';
import { memo } from 'react';
import type { StateNode as StateNodeType } from './graph';
import { SHOWN_LINES, stateHeight } from './nodeSize';
import { actionShort, checkShort } from './summary';

/** Node text is 11.5 px: below this scale its lines are under 7 px on screen. */
const DETAIL_ZOOM = 0.6;
// A boolean, so a node re-renders when the zoom crosses the threshold, not on every step.
const readable = (s: ReactFlowState) => s.transform[2] >= DETAIL_ZOOM;

/** How many lines of the large name fit under the compact head row (styles.css sizes). */
const nameLines = (height: number) => Math.max(1, Math.floor((height - 36) / 28));

function Lines({ items, more }: { items: string[]; more: string }) {
  return (
    <>
      {items.slice(0, SHOWN_LINES).map((t, i) => (
        <div key={i} className="node-line" title={t}>
          {t}
        </div>
      ))}
      {items.length > SHOWN_LINES && <div className="node-line node-more">+{items.length - SHOWN_LINES} {more}</div>}
    </>
  );
}

function StateNodeView({ data, selected }: NodeProps<StateNodeType>) {
  const { state, priority, active, visited, problems, findings, onRoute } = data;
  const detailed = useStore(readable) || selected;
  const height = stateHeight(state);
  const outcome = state.terminal?.outcome;
  // Known only by its prompt: the model writes its checks and actions on a run.
  const awaitsSynthesis = !state.checks?.length && !!state.prompt?.trim();
  const cls = [
    'state-node',
    detailed ? '' : 'compact',
    outcome ? `terminal-${outcome}` : '',
    active ? 'active' : '',
    visited ? 'visited' : '',
    selected ? 'selected' : '',
    problems ? 'has-problems' : '',
    findings.length ? 'has-findings' : '',
    onRoute ? 'on-route' : '',
    awaitsSynthesis ? 'awaits-synthesis' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={cls} style={{ height }} data-state={state.name} data-testid={`node-${state.name}`}>
      {/* Edges to and from an interrupt are not drawn (lane.ts), so none can be drawn by hand either. */}
      {!state.interrupt && <Handle type="target" position={Position.Top} id="in" />}
      <div className="node-head">
        <span className="node-priority" title="priority: states are checked in this order">
          #{priority}
        </span>
        <span className="node-name" title={state.name} style={detailed ? undefined : { WebkitLineClamp: nameLines(height) }}>
          {state.name}
        </span>
        {state.interrupt && (
          <span
            className="node-tag interrupt-tag"
            data-testid="interrupt-marker"
            title="An interrupt may show up at any point: it is recognised before every other state, handled, and the run resumes where it was. No edges are drawn to or from it."
          >
            from any state
          </span>
        )}
        {state.continuous && <span className="node-tag">continuous</span>}
        {state.prompt && <span className="node-tag prompt-tag">{awaitsSynthesis ? 'prompt only' : 'prompt'}</span>}
        {outcome && <span className={`node-tag outcome-${outcome}`}>{outcome}</span>}
        {problems > 0 && (
          <span className="node-problems" title={`${problems} problem(s)`}>
            ⚠ {problems}
          </span>
        )}
        {findings.length > 0 && (
          <span className="node-findings" data-testid={`findings-${state.name}`} title={findings.join('\n')}>
            ◆ {findings.length}
          </span>
        )}
      </div>
      {detailed &&
        (awaitsSynthesis ? (
          <div className="node-prompt" title={`“${state.prompt}”: synthesised by the model on a run, then proposed as a fix`}>
            “{state.prompt}”
          </div>
        ) : (
          <div className="node-checks">
            <Lines items={(state.checks ?? []).map(checkShort)} more="checks" />
          </div>
        ))}
      {detailed && (state.actions?.length ?? 0) > 0 && (
        <div className="node-actions">
          <Lines items={(state.actions ?? []).map((a, i) => `${i + 1}. ${actionShort(a)}`)} more="actions" />
        </div>
      )}
      {!state.interrupt && <Handle type="source" position={Position.Bottom} id="out" />}
    </div>
  );
}

export const StateNodeComponent = memo(StateNodeView);
