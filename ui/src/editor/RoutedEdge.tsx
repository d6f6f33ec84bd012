//! An edge drawn along its layout route (routes.ts), or as React Flow's smoothstep where it
//! has none or a state it joins has moved or changed size since the layout: never bends
//! left hanging.

import { BaseEdge, type EdgeProps, getSmoothStepPath, type ReactFlowState, useStore } from '@xyflow/react';
import { memo, useCallback } from 'react';
import type { Box } from './geometry';
import { inPlace, orthogonalPath, type RoutedEdge as RoutedEdgeType } from './routes';

/** A boolean, so an edge re-renders when its state leaves (or regains) its place, not on
 * every step of a drag or every change elsewhere on the canvas. */
function useInPlace(id: string, laid: Box | undefined): boolean {
  const selector = useCallback(
    (s: ReactFlowState) => {
      const n = s.nodeLookup.get(id);
      const now = n && n.measured.height != null ? { ...n.internals.positionAbsolute, width: n.measured.width ?? 0, height: n.measured.height } : null;
      return !!laid && inPlace(now, laid);
    },
    [id, laid],
  );
  return useStore(selector);
}

function RoutedEdgeView(p: EdgeProps<RoutedEdgeType>) {
  const route = p.data?.route;
  const sourceInPlace = useInPlace(p.source, p.data?.laidOut?.source);
  const targetInPlace = useInPlace(p.target, p.data?.laidOut?.target);
  let path: string;
  let labelX: number;
  let labelY: number;
  const onRoute = !!route && sourceInPlace && targetInPlace;
  if (onRoute) {
    path = orthogonalPath(route);
    const at = p.data?.labelAt ?? route[Math.floor(route.length / 2)];
    labelX = at.x;
    labelY = at.y;
  } else {
    [path, labelX, labelY] = getSmoothStepPath(p);
  }
  return (
    <BaseEdge
      id={p.id}
      path={path}
      className={onRoute ? 'routed' : 'unrouted'}
      label={p.label}
      labelX={labelX}
      labelY={labelY}
      labelStyle={p.labelStyle}
      labelShowBg={p.labelShowBg}
      labelBgStyle={p.labelBgStyle}
      labelBgPadding={p.labelBgPadding}
      labelBgBorderRadius={p.labelBgBorderRadius}
      style={p.style}
      markerStart={p.markerStart}
      markerEnd={p.markerEnd}
      interactionWidth={p.interactionWidth}
    />
  );
}

export const RoutedEdge = memo(RoutedEdgeView);
