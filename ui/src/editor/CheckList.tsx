//! A list of checks, each with its type, `not`, its fields and a remove button, and a menu
//! to add one: a state's checks, a skill's pre- and postconditions.

import type { Check, Diagnostic } from '../bindings';
import { AddMenu } from './AddMenu';
import { CHECK_FIELDS, CHECK_TYPES, newCheck } from './fields';
import { ObjectForm } from './ObjectForm';

export function CheckList(p: {
  checks: Check[];
  /** What one check is called here (labels, test ids): `check`, `precondition`… */
  noun?: string;
  /** The list's JSON path: check i is at `path[i]`. */
  path: string;
  diagnostics: Diagnostic[];
  onAdd: (c: Check) => void;
  onUpdate: (i: number, c: Check) => void;
  onRemove: (i: number) => void;
}) {
  const noun = p.noun ?? 'check';
  return (
    <>
      {p.checks.map((c, i) => (
        <div key={i} className="list-item" data-testid={`${noun}-${i}`}>
          <div className="list-item-head">
            <select aria-label={`${noun} ${i + 1} type`} value={c.type} onChange={(e) => p.onUpdate(i, newCheck(e.target.value as Check['type']))}>
              {CHECK_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
            <label className="negate">
              <input type="checkbox" aria-label={`${noun} ${i + 1} negate`} checked={!!c.negate} onChange={(e) => p.onUpdate(i, { ...c, negate: e.target.checked || undefined } as Check)} />
              not
            </label>
            <button aria-label={`remove ${noun} ${i + 1}`} onClick={() => p.onRemove(i)}>
              ✕
            </button>
          </div>
          <ObjectForm value={c} fields={CHECK_FIELDS[c.type]} path={`${p.path}[${i}]`} diagnostics={p.diagnostics} onChange={(v) => p.onUpdate(i, v)} />
        </div>
      ))}
      <AddMenu label={`add ${noun}`} types={CHECK_TYPES} onAdd={(t) => p.onAdd(newCheck(t as Check['type']))} />
    </>
  );
}
