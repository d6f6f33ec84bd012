//! The band the interrupt states sit in, under them on the canvas (lane.ts says why).

import type { Node, NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { Box } from './geometry';
import { LANE_TITLE } from './lane';

export type LaneNode = Node<{ width: number; height: number }, 'lane'>;

export const LANE_ID = 'lane\u0000interrupts';

/** The lane as a node of its own: behind the states, neither selectable nor draggable. */
export function laneNode(lane: Box): LaneNode {
  return {
    id: LANE_ID,
    type: 'lane',
    position: { x: lane.x, y: lane.y },
    data: { width: lane.width, height: lane.height },
    selectable: false,
    draggable: false,
    connectable: false,
    focusable: false,
    zIndex: -1,
  };
}

function InterruptLaneView({ data }: NodeProps<LaneNode>) {
  return (
    <div className="interrupt-lane" data-testid="interrupt-lane" style={{ width: data.width, height: data.height }}>
      <span className="lane-title">{LANE_TITLE}</span>
    </div>
  );
}

export const InterruptLane = memo(InterruptLaneView);
