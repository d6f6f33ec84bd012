//! The editor: toolbar, the state graph, and the form of the selected state (or of the
//! workflow itself), with the validator's findings listed below.

import { useEffect, useMemo, useRef, useState } from 'react';
import { OverflowButtons } from '../app/Overflow';
import { PANELS } from '../app/panelWidth';
import { Splitter, usePanelWidth } from '../app/Splitter';
import type { Backend, GraphReport, Route } from '../backend/types';
import { isDirty } from './history';
import { pathInWords } from './pathWords';
import type { CentreRequest } from './Camera';
import { GraphCanvas } from './GraphCanvas';
import { GraphSearch } from './GraphSearch';
import { NODE_WIDTH, nodeHeight } from './nodeSize';
import * as m from './model';
import type { PlaceNew } from './Placer';
import { RouteBanner } from './RouteBanner';
import { skillNameOf } from './skills';
import { handleShortcut, SHORTCUTS } from './shortcuts';
import { StateForm } from './StateForm';
import type { WorkflowEditor } from './useWorkflowEditor';
import { WorkflowForm } from './WorkflowForm';

export interface EditorViewProps {
  editor: WorkflowEditor;
  backend: Backend;
  report: GraphReport;
  onRun: () => void;
  /** *Batch…*: the workflow once per row of a data file. */
  onBatch: () => void;
  /** Start a run that goes to `state` (*Go here* → *Go…*). */
  onGoto: (state: string) => void;
  notify: (text: string, level?: 'info' | 'error') => void;
}

