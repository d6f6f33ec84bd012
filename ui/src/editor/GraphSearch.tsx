//! The graph's search box (Ctrl+F): Enter goes to the next hit, Shift+Enter to the
//! previous one, Escape leaves; each hit is selected and centred.

import { forwardRef, useState } from 'react';
import type { Workflow } from '../bindings';
import { searchStates } from './search';

export const GraphSearch = forwardRef<HTMLInputElement, { workflow: Workflow; onHit: (state: string) => void }>(function GraphSearch({ workflow, onHit }, ref) {
  const [query, setQuery] = useState('');
  const [at, setAt] = useState(-1);
  const hits = searchStates(workflow, query);
  const go = (i: number) => {
    if (!hits.length) return;
    const n = (i + hits.length) % hits.length;
    setAt(n);
    onHit(hits[n]);
  };
  return (
    <span className="graph-search">
      <input
        ref={ref}
        type="search"
        aria-label="search states"
        placeholder="Find a state (Ctrl+F)"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setAt(-1);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') go(e.shiftKey ? at - 1 : at + 1);
          if (e.key === 'Escape') e.currentTarget.blur();
        }}
      />
      {query.trim() && (
        <span className="hint" data-testid="search-count">
          {hits.length ? `${at < 0 ? '–' : at + 1}/${hits.length}` : 'no match'}
        </span>
      )}
    </span>
  );
});
