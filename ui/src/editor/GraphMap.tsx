//! The minimap, small (it covered a quarter of the canvas at 1280×800) and collapsible;
//! whether it is shown is remembered across sessions.

import { MiniMap, Panel } from '@xyflow/react';
import { useState } from 'react';

const KEY = 'statewright.minimap';

export function GraphMap() {
  const [open, setOpen] = useState(() => localStorage.getItem(KEY) !== 'closed');
  const toggle = () => {
    localStorage.setItem(KEY, open ? 'closed' : 'open');
    setOpen(!open);
  };
  return (
    <>
      {open && <MiniMap pannable zoomable style={{ width: 140, height: 90 }} offsetScale={4} />}
      <Panel position="bottom-right" className="map-toggle">
        <button onClick={toggle} aria-expanded={open} title={open ? 'hide the minimap' : 'show the minimap'}>
          {open ? 'Hide map' : 'Map'}
        </button>
      </Panel>
    </>
  );
}
