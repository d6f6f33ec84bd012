//! The executor's config in the workflow form: each setting named in words with one line of
//! help, its YAML key in the tooltip for people who also edit the file.

import type { Diagnostic, Workflow } from '../bindings';
import * as m from './model';
import { Problems, problemsAt } from './Problems';

type NumberKey = Exclude<keyof m.Config & string, 'allow_multiple_states'>;

/** Key, label, help, and the value the engine assumes when the key is absent. */
const NUMBERS: [NumberKey, string, string, number][] = [
  ['state_timeout', 'State timeout (s)', 'How long a state may keep matching after its actions before the run fails.', 30],
  ['no_states_timeout', 'No-state timeout (s)', 'How long no state may match before the run fails.', 30],
  ['action_timeout', 'Action timeout (s)', 'How long an element action waits for its target.', 10],
  ['action_period', 'Pause between actions (s)', 'A wait after each action, for pages that need time.', 0],
  ['transition_period', 'Look interval (s)', 'The longest wait between two looks at the page.', 0.5],
  ['recursion_limit', 'State entry limit', 'The most state entries in one run; a loop that passes it fails.', 100],
];

const MULTIPLE = {
  label: 'Allow several matching states',
  help: 'When several states match, the first by priority wins; off: the run fails.',
};

export function ConfigFields({ workflow, diagnostics, edit }: { workflow: Workflow; diagnostics: Diagnostic[]; edit: (f: (wf: Workflow) => Workflow) => void }) {
  const config = (workflow.config ?? {}) as Record<string, unknown>;
  return (
    <div className="config-fields">
      <div className="config-field" title="allow_multiple_states">
        <label className="config-check">
          <input
            type="checkbox"
            checked={(config.allow_multiple_states as boolean | undefined) ?? true}
            aria-describedby="help-allow_multiple_states"
            onChange={(e) => edit((wf) => m.setConfig(wf, { allow_multiple_states: e.target.checked }))}
          />
          <span className="config-label">{MULTIPLE.label}</span>
        </label>
        <p className="field-help" id="help-allow_multiple_states">
          {MULTIPLE.help}
        </p>
      </div>
      {NUMBERS.map(([key, label, help, fallback]) => (
        <div key={key} className="config-field" title={key}>
          <label className="config-number">
            <span className="config-label">{label}</span>
            <input
              type="number"
              step="any"
              min={0}
              aria-describedby={`help-${key}`}
              value={(config[key] as number | undefined) ?? fallback}
              onChange={(e) => edit((wf) => m.setConfig(wf, { [key]: Number(e.target.value) }))}
            />
          </label>
          <p className="field-help" id={`help-${key}`}>
            {help}
          </p>
          <Problems items={problemsAt(diagnostics, `config.${key}`)} />
        </div>
      ))}
    </div>
  );
}
