import { describe, expect, it } from 'vitest';
import type { GraphReport, Workflow } from '../bindings';
import { evidenceLabel, sameEdgesAndBoxes, sameEvidence, toEdges, toNodes } from './graph';
import * as m from './model';

const wf = {
  version: 1,
  name: 'w',
  states: [
    { name: 'Done', checks: [{ type: 'text', value: 'ok' }], terminal: { outcome: 'success' } },
    { name: 'Popup', checks: [{ type: 'text', value: 'cookies' }], interrupt: true },
    { name: 'Form', checks: [{ type: 'url', value: 'http://x/f' }], next: ['Done', 'Popup'] },
    { name: 'Start', checks: [{ type: 'url', value: 'about:blank' }], next: ['Form'] },
  ],
} as unknown as Workflow;

const report: GraphReport = {
  runs: 3,
  edges: [
    { from: 'Start', to: 'Form', declared: true, taken: 3, mean_ms: 1460 },
    { from: 'Form', to: 'Done', declared: false, taken: 0, mean_ms: null },
    { from: 'Form', to: 'Start', declared: false, taken: 2, mean_ms: 300 },
  ],
  findings: [
    { kind: 'no_way_out', states: ['Form'], message: 'no terminal state can be reached from `Form`', help: '' },
    { kind: 'edge_never_taken', states: ['Form', 'Done'], message: 'never taken', help: '' },
  ],
};

describe('the graph on the canvas', () => {
  it('labels only edges that carry evidence, and marks declared edges no run took', () => {
    const edges = toEdges(wf, { report });
    const byId = new Map(edges.map((e) => [e.id.replace('\u0000', '>'), e]));
    expect(byId.get('next:Start>Form')?.label).toBe('3× · 1.5 s');
    expect(byId.get('next:Form>Done')?.label).toBeUndefined();
    expect(byId.get('next:Form>Done')?.className).toContain('edge-never');
    expect(byId.get('seen:Form>Start')?.label).toBe('2× · 300 ms');
    expect(byId.get('seen:Form>Start')?.className).toContain('edge-seen');
  });

  it('draws no edge to or from an interrupt, declared or taken: it sits in its lane', () => {
    const taken = { ...report, edges: [...report.edges, { from: 'Popup', to: 'Form', declared: false, taken: 4, mean_ms: 90 }] };
    const edges = toEdges(wf, { report: taken, lastEdge: { from: 'Popup', to: 'Form' } });
    expect(edges.filter((e) => e.source === 'Popup' || e.target === 'Popup')).toEqual([]);
    expect(edges.map((e) => e.id.replace('\u0000', '>')).sort()).toEqual(['next:Form>Done', 'next:Start>Form', 'seen:Form>Start']);
  });

  it('says nothing about never-taken edges when no run is stored', () => {
    const edges = toEdges(wf, { report: { ...report, runs: 0, edges: [] } });
    expect(edges.every((e) => !String(e.className).includes('edge-never') && e.label === undefined)).toBe(true);
  });

  it('lights a planned route and puts state findings on their nodes', () => {
    const edges = toEdges(wf, { route: ['Start', 'Form', 'Done'] });
    const lit = edges.filter((e) => String(e.className).includes('edge-route')).map((e) => `${e.source}>${e.target}`);
    expect(lit.sort()).toEqual(['Form>Done', 'Start>Form']);
    const nodes = toNodes(wf, new Map(), { findings: report.findings, route: ['Start', 'Form', 'Done'] });
    const form = nodes.find((n) => n.id === 'Form')!;
    expect(form.data.findings).toEqual(['no terminal state can be reached from `Form`']);
    expect(nodes.filter((n) => n.data.onRoute).map((n) => n.id).sort()).toEqual(['Done', 'Form', 'Start']);
    expect(nodes.find((n) => n.id === 'Done')!.data.findings).toEqual([]);
  });

  it('keeps the edges when the analysis answers again with the same evidence', () => {
    const again = structuredClone(report);
    expect(sameEvidence(report, again)).toBe(true);
    // Findings are about states: the nodes show them, the edges do not.
    expect(sameEvidence(report, { ...again, findings: [] })).toBe(true);
    expect(sameEvidence(report, { ...again, runs: 4 })).toBe(false);
    expect(sameEvidence(report, { ...again, edges: again.edges.map((e, i) => (i ? e : { ...e, taken: 4 })) })).toBe(false);
    expect(sameEvidence(report, { ...again, edges: again.edges.map((e, i) => (i ? e : { ...e, mean_ms: 1 })) })).toBe(false);
    expect(sameEvidence(report, { ...again, edges: again.edges.slice(1) })).toBe(false);
    expect(sameEvidence(report, undefined)).toBe(false);
  });

  it('draws a state named twice in a next once', () => {
    const twice = m.setNext(wf, 'Start', ['Form', 'Form']);
    expect(toEdges(twice).map((e) => e.id.replace('\u0000', '>'))).toEqual(['next:Form>Done', 'next:Start>Form']);
  });

  it('formats evidence', () => {
    expect(evidenceLabel(0, 100)).toBe('');
    expect(evidenceLabel(1, null)).toBe('1×');
    expect(evidenceLabel(12, 999)).toBe('12× · 999 ms');
  });

  it('keeps the edges of an edit that changes none of them, and of no other', () => {
    // Typed into a field: the canvas keeps every edge (none made again for a keystroke).
    expect(sameEdgesAndBoxes(wf, m.updateState(wf, 'Form', { description: 'the form' }))).toBe(true);
    expect(sameEdgesAndBoxes(wf, m.updateCheck(wf, 'Form', 0, { type: 'url', value: 'http://x/g' } as never))).toBe(true);
    expect(sameEdgesAndBoxes(wf, m.setNext(wf, 'Form', ['Done', 'Popup']))).toBe(true);
    // An edge added or gone, a state renamed, moved, made an interrupt, or taller: drawn anew.
    expect(sameEdgesAndBoxes(wf, m.setNext(wf, 'Form', ['Done']))).toBe(false);
    expect(sameEdgesAndBoxes(wf, m.renameState(wf, 'Done', 'Finished'))).toBe(false);
    expect(sameEdgesAndBoxes(wf, m.moveState(wf, 'Start', 0))).toBe(false);
    expect(sameEdgesAndBoxes(wf, m.updateState(wf, 'Done', { interrupt: true }))).toBe(false);
    expect(sameEdgesAndBoxes(wf, m.addCheck(wf, 'Form', { type: 'text', value: 'Pay' } as never))).toBe(false);
    expect(sameEdgesAndBoxes(wf, m.addState(wf, { name: 'New', checks: [] } as never))).toBe(false);
  });
});
