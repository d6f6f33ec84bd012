import type { ReactNode } from 'react';

export interface Choice {
  label: string;
  kind?: 'primary' | 'danger';
  disabled?: boolean;
  onChoose: () => void;
}

/** A question that must be answered before going on (used instead of `window.confirm`,
 * which webviews may not show). */
export function Modal({ title, body, choices, wide, children }: { title: string; body: string; choices: Choice[]; wide?: boolean; children?: ReactNode }) {
  return (
    <div className="modal-backdrop">
      <div className={wide ? 'modal wide' : 'modal'} role="alertdialog" aria-label={title}>
        <h3>{title}</h3>
        <p>{body}</p>
        {children}
        <div className="modal-actions">
          {choices.map((c) => (
            <button key={c.label} className={c.kind ?? ''} disabled={c.disabled} onClick={c.onChoose}>
              {c.label}
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
