//! Entry point: the Tauri backend inside the app; in a plain browser, the fake backend
//! with the recorded demo run (`?fixture=` names another, `?scale=` the replay pace).

import '@xyflow/react/dist/style.css';
import './styles.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import type { Backend } from './backend/types';
import { FakeBackend, type Recording } from './backend/fake';
import { TauriBackend } from './backend/tauri';
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
  const fake = new FakeBackend({ recording, workflows: workflows ?? {}, reviews: reviews ?? [], screenshotBase: base, timeScale: Number(q.get('scale') ?? 1) });
  window.statewrightFake = fake;
  return fake;
}

// First: the layout worker loads ELK on its own thread while the app starts.
warmUpLayout();
const backend: Backend = window.__TAURI_INTERNALS__ ? new TauriBackend() : await fakeBackend();
createRoot(document.getElementById('root')!).render(<App backend={backend} />);
