//! One generic form for every check and action variant, driven by `fields.ts`. Each field
//! shows the validator's messages for its own JSON path.

import type { Diagnostic } from '../bindings';
import { applies, choicesOf, ROW_KINDS, type FieldSpec } from './fields';
import { Problems, problemsAt } from './Problems';
import { SkillArgumentsField, SkillNameField, SkillOutputsField } from './UseSkillFields';

type Obj = Record<string, unknown>;

const LOCATORS = ['css', 'xpath', 'text', 'role'] as const;
const TAB_MODES = ['contains', 'exact', 'pattern'] as const;

function TargetField({ value, onChange, label }: { value: Obj | undefined; onChange: (v: Obj | undefined) => void; label: string }) {
  const t = value ?? {};
  const kind = LOCATORS.find((k) => t[k] != null) ?? 'css';
  return (
    <div className="target-field">
      <select aria-label={`${label} locator`} value={kind} onChange={(e) => onChange({ [e.target.value]: (t[kind] as string) ?? '' })}>
        {LOCATORS.map((k) => (
          <option key={k}>{k}</option>
        ))}
      </select>
      <input aria-label={`${label} ${kind}`} value={(t[kind] as string) ?? ''} onChange={(e) => onChange({ ...t, [kind]: e.target.value })} />
      {kind === 'role' && <input aria-label={`${label} name`} placeholder="accessible name" value={(t.name as string) ?? ''} onChange={(e) => onChange({ ...t, name: e.target.value || undefined })} />}
      {(kind === 'text' || kind === 'role') && (
        <label className="target-loose" title="Found in any case and within a longer text, as a person reads it (exact: false)">
          <input type="checkbox" aria-label={`${label} loosely`} checked={t.exact === false} onChange={(e) => onChange({ ...t, exact: e.target.checked ? false : undefined })} />
          loosely
        </label>
      )}
    </div>
  );
}

/** One field; `obj`, `path` and `diagnostics` are the whole object's, for the fields that
 * depend on a sibling (a skill's arguments on the skill) or place problems row by row. */
