import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunDetail } from '../bindings';
import { eventsFromDetail } from './events';
import { emptyRun, reduceAll } from './reducer';

// A real run of workflows/demo-shop.json, as `statewright runs show --json` printed it.
const detail = JSON.parse(readFileSync(new URL('../../fixtures-public/fixtures/demo-run/recording.json', import.meta.url), 'utf8')).detail as RunDetail;

describe('past runs through the live reducer', () => {
  it('rebuilds every step, action and screenshot of a stored run', () => {
    const view = reduceAll(emptyRun, eventsFromDetail(detail));
    expect(view.phase).toBe(detail.run.status);
    expect(view.steps.map((s) => s.state)).toEqual(detail.steps.map((s) => s.state));
    expect(view.steps.map((s) => s.screenshot)).toEqual(detail.steps.map((s) => s.screenshot));
    expect(view.steps.flatMap((s) => s.actions)).toHaveLength(detail.actions.length);
    expect(view.activeState).toBe(detail.run.end_state);
    expect(view.notices.filter((n) => n.kind === 'unknown')).toEqual([]);
  });
});
