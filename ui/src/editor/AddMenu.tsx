//! A select that adds one of `types` (a check, an action) and goes back to its prompt.

export function AddMenu({ label, types, onAdd }: { label: string; types: string[]; onAdd: (t: string) => void }) {
  return (
    <select
      aria-label={label}
      className="add-menu"
      value=""
      onChange={(e) => {
        if (e.target.value) onAdd(e.target.value);
      }}
    >
      <option value="">+ {label}…</option>
      {types.map((t) => (
        <option key={t} value={t}>
          {t}
        </option>
      ))}
    </select>
  );
}
