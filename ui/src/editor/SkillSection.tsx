//! A skill's own section of the settings form: its preconditions and postconditions, edited
//! like a state's checks, and where it came from, for reading.

import type { Check, Diagnostic, Workflow } from '../bindings';
import { CheckList } from './CheckList';
import * as m from './model';
import { Problems, problemsAt } from './Problems';

type Part = 'pre' | 'post';

const PARTS: [Part, string, string][] = [
  ['pre', 'precondition', 'Preconditions (all hold before it starts)'],
  ['post', 'postcondition', 'Postconditions (all hold once it has ended)'],
];

export function SkillSection({ workflow, diagnostics, edit }: { workflow: Workflow; diagnostics: Diagnostic[]; edit: (f: (wf: Workflow) => Workflow) => void }) {
  // Each edit reads the list as it is then, not as it was drawn.
  const change = (part: Part, f: (checks: Check[]) => Check[]) => edit((wf) => m.setSkillChecks(wf, part, f([...(wf.skill?.[part] ?? [])])));
  const source = workflow.skill?.source;
  return (
    <div className="skill-section" data-testid="skill-section">
      <p className="field-help">Other workflows run it with a use_skill action: its parameters are their arguments, its variables their outputs.</p>
      {PARTS.map(([part, noun, heading]) => (
        <section key={part} aria-label={`${noun}s`}>
          <h4>{heading}</h4>
          <Problems items={problemsAt(diagnostics, `skill.${part}`, true)} />
          <CheckList
            checks={workflow.skill?.[part] ?? []}
            noun={noun}
            path={`skill.${part}`}
            diagnostics={diagnostics}
            onAdd={(c) => change(part, (cs) => [...cs, c])}
            onUpdate={(i, c) => change(part, (cs) => cs.map((x, j) => (j === i ? c : x)))}
            onRemove={(i) => change(part, (cs) => cs.filter((_, j) => j !== i))}
          />
        </section>
      ))}
      {source && (
        <div className="field">
          <span className="field-label">source</span>
          <span className="skill-source" data-testid="skill-source" title="where the skill came from (an imported folder, the runs it was mined from)">
            {source}
          </span>
        </div>
      )}
    </div>
  );
}
