export interface Choice {
  label: string;
  kind?: 'primary' | 'danger';
  onChoose: () => void;
}

/** A question that must be answered before going on (used instead of `window.confirm`,
 * which webviews may not show). */
export function Modal({ title, body, choices }: { title: string; body: string; choices: Choice[] }) {
  return (
    <div className="modal-backdrop">
      <div className="modal" role="alertdialog" aria-label={title}>
        <h3>{title}</h3>
        <p>{body}</p>
        <div className="modal-actions">
          {choices.map((c) => (
            <button key={c.label} className={c.kind ?? ''} onClick={c.onChoose}>
              {c.label}
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
