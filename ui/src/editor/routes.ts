//! Edges drawn along the layout's orthogonal routes: the path through the route's bends,
//! and where labels go so that none covers another or a state. An edge without a route
//! (observed only, added since the layout), or one whose state has moved or changed size
//! since, is drawn by React Flow's smoothstep instead (RoutedEdge.tsx): a route is only
//! ever drawn while both its states are where the layout put them, never hanging in the air.

import type { Edge } from '@xyflow/react';
import type { EdgeRoute } from './elkLayout';
import { edgeKey } from './flow';
import { type Box, overlaps, type Point } from './geometry';

export interface RouteData extends Record<string, unknown> {
  /** Start (on the source's border), bends, end (on the target's border), in graph units. */
  route?: Point[];
  /** The label's centre on the route. */
  labelAt?: Point;
  /** Where the layout put the source and the target: the route holds while they are there. */
  laidOut?: { source: Box; target: Box };
}

export type RoutedEdge = Edge<RouteData, 'routed'>;

/** An SVG path through the points with straight segments only. */
export function orthogonalPath(points: Point[]): string {
  const at = (p: Point) => `${Math.round(p.x * 10) / 10},${Math.round(p.y * 10) / 10}`;
  return points.map((p, i) => `${i ? 'L' : 'M'}${at(p)}`).join(' ');
}

/** Whether a state is still where the layout put it, and as tall (a bottom port moves
 * with its border). */
export function inPlace(now: Box | null, laid: Box, slack = 0.5): boolean {
  return !!now && Math.abs(now.x - laid.x) <= slack && Math.abs(now.y - laid.y) <= slack && Math.abs(now.height - laid.height) <= slack;
}

/** About the box React Flow draws an edge label in (10 px text with padding). */
export function labelSize(text: string): { width: number; height: number } {
  return { width: text.length * 6 + 10, height: 16 };
}

export interface LabelToPlace {
  id: string;
  route: Point[];
  width: number;
  height: number;
}

const centred = (p: Point, w: number, h: number): Box => ({ x: p.x - w / 2, y: p.y - h / 2, width: w, height: h });

function overlapArea(a: Box, b: Box): number {
  if (!overlaps(a, b)) return 0;
  return (Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) * (Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
}

/** Centres along a segment: its middle, then a label's length either way, in turn, while the
 * label stays within the segment (or the middle alone when it is too short for one). */
function spotsAlong(a: Point, b: Point, width: number, height: number): Point[] {
  const vertical = a.x === b.x;
  const length = vertical ? Math.abs(b.y - a.y) : Math.abs(b.x - a.x);
  const step = vertical ? height : width;
  const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  const spots = [mid];
  for (let k = 1; k * step <= (length - step) / 2; k++) {
    for (const sign of [1, -1]) spots.push(vertical ? { x: mid.x, y: mid.y + sign * k * step } : { x: mid.x + sign * k * step, y: mid.y });
  }
  return spots;
}

/** A centre on its route for each label, in turn: the first spot that covers no state and no
 * label placed before it, trying the longest segments first (where the label reads as the
 * segment's and fits between its bends), else the spot that covers least. ELK could place
 * labels itself, but only by making room for them in the layout: the labels are run
 * evidence, which changes with every run, and the graph should not move when it does. */
export function placeLabels(labels: LabelToPlace[], states: Box[]): Map<string, Point> {
  const placed: Box[] = [];
  const at = new Map<string, Point>();
  for (const l of labels) {
    const segments = l.route.slice(1).map((b, i) => ({ a: l.route[i], b, length: Math.abs(b.x - l.route[i].x) + Math.abs(b.y - l.route[i].y) }));
    segments.sort((s, t) => t.length - s.length);
    let best: { p: Point; cost: number } | null = null;
    for (const s of segments) {
      for (const p of spotsAlong(s.a, s.b, l.width, l.height)) {
        const box = centred(p, l.width, l.height);
        const cost = [...states, ...placed].reduce((sum, o) => sum + overlapArea(box, o), 0);
        if (!best || cost < best.cost) best = { p, cost };
        if (cost === 0) break;
      }
      if (best?.cost === 0) break;
    }
    if (!best) continue;
    at.set(l.id, best.p);
    placed.push(centred(best.p, l.width, l.height));
  }
  return at;
}

/** The edges with their routes: the path's points, the label's spot, and where the states
 * were when it was routed (`states`: each state's laid-out box). */
export function routeEdges(edges: RoutedEdge[], routes: Map<string, EdgeRoute>, states: Map<string, Box>): RoutedEdge[] {
  const routed = edges.map((e) => {
    const route = routes.get(edgeKey(e.source, e.target));
    const source = states.get(e.source);
    const target = states.get(e.target);
    return { e, route: route && source && target ? { points: route.points, source, target } : null };
  });
  const labels = placeLabels(
    routed.flatMap(({ e, route }) => (route && typeof e.label === 'string' ? [{ id: e.id, route: route.points, ...labelSize(e.label) }] : [])),
    [...states.values()],
  );
  return routed.map(({ e, route }) => (route ? { ...e, data: { route: route.points, labelAt: labels.get(e.id), laidOut: { source: route.source, target: route.target } } } : e));
}