function Field({ spec, value, set, obj, path, diagnostics }: { spec: FieldSpec; value: unknown; set: (v: unknown) => void; obj: Obj; path: string; diagnostics?: Diagnostic[] }) {
  const label = spec.key;
  switch (spec.kind) {
    case 'skill':
      return <SkillNameField value={(value as string) ?? ''} set={set} />;
    case 'arguments':
      return <SkillArgumentsField action={obj} path={`${path}.${spec.key}`} diagnostics={diagnostics} set={set} />;
    case 'outputs':
      return <SkillOutputsField action={obj} path={`${path}.${spec.key}`} diagnostics={diagnostics} set={set} />;
    case 'bool':
      return <input type="checkbox" aria-label={label} checked={(value ?? spec.fallback ?? false) as boolean} onChange={(e) => set(e.target.checked === spec.fallback ? undefined : e.target.checked)} />;
    case 'enum':
      return (
        <select aria-label={label} value={(value ?? spec.fallback ?? '') as string} onChange={(e) => set(spec.optional && e.target.value === spec.fallback ? undefined : e.target.value)}>
          {spec.options!.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      );
    case 'number':
      return (
        <input
          type="number"
          aria-label={label}
          step="any"
          placeholder={spec.fallback != null ? String(spec.fallback) : ''}
          value={value == null ? '' : String(value)}
          onChange={(e) => set(e.target.value === '' ? (spec.optional ? undefined : 0) : Number(e.target.value))}
        />
      );
    case 'target':
      return <TargetField label={label} value={value as Obj | undefined} onChange={(v) => set(v)} />;
    case 'window': {
      const w = (value ?? {}) as Obj;
      const put = (k: string, v: string) => {
        const next = { ...w, [k]: v || undefined };
        set(spec.optional && !next.title && !next.app_class ? undefined : next);
      };
      return (
        <span className="window-field">
          <input aria-label={`${label} title`} placeholder="title" value={(w.title as string) ?? ''} onChange={(e) => put('title', e.target.value)} />
          <input aria-label={`${label} class`} placeholder="app class" value={(w.app_class as string) ?? ''} onChange={(e) => put('app_class', e.target.value)} />
        </span>
      );
    }
    case 'tab': {
      const t = (value ?? {}) as Obj;
      const put = (k: string, v: string | undefined) => {
        const next = { ...t, [k]: v || undefined };
        set(!next.url && !next.title && !next.match ? undefined : next);
      };
      return (
        <span className="window-field">
          <input aria-label={`${label} url`} placeholder="address (empty: previous tab)" value={(t.url as string) ?? ''} onChange={(e) => put('url', e.target.value)} />
          <input aria-label={`${label} title`} placeholder="title" value={(t.title as string) ?? ''} onChange={(e) => put('title', e.target.value)} />
          <select aria-label={`${label} match`} value={(t.match as string) ?? 'contains'} onChange={(e) => put('match', e.target.value === 'contains' ? undefined : e.target.value)}>
            {TAB_MODES.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </span>
      );
    }
    case 'point': {
      const p = (value ?? { x: 0, y: 0 }) as { x: number; y: number };
      return (
        <span className="point-field">
          <input type="number" aria-label={`${label} x`} value={p.x} onChange={(e) => set({ ...p, x: Number(e.target.value) })} />
          <input type="number" aria-label={`${label} y`} value={p.y} onChange={(e) => set({ ...p, y: Number(e.target.value) })} />
        </span>
      );
    }
    case 'lines':
      // Paths may hold spaces: one a line. An empty line stays while it is being written
      // (the validator names it), or the next line could not be begun.
      return <textarea aria-label={label} rows={2} placeholder="one per line" value={((value as string[]) ?? []).join('\n')} onChange={(e) => set(e.target.value === '' ? [] : e.target.value.split('\n'))} />;
    case 'choices': {
      // One entry a line: one line is one string (as files before lists were allowed have
      // it), several a list; a label may hold a comma, so nothing else splits it.
      const entries = value == null ? [] : typeof value === 'string' ? [value] : (value as string[]);
      return <textarea aria-label={label} rows={2} placeholder="one per line" value={entries.join('\n')} onChange={(e) => set(choicesOf(e.target.value, spec.optional))} />;
    }
    case 'strings':
      return <input aria-label={label} placeholder="space-separated" value={((value as string[]) ?? []).join(' ')} onChange={(e) => set(e.target.value.trim() ? e.target.value.split(/\s+/) : undefined)} />;
    default:
      return <input aria-label={label} value={(value as string) ?? ''} onChange={(e) => set(spec.optional && e.target.value === '' ? undefined : e.target.value)} />;
  }
}

export function ObjectForm<T extends { type: string }>(p: {
  value: T;
  fields: FieldSpec[];
  onChange: (v: T) => void;
  path: string;
  diagnostics?: Diagnostic[];
}) {
  const obj = p.value as unknown as Obj;
  const set = (key: string) => (v: unknown) => {
    const next: Obj = { ...obj, [key]: v };
    if (v === undefined) delete next[key];
    p.onChange(next as unknown as T);
  };
  const own = (p.diagnostics ?? []).filter((d) => d.path === p.path);
  return (
    <div className="object-form">
      {p.fields
        .filter((f) => applies(f, obj, p.fields))
        .map((f) => {
          const field = <Field spec={f} value={obj[f.key]} set={set(f.key)} obj={obj} path={p.path} diagnostics={p.diagnostics} />;
          // Rows are a group, not one control's label, and show their own problems.
          return ROW_KINDS.includes(f.kind) ? (
            <div key={f.key} className="field rows-field" role="group" aria-label={f.key} title={f.help}>
              <span className="field-label">{f.key}</span>
              {field}
              <Problems items={problemsAt(p.diagnostics, `${p.path}.${f.key}`, true)} />
            </div>
          ) : (
            <label key={f.key} className="field" title={f.help}>
              <span className="field-label">{f.key}</span>
              {field}
              <Problems items={problemsAt(p.diagnostics, `${p.path}.${f.key}`)} />
            </label>
          );
        })}
      <Problems items={own} />
    </div>
  );
}
