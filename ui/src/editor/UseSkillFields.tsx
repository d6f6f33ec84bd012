//! The fields of a `use_skill` action: which skill (one of the skills folder's, or a name
//! typed), its arguments (the skill's parameters offered, the required ones marked) and
//! its outputs (a variable here ← one of the skill's variables).

import { useContext, useState } from 'react';
import type { Diagnostic } from '../bindings';
import { KeyValueRows } from './KeyValueRows';
import { SkillLibraryContext, useSkillDefinition } from './SkillLibrary';
import { skillParameters, skillVariables } from './skills';

type UseSkill = { skill?: string; args?: Record<string, string>; outputs?: Record<string, string> };
type Set = (v: unknown) => void;

/** The select's entry for a skill that is not (yet) in the skills folder. */
const ANOTHER = '\u0000another';

export function SkillNameField({ value, set }: { value: string; set: Set }) {
  const { names } = useContext(SkillLibraryContext);
  const [typing, setTyping] = useState(false);
  const choice = typing || (value && !names.includes(value)) ? ANOTHER : value;
  return (
    <span className="skill-field">
      <select
        aria-label="skill"
        value={choice}
        onChange={(e) => {
          const picked = e.target.value;
          setTyping(picked === ANOTHER);
          if (picked !== ANOTHER) set(picked);
        }}
      >
        <option value="" disabled>
          choose a skill…
        </option>
        {names.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
        <option value={ANOTHER}>another skill…</option>
      </select>
      {choice === ANOTHER && <input aria-label="skill name" placeholder="NAME of skills/NAME.json" value={value} onChange={(e) => set(e.target.value)} />}
    </span>
  );
}

/** Why no parameters are offered, when none are. */
function SkillUnknown({ name }: { name: string }) {
  const { names } = useContext(SkillLibraryContext);
  if (!name) return null;
  return <p className="field-help">{names.includes(name) ? 'Reading the skill…' : `No skills/${name}.json in the skills folder: its parameters and variables are not known.`}</p>;
}

interface MapFieldProps {
  action: UseSkill;
  path: string;
  diagnostics?: Diagnostic[];
  set: Set;
}

export function SkillArgumentsField({ action, path, diagnostics, set }: MapFieldProps) {
  const skill = useSkillDefinition(action.skill ?? '');
  const params = skill ? skillParameters(skill) : [];
  const given = action.args ?? {};
  const param = (name: string) => params.find((p) => p.name === name);
  return (
    <>
      <KeyValueRows
        noun="argument"
        nameLabel="name"
        entries={action.args}
        onChange={set}
        path={path}
        diagnostics={diagnostics}
        separator="="
        valuePlaceholder="text, {{name}} works"
        tag={(name) =>
          param(name)?.required && (
            <span className="kv-tag" title="the skill has no default for it: every use passes it">
              required
            </span>
          )
        }
        choices={params.filter((p) => !(p.name in given)).map((p) => ({ name: p.name, label: p.required ? `${p.name} (required)` : p.name, title: p.description }))}
        start={(name) => [name, '']}
      />
      {!skill && <SkillUnknown name={action.skill ?? ''} />}
    </>
  );
}

export function SkillOutputsField({ action, path, diagnostics, set }: MapFieldProps) {
  const skill = useSkillDefinition(action.skill ?? '');
  const variables = skill ? skillVariables(skill) : [];
  const outputs = action.outputs ?? {};
  const copied = Object.values(outputs);
  return (
    <KeyValueRows
      noun="output"
      nameLabel="variable"
      entries={action.outputs}
      onChange={set}
      path={path}
      diagnostics={diagnostics}
      separator="←"
      valuePlaceholder="the skill's variable"
      valueSuggestions={variables}
      choices={variables.filter((v) => !copied.includes(v)).map((v) => ({ name: v, label: v }))}
      // The same name here as in the skill, unless that is taken.
      start={(v) => [v in outputs ? `${v}_2` : v, v]}
    />
  );
}
