//! The run's outputs, where a person looks when a run ends: what its extract actions read,
//! by variable, as extracted so far while it runs and as the run reported them at the end.

import { ValuePreview } from './ValuePreview';

export function RunOutputs({ outputs }: { outputs: Record<string, unknown> }) {
  const names = Object.keys(outputs);
  if (!names.length) return null;
  return (
    <details className="run-outputs" data-testid="run-outputs" open>
      <summary>
        Outputs <span className="hint">{names.length}</span>
      </summary>
      <dl>
        {names.map((name) => (
          <div key={name} className="output" data-output={name}>
            <dt>
              <code>{name}</code>
            </dt>
            <dd>
              <ValuePreview value={outputs[name]} />
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
