//! The workflow's own settings: description, parameters (secrets marked) and executor config.

import { useState } from 'react';
import type { Diagnostic, Workflow } from '../bindings';
import * as m from './model';
import { Problems, problemsAt } from './Problems';

const CONFIG_FIELDS: [keyof m.Config & string, string][] = [
  ['state_timeout', 'seconds a state may keep matching after its actions'],
  ['no_states_timeout', 'seconds with no state matching before the run fails'],
  ['action_timeout', 'seconds an element action waits for its target'],
  ['action_period', 'seconds between two actions'],
  ['transition_period', 'longest wait between two evaluations'],
  ['recursion_limit', 'most state entries in one run'],
];

const DEFAULTS: Record<string, number | boolean> = {
  state_timeout: 30,
  no_states_timeout: 30,
  action_timeout: 10,
  action_period: 0,
  transition_period: 0.5,
  recursion_limit: 100,
  allow_multiple_states: true,
};

export function WorkflowForm({ workflow, diagnostics, edit }: { workflow: Workflow; diagnostics: Diagnostic[]; edit: (f: (wf: Workflow) => Workflow) => void }) {
  const [newParam, setNewParam] = useState('');
  const [error, setError] = useState<string | null>(null);
  const config = (workflow.config ?? {}) as Record<string, unknown>;
  const tryEdit = (f: (wf: Workflow) => Workflow) => {
    try {
      edit(f);
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <section className="workflow-form" aria-label="workflow settings">
      <h3>Workflow</h3>
      <label className="field">
        <span className="field-label">description</span>
        <textarea aria-label="workflow description" value={workflow.description ?? ''} onChange={(e) => edit((wf) => m.setMeta(wf, { description: e.target.value || undefined }))} />
      </label>
      <h4>Parameters</h4>
      {Object.entries(workflow.parameters ?? {}).map(([name, p]) => (
        <div key={name} className="list-item param" data-testid={`param-${name}`}>
          <div className="list-item-head">
            <code>{`{{${name}}}`}</code>
            <label className="negate">
              <input type="checkbox" aria-label={`${name} secret`} checked={!!p.secret} onChange={(e) => edit((wf) => m.setParameter(wf, name, { ...p, secret: e.target.checked || undefined }))} />
              secret
            </label>
            <button aria-label={`remove parameter ${name}`} onClick={() => edit((wf) => m.removeParameter(wf, name))}>
              ✕
            </button>
          </div>
          <label className="field">
            <span className="field-label">default</span>
            <input
              aria-label={`${name} default`}
              type={p.secret ? 'password' : 'text'}
              placeholder="required when empty"
              value={p.default ?? ''}
              onChange={(e) => edit((wf) => m.setParameter(wf, name, { ...p, default: e.target.value === '' ? undefined : e.target.value }))}
            />
          </label>
          <Problems items={problemsAt(diagnostics, `parameters.${name}`)} />
        </div>
      ))}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          tryEdit((wf) => m.setParameter(wf, newParam, {}));
          setNewParam('');
        }}
      >
        <input aria-label="new parameter name" placeholder="new parameter" value={newParam} onChange={(e) => setNewParam(e.target.value)} />
        <button type="submit" disabled={!newParam.trim()}>
          Add
        </button>
      </form>
      {error && <p className="problem error">{error}</p>}
      <h4>Config</h4>
      <label className="field" title="when several states match: first wins, or the run fails">
        <span className="field-label">allow_multiple_states</span>
        <input
          type="checkbox"
          aria-label="allow_multiple_states"
          checked={(config.allow_multiple_states as boolean | undefined) ?? true}
          onChange={(e) => edit((wf) => m.setConfig(wf, { allow_multiple_states: e.target.checked }))}
        />
      </label>
      {CONFIG_FIELDS.map(([key, help]) => (
        <label key={key} className="field" title={help}>
          <span className="field-label">{key}</span>
          <input
            type="number"
            step="any"
            min={0}
            aria-label={key}
            value={(config[key] as number | undefined) ?? (DEFAULTS[key] as number)}
            onChange={(e) => edit((wf) => m.setConfig(wf, { [key]: Number(e.target.value) }))}
          />
          <Problems items={problemsAt(diagnostics, `config.${key}`)} />
        </label>
      ))}
      <Problems items={problemsAt(diagnostics, 'config')} />
    </section>
  );
}
