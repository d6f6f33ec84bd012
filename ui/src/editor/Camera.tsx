//! Where the canvas looks. A graph opens (and re-opens after a layout) at a scale people
//! can read, centred on the state that matters: the selected one, the active one in a run,
//! else the start. Fitting everything in is the Controls' button, on demand: on a 14-state
//! workflow fit-to-view shrank node text to about 4 px. During a run the camera follows the
//! active state at whatever zoom the person chose.

import { useReactFlow, useStore } from '@xyflow/react';
import { useEffect, useRef, useState } from 'react';
import { NODE_WIDTH } from './nodeSize';

/** Node text is 11.5 px: at this zoom it is on screen at that size (≥ 11 px to be read). */
export const READABLE_ZOOM = 1;

/** A request to centre on a state (from search); `n` makes repeated requests distinct. */
export interface CentreRequest {
  state: string;
  n: number;
}

/** `straight`: glide at the person's zoom. d3's smooth glide zooms out halfway to show both
 * ends: across a graph of 10,000 states that drew thousands of states in one frame (1–5 s). */
export function Camera({ layouts, home, active, centreOn, straight = false }: { layouts: number; home: string | null; active?: string | null; centreOn?: CentreRequest | null; straight?: boolean }) {
  const flow = useReactFlow();
  const ready = useStore((s) => s.width > 0 && s.height > 0 && s.nodeLookup.size > 0);
  const homeRef = useRef(home);
  homeRef.current = home;
  const [shown, setShown] = useState(-1);

  const centre = (state: string | null | undefined, zoom: number, duration = 200) => {
    const n = state ? flow.getNode(state) : undefined;
    if (!n) return false;
    const w = n.measured?.width ?? NODE_WIDTH;
    const h = n.measured?.height ?? 80;
    void flow.setCenter(n.position.x + w / 2, n.position.y + h / 2, { zoom, duration, interpolate: straight ? 'linear' : 'smooth' });
    return true;
  };

  // Once per layout (opening a workflow lays it out); the selection changing does not move the view.
  useEffect(() => {
    if (!ready || shown === layouts) return;
    const t = window.setTimeout(() => centre(homeRef.current, READABLE_ZOOM, 0) && setShown(layouts), 30);
    return () => window.clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, layouts, shown]);

  useEffect(() => {
    if (active && shown >= 0) centre(active, flow.getZoom());
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active]);

  useEffect(() => {
    if (centreOn) centre(centreOn.state, Math.max(flow.getZoom(), READABLE_ZOOM));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [centreOn]);

  return null;
}
