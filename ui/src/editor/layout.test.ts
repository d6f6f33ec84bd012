import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Workflow } from '../bindings';
import type { Layout, LayoutReply, LayoutRequest } from './layout';

/** Stands in for the layout worker: answers each request when the test says so. */
class FakeWorker {
  static started: FakeWorker[] = [];
  onmessage: ((e: { data: LayoutReply }) => void) | null = null;
  onerror: ((e: { message: string }) => void) | null = null;
  asked: LayoutRequest[] = [];
  terminated = false;
  constructor() {
    FakeWorker.started.push(this);
  }
  postMessage(request: LayoutRequest) {
    this.asked.push(request);
  }
  terminate() {
    this.terminated = true;
  }
  answer() {
    const request = this.asked.shift();
    if (!request) throw new Error('nothing was asked');
    this.onmessage?.({ data: { id: request.id, layout: {} as Layout } });
  }
}

const workflow = { version: 1, name: 'w', states: [] } as unknown as Workflow;

/** One layout asked for and answered: the worker that made it. */
async function laidOutOnce(layout: (wf: Workflow) => Promise<Layout>): Promise<FakeWorker> {
  const done = layout(workflow);
  const [worker] = FakeWorker.started;
  worker.answer();
  await done;
  return worker;
}

describe('the layout worker', () => {
  beforeEach(() => {
    FakeWorker.started = [];
    vi.useFakeTimers();
    vi.stubGlobal('Worker', FakeWorker);
    vi.resetModules();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('stops once idle for a while, and starts again for the next layout', async () => {
    const { layout, WORKER_IDLE_MS } = await import('./layout');
    const worker = await laidOutOnce(layout);
    vi.advanceTimersByTime(WORKER_IDLE_MS - 1);
    expect(worker.terminated).toBe(false);
    vi.advanceTimersByTime(1);
    expect(worker.terminated).toBe(true);

    const second = layout(workflow);
    expect(FakeWorker.started).toHaveLength(2);
    FakeWorker.started[1].answer();
    await expect(second).resolves.toBeDefined();
  });

  it('stays while layouts keep coming, and never stops with one waiting', async () => {
    const { layout, WORKER_IDLE_MS } = await import('./layout');
    const worker = await laidOutOnce(layout);
    vi.advanceTimersByTime(WORKER_IDLE_MS / 2);
    const second = layout(workflow);
    vi.advanceTimersByTime(WORKER_IDLE_MS * 2);
    expect(worker.terminated).toBe(false);
    worker.answer();
    await second;
    expect(FakeWorker.started).toHaveLength(1);
    vi.advanceTimersByTime(WORKER_IDLE_MS);
    expect(worker.terminated).toBe(true);
  });
});
