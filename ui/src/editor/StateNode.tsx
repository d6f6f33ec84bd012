import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { SHOWN_LINES } from './layout';
import type { StateNode as StateNodeType } from './graph';
import { actionShort, checkShort } from './summary';

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

/** A state on the canvas: priority, name, outcome, checks (where am I) and actions. */
function StateNodeView({ data, selected }: NodeProps<StateNodeType>) {
  const { state, priority, active, visited, problems, findings, onRoute } = data;
  const outcome = state.terminal?.outcome;
  // Known only by its prompt: the model writes its checks and actions on a run.
  const awaitsSynthesis = !state.checks?.length && !!state.prompt?.trim();
  const cls = [
    'state-node',
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
    <div className={cls} data-state={state.name} data-testid={`node-${state.name}`}>
      <Handle type="target" position={Position.Top} />
      <div className="node-head">
        <span className="node-priority" title="priority: states are checked in this order">
          #{priority}
        </span>
        <span className="node-name">{state.name}</span>
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
      {awaitsSynthesis ? (
        <div className="node-prompt" title="synthesised by the model on a run, then proposed as a fix">
          “{state.prompt}”
        </div>
      ) : (
        <div className="node-checks">
          <Lines items={(state.checks ?? []).map(checkShort)} more="checks" />
        </div>
      )}
      {(state.actions?.length ?? 0) > 0 && (
        <div className="node-actions">
          <Lines items={(state.actions ?? []).map((a, i) => `${i + 1}. ${actionShort(a)}`)} more="actions" />
        </div>
      )}
      <Handle type="source" position={Position.Bottom} />
    </div>
  );
}

export const StateNodeComponent = memo(StateNodeView);
export const nodeTypes = { state: StateNodeComponent };
