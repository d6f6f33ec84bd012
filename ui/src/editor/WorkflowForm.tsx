//! The workflow's own settings: description, a skill's pre- and postconditions, parameters
//! (secrets marked) and executor config.

import { useState } from 'react';
import type { Diagnostic, Workflow } from '../bindings';
import { ConfigFields } from './ConfigFields';
import * as m from './model';
import { Problems, problemsAt } from './Problems';
import { SkillSection } from './SkillSection';

export function WorkflowForm({ workflow, isSkill, diagnostics, edit }: { workflow: Workflow; isSkill: boolean; diagnostics: Diagnostic[]; edit: (f: (wf: Workflow) => Workflow) => void }) {
  const [newParam, setNewParam] = useState('');
  const [error, setError] = useState<string | null>(null);
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
      <h3>{isSkill ? 'Skill' : 'Workflow'}</h3>
      <label className="field">
        <span className="field-label">description</span>
        <textarea aria-label="workflow description" value={workflow.description ?? ''} onChange={(e) => edit((wf) => m.setMeta(wf, { description: e.target.value || undefined }))} />
      </label>
      {isSkill && <SkillSection workflow={workflow} diagnostics={diagnostics} edit={edit} />}
      <h4>{isSkill ? 'Parameters (its arguments)' : 'Parameters'}</h4>
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
      <ConfigFields workflow={workflow} diagnostics={diagnostics} edit={edit} />
      <Problems items={problemsAt(diagnostics, 'config')} />
    </section>
  );
}
