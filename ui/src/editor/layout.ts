//! Auto-layout (elkLayout.ts), run in a Web Worker so that the page stays responsive while
//! ELK works: `layout(workflow)` resolves with where everything goes.

import type { Workflow } from '../bindings';
import type { Layout } from './elkLayout';

export type { EdgeRoute, Layout } from './elkLayout';
export type { Positions } from './geometry';

export interface LayoutRequest {
  id: number;
  workflow: Workflow;
}

export type LayoutReply = { id: number; layout: Layout; error?: undefined } | { id: number; error: string };

let worker: Worker | null = null;
let asked = 0;
let idle: ReturnType<typeof setTimeout> | undefined;

/** How long the worker outlives its last layout. Its own JavaScript VM with ELK loaded holds
 * about 70 MB (WebKitGTK, measured with `scripts/bench app-memory`): a quarter of the app's
 * idle footprint, kept for nothing between edits. A burst of edits keeps it warm; after a
 * pause, the next layout pays ELK's cold start again, on the worker's thread. */
export const WORKER_IDLE_MS = 20_000;
const waiting = new Map<number, { resolve: (l: Layout) => void; reject: (e: Error) => void }>();

/** The worker, started on the first layout (the warm-up, as the app starts). */
function layoutWorker(): Worker {
  if (worker) return worker;
  // A module for the dev server; built, a classic script (Vite's default worker format),
  // which also runs where a webview makes every worker classic (older macOS WebKit).
  const w = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
  w.onmessage = ({ data }: MessageEvent<LayoutReply>) => {
    const waiter = waiting.get(data.id);
    waiting.delete(data.id);
    if (data.error !== undefined) waiter?.reject(new Error(`layout failed: ${data.error}`));
    else waiter?.resolve(data.layout);
    if (waiting.size === 0) idle = setTimeout(stopWorker, WORKER_IDLE_MS);
  };
  // A worker that fails to load answers nothing: fail what waits, start afresh next time.
  w.onerror = (e) => {
    for (const waiter of waiting.values()) waiter.reject(new Error(`layout worker failed: ${e.message}`));
    waiting.clear();
    w.terminate();
    worker = null;
  };
  return (worker = w);
}

function stopWorker() {
  if (waiting.size > 0) return;
  worker?.terminate();
  worker = null;
}

export function layout(workflow: Workflow): Promise<Layout> {
  clearTimeout(idle);
  const id = ++asked;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    layoutWorker().postMessage({ id, workflow } satisfies LayoutRequest);
  });
}

/** Lays out a small graph as the app starts, so the first real layout does not pay for
 * loading the worker and ELK's start-up (about half of a 300-state layout when cold). It
 * all happens on the worker's thread, so the first screen does not wait for it. */
export function warmUpLayout() {
  const states = Array.from({ length: 30 }, (_, i) => ({ name: `w${i}`, checks: [], next: i < 29 ? [`w${i + 1}`] : [] }));
  layout({ version: 1, name: 'warm-up', states } as unknown as Workflow).catch(() => {});
}