export function EditorView({ editor, backend, report, onRun, onBatch, onGoto, notify }: EditorViewProps) {
  const { doc, diagnostics, positions, selected, setSelected, edit } = editor;
  const wf = doc?.history.present;
  const state = wf?.states.find((s) => s.name === selected) ?? null;
  const dirty = doc ? isDirty(doc.history) : false;
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const [planned, setPlanned] = useState<{ target: string; route: Route } | null>(null);
  // A route planned for another workflow (or before an edit renamed its states) is stale.
  useEffect(() => setPlanned(null), [doc?.id]);
  const searchBox = useRef<HTMLInputElement>(null);
  const placer = useRef<PlaceNew | null>(null);
  const statePanel = usePanelWidth(PANELS.stateForm);
  const [centreOn, setCentreOn] = useState<CentreRequest | null>(null);
  const showHit = (name: string) => {
    setSelected(name);
    setCentreOn((c) => ({ state: name, n: (c?.n ?? 0) + 1 }));
  };

  const goHere = async () => {
    if (!wf || !state) return;
    try {
      setPlanned({ target: state.name, route: await backend.planRoute(wf, state.name) });
    } catch (e) {
      setPlanned(null);
      notify((e as Error).message, 'error');
    }
  };

  const addState = () => {
    if (!wf) return;
    const name = m.uniqueStateName(wf);
    edit((w) => m.addState(w, { name, checks: [{ type: 'url', value: '' }] } as never));
    const size = { width: NODE_WIDTH, height: nodeHeight(1, 0) };
    const at = placer.current?.(name, selected, size) ?? { x: 0, y: -160 };
    editor.setPositions(new Map(positions).set(name, at));
    setSelected(name);
  };

  /** A renamed state keeps its place on the canvas (positions go by name). The old name keeps
   * it too, for an undo of the rename to find. */
  const renamed = (from: string, to: string) => {
    const at = positions.get(from);
    if (at) editor.setPositions(new Map(positions).set(to, at));
    setSelected(to);
  };

  const handlers = useMemo(
    () => ({
      save: () => void editor.save(),
      undo: editor.undo,
      redo: editor.redo,
      layout: () => wf && void editor.relayout(wf),
      addState,
      deleteState: () => selected && (edit((w) => m.deleteState(w, selected)), setSelected(null)),
      raise: () => selected && wf && edit((w) => m.moveState(w, selected, m.stateIndex(w, selected) - 1)),
      lower: () => selected && wf && edit((w) => m.moveState(w, selected, m.stateIndex(w, selected) + 1)),
      run: onRun,
      find: () => searchBox.current?.select(),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [editor, wf, selected, positions, onRun],
  );
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => handleShortcut(e, handlers);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [handlers]);

  if (!doc || !wf) return <div className="empty">Open or create a workflow.</div>;
  // A file of the skills folder, or one that says it is a skill wherever it lies.
  const isSkill = skillNameOf(doc.id) != null || wf.skill != null;
  return (
    <div className="editor">
      <div className="toolbar" role="toolbar">
        {isSkill && (
          <span className="skill-badge" data-testid="skill-badge" title="a skill: other workflows run it with a use_skill action">
            skill
          </span>
        )}
        <strong className={dirty ? 'doc-title dirty' : 'doc-title'} data-testid="doc-title" title={`${wf.name} (${doc.id})`}>
          <span className="doc-name">{wf.name}</span>
          {dirty && <span title="unsaved changes"> •</span>}
        </strong>
        <span className="doc-id">{doc.id}</span>
        <button onClick={() => void editor.save()} title="Ctrl+S" disabled={!dirty}>
          Save
        </button>
        <button onClick={editor.undo} disabled={!doc.history.past.length} title="Ctrl+Z">
          Undo
        </button>
        <button onClick={editor.redo} disabled={!doc.history.future.length} title="Ctrl+Shift+Z">
          Redo
        </button>
        <button onClick={addState} title="A">
          Add state
        </button>
        <button className="primary" onClick={onRun} title="Ctrl+Enter">
          Run…
        </button>
        {/* The last of these goes into *More* first: the workflow's settings are also a click on the canvas away, the layout Ctrl+L. */}
        <OverflowButtons
          actions={[
            {
              label: 'Go here',
              onClick: () => void goHere(),
              disabled: !state || !!state.interrupt,
              title: state?.interrupt ? 'an interrupt shows up by itself: there is no way to go there' : 'plan the way to the selected state',
            },
            { label: 'Batch…', onClick: onBatch, title: 'run once per row of a CSV or JSON Lines file' },
            { label: 'Layout', onClick: () => void editor.relayout(wf), title: 'Ctrl+L' },
            { label: 'Settings', onClick: () => setSelected(null), title: 'the workflow’s description, parameters and config' },
          ]}
        />
        <span className={errors.length ? 'status-bad' : 'status-ok'} data-testid="problem-count">
          {errors.length ? `${errors.length} problem${errors.length > 1 ? 's' : ''}` : 'valid'}
        </span>
        <GraphSearch ref={searchBox} workflow={wf} onHit={showHit} />
        {editor.layoutMs != null && <span className="hint" data-testid="layout-ms">layout {Math.round(editor.layoutMs)} ms</span>}
        {editor.laidOut?.coarse && (
          <span className="hint" data-testid="layout-coarse" title="Too large for the full layout, which would take minutes: the states are in plain layers, the start on top, and edges are not routed around them.">
            simple layout
          </span>
        )}
      </div>
      {planned && (
        <RouteBanner
          target={planned.target}
          route={planned.route}
          onGo={() => onGoto(planned.target)}
          onClear={() => setPlanned(null)}
        />
      )}
      <div className="editor-body">
        <GraphCanvas
          workflow={wf}
          positions={positions}
          layout={editor.laidOut}
          diagnostics={diagnostics}
          selected={selected}
          report={report}
          route={planned?.route.states}
          onSelect={setSelected}
          onConnect={(from, to) => edit((w) => m.setNext(w, from, [...new Set([...(w.states.find((s) => s.name === from)?.next ?? []), to])]))}
          layouts={editor.layouts}
          centreOn={centreOn}
          placer={placer}
          onMoved={(name, pos) => editor.setPositions(new Map(positions).set(name, pos))}
        />
        <Splitter panel={statePanel} />
        <aside className="side-panel" ref={statePanel.ref} style={statePanel.style}>
          {state ? (
            <StateForm key={state.name} workflow={wf} state={state} diagnostics={diagnostics} edit={edit} onRenamed={(to) => renamed(state.name, to)} />
          ) : (
            <WorkflowForm workflow={wf} isSkill={isSkill} diagnostics={diagnostics} edit={edit} />
          )}
          <details className="shortcuts">
            <summary>Keyboard shortcuts</summary>
            <dl>
              {SHORTCUTS.map(([k, v]) => (
                <div key={k}>
                  <dt>{k}</dt>
                  <dd>{v}</dd>
                </div>
              ))}
            </dl>
          </details>
        </aside>
      </div>
      {report.findings.length > 0 && (
        <ul className="problem-list finding-list" data-testid="finding-list">
          {report.findings.map((f, i) => (
            <li key={i} title={f.help}>
              <button className="link" onClick={() => setSelected(f.states[0] ?? null)}>
                {f.states[0] ?? 'workflow'}
              </button>
              : {f.message}
            </li>
          ))}
        </ul>
      )}
      {errors.length > 0 && (
        <ul className="problem-list" data-testid="problem-list">
          {errors.map((d, i) => (
            <li key={i}>
              <button
                className="link"
                onClick={() => {
                  const mm = /^states\[(\d+)\]/.exec(d.path);
                  setSelected(mm ? (wf.states[Number(mm[1])]?.name ?? null) : null);
                }}
              >
                {pathInWords(wf, d.path)}
              </button>
              : {d.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
