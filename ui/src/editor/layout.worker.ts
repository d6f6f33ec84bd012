//! The auto-layout's thread. ELK takes a few hundred milliseconds on a large workflow (and
//! longer cold); here that time never blocks the page, and ELK's 1.6 MB of code loads and
//! starts beside the app instead of in front of its first screen.

import ELK from 'elkjs/lib/elk.bundled.js';
import { computeLayout } from './elkLayout';
import type { LayoutReply, LayoutRequest } from './layout';

const elk = new ELK();
const scope = self as unknown as { onmessage: ((e: MessageEvent<LayoutRequest>) => void) | null; postMessage: (reply: LayoutReply) => void };

// Set after ELK's bundle has loaded: seeing a worker, it installs a handler of its own.
scope.onmessage = async ({ data: { id, workflow } }) => {
  try {
    scope.postMessage({ id, layout: await computeLayout(elk, workflow) });
  } catch (e) {
    scope.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
};
