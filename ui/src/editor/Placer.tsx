//! Lends the editor the canvas's view of things when it adds a state: the nodes as
//! measured on screen and the middle of the view, which only code inside React Flow sees;
//! and moves the view when the spot found is outside it, so a new state never lands unseen.
//! The canvas may shrink just after (the new state's problems listed below it), before or
//! after the new node is drawn and selected: until the person selects something else, the
//! view keeps it in sight.

import { type ReactFlowState, useReactFlow, useStoreApi } from '@xyflow/react';
import { type MutableRefObject, useEffect, useRef } from 'react';
import { NODE_WIDTH } from './nodeSize';
import { type Box, freeSpot, panToShow } from './placement';

/** The top-left corner for a new node `name` of `size`, near the state `near` or the view's
 * middle; the view follows it there. */
export type PlaceNew = (name: string, near: string | null, size: { width: number; height: number }) => { x: number; y: number };

export function Placer({ into }: { into: MutableRefObject<PlaceNew | null> }) {
  const store = useStoreApi();
  const flow = useReactFlow();
  /** The state placed last, while the view is to keep it in sight: whether it has been
   * seen selected (once it is not any more, the person has moved on), and whether the
   * canvas changed size while it was not drawn yet (it is revealed once it is). */
  const placed = useRef<{ name: string; selected: boolean; owed: boolean } | null>(null);

  useEffect(() => {
    /** Moves the view the least that shows `box` (flow coordinates), if it is not in view. */
    const reveal = (box: Box, { transform: [tx, ty, zoom], width, height }: ReactFlowState) => {
      const pan = panToShow(box, { x: -tx / zoom, y: -ty / zoom, width: width / zoom, height: height / zoom });
      // Linear: a pan that stays at the person's zoom all the way, not a zoom out and in.
      if (pan.x || pan.y) void flow.setViewport({ x: tx - pan.x * zoom, y: ty - pan.y * zoom, zoom }, { duration: 200, interpolate: 'linear' });
    };
    into.current = (name, near, size) => {
      const state = store.getState();
      const { nodeLookup, transform, width, height } = state;
      const [tx, ty, zoom] = transform;
      const boxes = new Map(
        [...nodeLookup.values()].map((n) => [
          n.id,
          { ...n.internals.positionAbsolute, width: n.measured.width ?? NODE_WIDTH, height: n.measured.height ?? 80 },
        ]),
      );
      const middle = { x: (width / 2 - tx) / zoom, y: (height / 2 - ty) / zoom };
      const spot = freeSpot([...boxes.values()], (near && boxes.get(near)) || middle, size);
      reveal({ ...spot, ...size }, state);
      placed.current = { name, selected: false, owed: false };
      return spot;
    };
    const unsubscribe = store.subscribe((state, before) => {
      const follow = placed.current;
      if (!follow) return;
      if (state.width !== before.width || state.height !== before.height) follow.owed = true;
      const node = state.nodeLookup.get(follow.name);
      if (node?.selected) follow.selected = true;
      else if (node && follow.selected) return void (placed.current = null);
      if (!node || !follow.owed) return;
      follow.owed = false;
      reveal({ ...node.internals.positionAbsolute, width: node.measured.width ?? NODE_WIDTH, height: node.measured.height ?? 80 }, state);
    });
    return () => {
      into.current = null;
      unsubscribe();
    };
  }, [store, flow, into]);
  return null;
}
