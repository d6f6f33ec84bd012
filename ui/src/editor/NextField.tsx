//! A state's `next`: a checkbox for each other state. In a large workflow only the chosen
//! ones and those matching a filter are listed: 2,000 checkboxes took a third of a second
//! to draw on each selection, and as long again to compare on each keystroke elsewhere in
//! the form.

import { memo, useState } from 'react';

/** Up to this many other states, every one has its checkbox (the list a person scans). */
export const ALL_OPTIONS_UP_TO = 200;
/** How many unchosen states a filter lists at most. */
const MATCHES_SHOWN = 50;

interface NextFieldProps {
  /** The other states, in priority order. */
  others: string[];
  next: string[];
  onChange: (next: string[]) => void;
}

function NextOptions({ others, next, onChange }: NextFieldProps) {
  const [filter, setFilter] = useState('');
  const chosen = new Set(next);
  const large = others.length > ALL_OPTIONS_UP_TO;
  const q = filter.trim().toLowerCase();
  const matching = large && q ? others.filter((o) => !chosen.has(o) && o.toLowerCase().includes(q)) : [];
  const listed = large ? [...others.filter((o) => chosen.has(o)), ...matching.slice(0, MATCHES_SHOWN)] : others;
  return (
    <>
      {large && (
        <input type="search" className="next-filter" aria-label="find a next state" placeholder={`Find one of ${others.length} states`} value={filter} onChange={(e) => setFilter(e.target.value)} />
      )}
      <div className="next-options">
        {listed.map((o) => (
          <label key={o} className="next-option">
            <input type="checkbox" checked={chosen.has(o)} onChange={(e) => onChange(e.target.checked ? [...next, o] : next.filter((n) => n !== o))} />
            {o}
          </label>
        ))}
      </div>
      {matching.length > MATCHES_SHOWN && <span className="hint">{matching.length - MATCHES_SHOWN} more match: type more of the name</span>}
      {large && q && !matching.length && <span className="hint">no other state matches</span>}
    </>
  );
}

const sameNames = (a: string[], b: string[]) => a === b || (a.length === b.length && a.every((x, i) => x === b[i]));

/** Drawn again only when the states or the choice change: typing in another field of the
 * form makes a new `others` and `onChange` on every keystroke, with the same names. The
 * `onChange` kept is the one of the last change, which edits by the state's name. */
export const NextField = memo(NextOptions, (a, b) => sameNames(a.others, b.others) && sameNames(a.next, b.next));
