//! The state graph on a React Flow canvas. Editable (select, connect to add a `next`,
//! drag) in the editor; read-only with the active state lit in the run viewer.

import { Background, Controls, ReactFlow, type Connection, type Edge, type NodeChange, applyNodeChanges } from '@xyflow/react';
import { type MutableRefObject, useEffect, useMemo, useRef, useState } from 'react';
import type { Diagnostic, GraphReport, Workflow } from '../bindings';
import { Camera, type CentreRequest } from './Camera';
import { startState, toEdges, toNodes, type StateNode } from './graph';
import { GraphMap } from './GraphMap';
import type { Positions } from './layout';
import { type PlaceNew, Placer } from './Placer';
import { nodeTypes } from './StateNode';

export interface GraphCanvasProps {
  workflow: Workflow;
  positions: Positions;
  diagnostics?: Diagnostic[];
  selected?: string | null;
  active?: string | null;
  visited?: Set<string>;
  lastEdge?: { from: string; to: string } | null;
  /** Findings and edge evidence from the graph analysis. */
  report?: GraphReport;
  /** A planned route to light, as its states in order. */
  route?: string[];
  onSelect?: (state: string | null) => void;
  onConnect?: (from: string, to: string) => void;
  onMoved?: (state: string, pos: { x: number; y: number }) => void;
  readOnly?: boolean;
  /** Bumped on each auto-layout, to bring the new layout into view at a readable scale. */
  layouts?: number;
  /** Centre the view on this state (a search hit). */
  centreOn?: CentreRequest | null;
  /** Filled with a way to find free space for a new node (the editor's *Add state*). */
  placer?: MutableRefObject<PlaceNew | null>;
}

/** Keeps the previous node object wherever nothing shown changed, so React Flow re-renders
 * only the nodes that did (a streaming run changes two or three per step, not 300). */
function mergeNodes(prev: StateNode[], next: StateNode[]): StateNode[] {
  const byId = new Map(prev.map((n) => [n.id, n]));
  return next.map((n) => {
    const old = byId.get(n.id);
    if (!old) return n;
    const a = old.data;
    const b = n.data;
    const same =
      a.state === b.state && a.priority === b.priority && a.active === b.active && a.visited === b.visited && a.problems === b.problems && a.findings.join() === b.findings.join() && a.onRoute === b.onRoute && old.selected === n.selected && old.position.x === n.position.x && old.position.y === n.position.y;
    return same ? old : { ...old, ...n };
  });
}

function mergeEdges(prev: Edge[], next: Edge[]): Edge[] {
  const byId = new Map(prev.map((e) => [e.id, e]));
  return next.map((e) => {
    const old = byId.get(e.id);
    return old && old.label === e.label && old.className === e.className && old.animated === e.animated ? old : e;
  });
}

export function GraphCanvas(p: GraphCanvasProps) {
  const base = useMemo(
    () =>
      toNodes(p.workflow, p.positions, {
        active: p.active,
        visited: p.visited,
        selected: p.selected,
        diagnostics: p.diagnostics,
        findings: p.report?.findings,
        route: p.route,
      }),
    [p.workflow, p.positions, p.active, p.visited, p.selected, p.diagnostics, p.report, p.route],
  );
  const edgesRef = useRef<Edge[]>([]);
  const edges = useMemo(
    () => (edgesRef.current = mergeEdges(edgesRef.current, toEdges(p.workflow, { report: p.report, lastEdge: p.lastEdge ?? null, route: p.route }))),
    [p.workflow, p.report, p.lastEdge, p.route],
  );
  // React Flow owns transient state (dragging, measured sizes); ours merges into it.
  const [nodes, setNodes] = useState<StateNode[]>(base);
  useEffect(() => setNodes((prev) => mergeNodes(prev, base)), [base]);
  const large = p.workflow.states.length > 100;
  return (
    <div className="graph-canvas" data-testid="graph">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={(changes: NodeChange<StateNode>[]) => setNodes((ns) => applyNodeChanges(changes, ns))}
        onNodeClick={(_, n) => p.onSelect?.(n.id)}
        onPaneClick={() => p.onSelect?.(null)}
        onNodeDragStop={(_, n) => p.onMoved?.(n.id, n.position)}
        onConnect={(c: Connection) => c.source && c.target && p.onConnect?.(c.source, c.target)}
        nodesDraggable={!p.readOnly}
        nodesConnectable={!p.readOnly}
        deleteKeyCode={null}
        onlyRenderVisibleElements={large}
        minZoom={0.05}
        proOptions={{ hideAttribution: true }}
        colorMode="system"
      >
        <Background />
        <Camera layouts={p.layouts ?? 0} home={p.selected ?? p.active ?? startState(p.workflow)} active={p.active} centreOn={p.centreOn} />
        {p.placer && <Placer into={p.placer} />}
        <Controls showInteractive={false} />
        {!large && <GraphMap />}
      </ReactFlow>
    </div>
  );
}
