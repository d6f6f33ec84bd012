//! Lends the editor the canvas's view of things when it adds a state: the nodes as
//! measured on screen and the middle of the view, which only code inside React Flow sees;
//! and moves the view when the spot found is outside it, so a new state never lands unseen.

import { useReactFlow, useStoreApi } from '@xyflow/react';
import { type MutableRefObject, useEffect } from 'react';
import { NODE_WIDTH } from './nodeSize';
import { freeSpot, panToShow } from './placement';

/** The top-left corner for a new node of `size`, near the state `near` or the view's middle;
 * the view follows it there. */
export type PlaceNew = (near: string | null, size: { width: number; height: number }) => { x: number; y: number };

export function Placer({ into }: { into: MutableRefObject<PlaceNew | null> }) {
  const store = useStoreApi();
  const flow = useReactFlow();
  useEffect(() => {
    into.current = (near, size) => {
      const { nodeLookup, transform, width, height } = store.getState();
      const [tx, ty, zoom] = transform;
      const boxes = new Map(
        [...nodeLookup.values()].map((n) => [
          n.id,
          { ...n.internals.positionAbsolute, width: n.measured.width ?? NODE_WIDTH, height: n.measured.height ?? 80 },
        ]),
      );
      const middle = { x: (width / 2 - tx) / zoom, y: (height / 2 - ty) / zoom };
      const spot = freeSpot([...boxes.values()], (near && boxes.get(near)) || middle, size);
      const view = { x: -tx / zoom, y: -ty / zoom, width: width / zoom, height: height / zoom };
      const pan = panToShow({ ...spot, ...size }, view);
      if (pan.x || pan.y) void flow.setViewport({ x: tx - pan.x * zoom, y: ty - pan.y * zoom, zoom }, { duration: 200 });
      return spot;
    };
    return () => {
      into.current = null;
    };
  }, [store, flow, into]);
  return null;
}
