//! The form of one state: name, priority, terminal outcome, `next`, checks and actions.

import { useEffect, useState } from 'react';
import type { Action, Diagnostic, State, Workflow } from '../bindings';
import { AddMenu } from './AddMenu';
import { CheckList } from './CheckList';
import { ACTION_FIELDS, ACTION_TYPES, newAction } from './fields';
import * as m from './model';
import { NextField } from './NextField';
import { ObjectForm } from './ObjectForm';
import { Problems, problemsAt } from './Problems';

export interface StateFormProps {
  workflow: Workflow;
  state: State;
  diagnostics: Diagnostic[];
  edit: (f: (wf: Workflow) => Workflow) => boolean;
  onRenamed: (name: string) => void;
}

function NameField({ name, onRename }: { name: string; onRename: (n: string) => boolean }) {
  const [draft, setDraft] = useState(name);
  useEffect(() => setDraft(name), [name]);
  // A refused name (taken, empty) goes back to the state's own.
  const commit = () => draft !== name && !onRename(draft) && setDraft(name);
  return (
    <input
      aria-label="state name"
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        if (e.key === 'Escape') setDraft(name);
      }}
    />
  );
}

export function StateForm({ workflow, state, diagnostics, edit, onRenamed }: StateFormProps) {
  const index = workflow.states.findIndex((s) => s.name === state.name);
  const path = `states[${index}]`;
  const name = state.name;
  const others = workflow.states.filter((s) => s.name !== name).map((s) => s.name);
  return (
    <section className="state-form" aria-label={`state ${name}`}>
      <h3>State</h3>
      <label className="field">
        <span className="field-label">name</span>
        <NameField
          name={name}
          onRename={(to) => {
            // Only a rename that happened moves the selection: a refused one stays on this state.
            const renamed = edit((wf) => m.renameState(wf, name, to));
            if (renamed) onRenamed(to.trim());
            return renamed;
          }}
        />
        <Problems items={problemsAt(diagnostics, `${path}.name`)} />
      </label>
      <div className="field">
        <span className="field-label">priority</span>
        <span className="priority-edit">
          <button title="check earlier (Alt+↑)" aria-label="raise priority" disabled={index === 0} onClick={() => edit((wf) => m.moveState(wf, name, index - 1))}>
            ↑
          </button>
          <input type="number" aria-label="priority" min={1} max={workflow.states.length} value={index + 1} onChange={(e) => edit((wf) => m.moveState(wf, name, Number(e.target.value) - 1))} />
          <button title="check later (Alt+↓)" aria-label="lower priority" disabled={index === workflow.states.length - 1} onClick={() => edit((wf) => m.moveState(wf, name, index + 1))}>
            ↓
          </button>
          <span className="hint">of {workflow.states.length}</span>
        </span>
      </div>
      <label className="field">
        <span className="field-label">description</span>
        <input aria-label="state description" value={state.description ?? ''} onChange={(e) => edit((wf) => m.updateState(wf, name, { description: e.target.value || undefined }))} />
      </label>
      <label className="field">
        <span className="field-label">continuous</span>
        <input type="checkbox" aria-label="continuous" checked={!!state.continuous} onChange={(e) => edit((wf) => m.updateState(wf, name, { continuous: e.target.checked || undefined }))} />
      </label>
      <label className="field">
        <span className="field-label">terminal</span>
        <select
          aria-label="terminal outcome"
          value={state.terminal?.outcome ?? ''}
          onChange={(e) => edit((wf) => m.updateState(wf, name, { terminal: e.target.value ? { outcome: e.target.value as 'success' | 'failure', message: state.terminal?.message } : undefined }))}
        >
          <option value="">not terminal</option>
          <option value="success">success</option>
          <option value="failure">failure</option>
        </select>
        {state.terminal && (
          <input aria-label="terminal message" placeholder="message" value={state.terminal.message ?? ''} onChange={(e) => edit((wf) => m.updateState(wf, name, { terminal: { ...state.terminal!, message: e.target.value || undefined } }))} />
        )}
      </label>
      <fieldset className="next-field">
        <legend>next</legend>
        <NextField others={others} next={state.next ?? []} onChange={(next) => edit((wf) => m.setNext(wf, name, next))} />
        <Problems items={problemsAt(diagnostics, `${path}.next`)} />
      </fieldset>

      <h4>Checks (all must hold)</h4>
      <Problems items={problemsAt(diagnostics, `${path}.checks`, true)} />
      <CheckList
        checks={state.checks ?? []}
        path={`${path}.checks`}
        diagnostics={diagnostics}
        onAdd={(c) => edit((wf) => m.addCheck(wf, name, c))}
        onUpdate={(i, c) => edit((wf) => m.updateCheck(wf, name, i, c))}
        onRemove={(i) => edit((wf) => m.removeCheck(wf, name, i))}
      />

      <h4>Actions (in order)</h4>
      {(state.actions ?? []).map((a, i) => (
        <div key={i} className="list-item" data-testid={`action-${i}`}>
          <div className="list-item-head">
            <span className="list-index">{i + 1}.</span>
            <select aria-label={`action ${i + 1} type`} value={a.type} onChange={(e) => edit((wf) => m.updateAction(wf, name, i, newAction(e.target.value as Action['type'])))}>
              {ACTION_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
            <button aria-label={`move action ${i + 1} up`} disabled={i === 0} onClick={() => edit((wf) => m.moveAction(wf, name, i, i - 1))}>
              ↑
            </button>
            <button aria-label={`remove action ${i + 1}`} onClick={() => edit((wf) => m.removeAction(wf, name, i))}>
              ✕
            </button>
          </div>
          <ObjectForm value={a} fields={ACTION_FIELDS[a.type]} path={`${path}.actions[${i}]`} diagnostics={diagnostics} onChange={(v) => edit((wf) => m.updateAction(wf, name, i, v))} />
        </div>
      ))}
      <AddMenu label="add action" types={ACTION_TYPES} onAdd={(t) => edit((wf) => m.addAction(wf, name, newAction(t as Action['type'])))} />

      <div className="danger-zone">
        <button className="danger" onClick={() => edit((wf) => m.deleteState(wf, name))}>
          Delete state
        </button>
      </div>
    </section>
  );
}
