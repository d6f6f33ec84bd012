import type { Diagnostic } from '../bindings';

/** The diagnostics whose JSON path is `path` or lies inside it. */
export function problemsAt(diagnostics: Diagnostic[] | undefined, path: string, exact = false): Diagnostic[] {
  return (diagnostics ?? []).filter((d) => d.path === path || (!exact && (d.path.startsWith(`${path}.`) || d.path.startsWith(`${path}[`))));
}

/** The validator's messages, shown where they apply. */
export function Problems({ items }: { items: Diagnostic[] }) {
  if (!items.length) return null;
  return (
    <ul className="problems" role="alert">
      {items.map((d, i) => (
        <li key={i} className={`problem ${d.severity}`} data-path={d.path}>
          {d.message}
          {d.help && <span className="problem-help"> — {d.help}</span>}
        </li>
      ))}
    </ul>
  );
}
