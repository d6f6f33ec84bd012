//! Entry point: the Tauri backend inside the app; in a plain browser, the fake backend
//! with the recorded demo run (`?fixture=` names another, `?scale=` the replay pace). Each
//! is loaded only where it is used: the app never fetches the fake, nor a browser Tauri's.

import '@xyflow/react/dist/style.css';
import './styles.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import type { Backend } from './backend/types';
import type { FakeBackend, Recording } from './backend/fake';
import { warmUpLayout } from './editor/layout';
import type { Workflow } from './bindings';
import type { ReviewView } from './bindings';

declare global {
  interface Window {
    __TAURI_INTERNALS__?: unknown;
    /** The fake backend, for browser tests to play "another program". */
    statewrightFake?: FakeBackend;
  }
}

async function fixture<T>(url: string): Promise<T | null> {
  try {
    const r = await fetch(url);
    return r.ok ? ((await r.json()) as T) : null;
  } catch {
    return null;
  }
}

async function fakeBackend(): Promise<Backend> {
  const q = new URLSearchParams(location.search);
  const base = q.get('fixture') ?? 'fixtures/demo-run/';
  const [recording, workflows, reviews] = await Promise.all([
    fixture<Recording>(`${base}recording.json`),
    fixture<Record<string, Workflow>>(`${base}workflows.json`),
    fixture<ReviewView[]>(`${base}reviews.json`),
  ]);
  const { FakeBackend } = await import('./backend/fake');
  const fake = new FakeBackend({ recording, workflows: workflows ?? {}, reviews: reviews ?? [], screenshotBase: base, timeScale: Number(q.get('scale') ?? 1) });
  window.statewrightFake = fake;
  return fake;
}

// First: the layout worker loads ELK on its own thread while the app starts.
warmUpLayout();
// Not a top-level await: the backend's chunk imports modules of this one, which must have
// finished running first, or each would wait for the other and the window stay blank.
async function start() {
  const backend: Backend = window.__TAURI_INTERNALS__ ? new (await import('./backend/tauri')).TauriBackend() : await fakeBackend();
  createRoot(document.getElementById('root')!).render(<App backend={backend} />);
}
void start();
