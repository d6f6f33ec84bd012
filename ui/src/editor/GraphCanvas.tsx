//! The state graph on a React Flow canvas. Editable (select, connect to add a `next`,
//! drag) in the editor; read-only with the active state lit in the run viewer. Edges follow
//! the last auto-layout's routes, interrupts sit in their lane (lane.ts).

import { Background, Controls, ReactFlow, ReactFlowProvider, type Connection, type NodeChange, applyNodeChanges, useStore } from '@xyflow/react';
import { type MutableRefObject, useEffect, useMemo, useRef, useState } from 'react';
import type { Diagnostic, GraphReport, Workflow } from '../bindings';
import { Camera, type CentreRequest } from './Camera';
import { startState } from './flow';
import { sameEdgesAndBoxes, sameEvidence, toEdges, toNodes, type StateNode } from './graph';
import { GraphMap } from './GraphMap';
import { InterruptLane, type LaneNode, laneNode } from './InterruptLane';
import type { Layout, Positions } from './layout';
import { NODE_WIDTH, stateHeight } from './nodeSize';
import { edgesNear, nearView, parseArea } from './nearEdges';
import { type PlaceNew, Placer } from './Placer';
import { RoutedEdge } from './RoutedEdge';
import { routeEdges, type RoutedEdge as RoutedEdgeType } from './routes';
import { StateNodeComponent } from './StateNode';

const nodeTypes = { state: StateNodeComponent, lane: InterruptLane };
const edgeTypes = { routed: RoutedEdge };
type CanvasNode = StateNode | LaneNode;
const NO_ROUTES: Layout['routes'] = new Map();

export interface GraphCanvasProps {
  workflow: Workflow;
  positions: Positions;
  /** The last auto-layout: the routes edges follow (where their states still are) and the
   * interrupt lane. Without it edges are plain smoothsteps. */
  layout?: Layout | null;
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
function mergeNodes(prev: CanvasNode[], next: CanvasNode[]): CanvasNode[] {
  const byId = new Map(prev.map((n) => [n.id, n]));
  const merged = next.map((n) => {
    const old = byId.get(n.id);
    if (!old || old.type !== n.type) return n;
    const samePlace = old.selected === n.selected && old.position.x === n.position.x && old.position.y === n.position.y;
    if (old.type === 'lane' || n.type === 'lane') return samePlace && old.data.width === n.data.width && old.data.height === n.data.height ? old : n;
    const a = old.data;
    const b = n.data;
    const same =
      samePlace && a.state === b.state && a.priority === b.priority && a.active === b.active && a.visited === b.visited && a.problems === b.problems && a.findings.join() === b.findings.join() && a.onRoute === b.onRoute;
    return same ? old : { ...old, ...n };
  });
  // The very array when nothing changed: React Flow goes through every node it is handed.
  return merged.length === prev.length && merged.every((n, i) => n === prev[i]) ? prev : merged;
}

/** As mergeNodes, and the previous array itself when no edge changed: React Flow rebuilds its
 * lookup of every connection whenever it is handed a new array (150 ms at 2,000 states, on
 * each keystroke in the state's form). */
function mergeEdges(prev: RoutedEdgeType[], next: RoutedEdgeType[]): RoutedEdgeType[] {
  const byId = new Map(prev.map((e) => [e.id, e]));
  const merged = next.map((e) => {
    const old = byId.get(e.id);
    const same =
      old &&
      old.label === e.label &&
      old.className === e.className &&
      old.animated === e.animated &&
      old.data?.route === e.data?.route &&
      old.data?.laidOut?.source === e.data?.laidOut?.source &&
      old.data?.laidOut?.target === e.data?.laidOut?.target &&
      old.data?.labelAt?.x === e.data?.labelAt?.x &&
      old.data?.labelAt?.y === e.data?.labelAt?.y;
    return same ? old : e;
  });
  return merged.length === prev.length && merged.every((e, i) => e === prev[i]) ? prev : merged;
}

/** `value`, or the earlier one while `same` says nothing that matters changed. */
function useSteady<T>(value: T, same: (a: T, b: T) => boolean): T {
  const kept = useRef(value);
  if (kept.current !== value && !same(kept.current, value)) kept.current = value;
  return kept.current;
}

const anywhere = () => null;

/** Its own React Flow store, so that the canvas can pick its edges by what is in view. */
export function GraphCanvas(p: GraphCanvasProps) {
  return (
    <ReactFlowProvider>
      <Canvas {...p} />
    </ReactFlowProvider>
  );
}

function Canvas(p: GraphCanvasProps) {
  const routes = p.layout?.routes ?? NO_ROUTES;
  // What the edges are drawn from: a keystroke in a state's form leaves it as it was.
  const drawn = useSteady(p.workflow, sameEdgesAndBoxes);
  // And what they are labelled by: the analysis answers each pause in typing, mostly alike.
  const evidence = useSteady(p.report, sameEvidence);
  const base = useMemo(() => {
    const states: CanvasNode[] = toNodes(p.workflow, p.positions, {
      active: p.active,
      visited: p.visited,
      selected: p.selected,
      diagnostics: p.diagnostics,
      findings: p.report?.findings,
      route: p.route,
    });
    return p.layout?.lane ? [laneNode(p.layout.lane), ...states] : states;
  }, [p.workflow, p.positions, p.layout, p.active, p.visited, p.selected, p.diagnostics, p.report, p.route]);
  // Each state's box where the layout put it: routes hold while their states are there.
  const laidOutBoxes = useMemo(
    () =>
      new Map(
        drawn.states.flatMap((s) => {
          const at = p.layout?.positions.get(s.name);
          return at ? [[s.name, { ...at, width: NODE_WIDTH, height: stateHeight(s) }] as const] : [];
        }),
      ),
    [drawn, p.layout],
  );
  const edgesRef = useRef<RoutedEdgeType[]>([]);
  const edges = useMemo(
    () =>
      (edgesRef.current = mergeEdges(
        edgesRef.current,
        routeEdges(toEdges(drawn, { report: evidence, lastEdge: p.lastEdge ?? null, route: p.route }), routes, laidOutBoxes),
      )),
    [drawn, evidence, p.lastEdge, p.route, routes, laidOutBoxes],
  );
  // In plain layers only the edges of states near the view (nearEdges.ts), by where the
  // states were last put: a drag (its state in view) does not pick them again at every step.
  const area = useStore(p.layout?.coarse ? nearView : anywhere);
  const shown = useMemo(() => (area ? edgesNear(edges, p.positions, parseArea(area)) : edges), [edges, p.positions, area]);
  // React Flow owns transient state (dragging, measured sizes); ours merges into it.
  const [nodes, setNodes] = useState<CanvasNode[]>(base);
  useEffect(() => setNodes((prev) => mergeNodes(prev, base)), [base]);
  const large = p.workflow.states.length > 100;
  return (
    <div className="graph-canvas" data-testid="graph">
      <ReactFlow
        nodes={nodes}
        edges={shown}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={(changes: NodeChange<CanvasNode>[]) => setNodes((ns) => applyNodeChanges(changes, ns))}
        onNodeClick={(_, n) => p.onSelect?.(n.type === 'state' ? n.id : null)}
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
        <Camera layouts={p.layouts ?? 0} home={p.selected ?? p.active ?? startState(p.workflow)} active={p.active} centreOn={p.centreOn} straight={large} />
        {p.placer && <Placer into={p.placer} />}
        <Controls showInteractive={false} />
        {!large && <GraphMap />}
      </ReactFlow>
    </div>
  );
}
