//! A small map of names to texts, one row each (a `use_skill`'s arguments and outputs): the
//! name edited in place, the value beside it, each row with the validator's messages for it,
//! and a menu that adds the rows worth adding (a skill's parameters, its variables).

import { useEffect, useId, useState, type ReactNode } from 'react';
import type { Diagnostic } from '../bindings';
import { EditError, renameKey } from './model';
import { Problems, problemsAt } from './Problems';

export interface RowChoice {
  name: string;
  label: string;
  title?: string;
}

/** The menu's entry for a row with a name of one's own. */
const OTHER = '\u0000other';

function NameInput({ name, label, onRename }: { name: string; label: string; onRename: (to: string) => boolean }) {
  const [draft, setDraft] = useState(name);
  useEffect(() => setDraft(name), [name]);
  // A refused name (another row's) goes back to the row's own.
  const commit = () => draft !== name && !onRename(draft) && setDraft(name);
  return (
    <input
      className="kv-name"
      aria-label={label}
      placeholder="name"
      autoFocus={name === ''}
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

export function KeyValueRows(p: {
  /** What one row is, in words: `argument`, `output`. */
  noun: string;
  /** What the name is: `name`, `variable`. */
  nameLabel: string;
  entries: Record<string, string> | undefined;
  /** Undefined once the last row is removed: the field is then left out of the file. */
  onChange: (next: Record<string, string> | undefined) => void;
  /** The map's JSON path; a row's problems are at `path.NAME`. */
  path: string;
  diagnostics?: Diagnostic[];
  separator: string;
  valuePlaceholder: string;
  /** Values to suggest as one types (a skill's variables). */
  valueSuggestions?: string[];
  /** Beside a row's name (e.g. that the skill requires it). */
  tag?: (name: string) => ReactNode;
  choices: RowChoice[];
  /** The row a choice adds. */
  start: (choice: string) => [string, string];
}) {
  const entries = p.entries ?? {};
  const rows = Object.entries(entries);
  const listId = useId();
  const put = (next: Record<string, string>) => p.onChange(Object.keys(next).length ? next : undefined);
  const rename = (from: string, to: string) => {
    try {
      put(renameKey(entries, from, to.trim()));
      return true;
    } catch (e) {
      if (e instanceof EditError) return false;
      throw e;
    }
  };
  const add = (choice: string) => {
    const [name, value] = choice === OTHER ? ['', ''] : p.start(choice);
    if (!(name in entries)) put({ ...entries, [name]: value });
  };
  return (
    <div className="kv-rows">
      {rows.map(([name, value], i) => (
        <div key={i} className="kv-row" data-testid={`${p.noun}-row`} data-name={name}>
          <div className="kv-line">
            <NameInput name={name} label={`${p.noun} ${i + 1} ${p.nameLabel}`} onRename={(to) => rename(name, to)} />
            {p.tag?.(name)}
            <span className="kv-separator" aria-hidden>
              {p.separator}
            </span>
            <input
              className="kv-value"
              aria-label={name ? `${p.noun} ${name}` : `new ${p.noun} value`}
              placeholder={p.valuePlaceholder}
              list={p.valueSuggestions ? listId : undefined}
              value={value}
              onChange={(e) => put({ ...entries, [name]: e.target.value })}
            />
            <button
              aria-label={`remove ${p.noun} ${name}`}
              onClick={() => {
                const { [name]: _, ...rest } = entries;
                put(rest);
              }}
            >
              ✕
            </button>
          </div>
          <Problems items={problemsAt(p.diagnostics, `${p.path}.${name}`)} />
        </div>
      ))}
      {p.valueSuggestions && (
        <datalist id={listId}>
          {p.valueSuggestions.map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      )}
      <select aria-label={`add ${p.noun}`} className="add-menu" value="" onChange={(e) => e.target.value && add(e.target.value)}>
        <option value="">+ add {p.noun}…</option>
        {p.choices.map((c) => (
          <option key={c.name} value={c.name} title={c.title}>
            {c.label}
          </option>
        ))}
        <option value={OTHER}>another name…</option>
      </select>
    </div>
  );
}
