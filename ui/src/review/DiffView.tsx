//! A unified diff, its added and removed lines coloured (review previews, saved heals). A
//! long one opens scrolled to its first change, a few lines of context above it.

import { useLayoutEffect, useRef } from 'react';

const isChange = (l: string) => (l.startsWith('+') || l.startsWith('-')) && !l.startsWith('+++ ') && !l.startsWith('--- ');

export function DiffView({ diff }: { diff: string }) {
  const pre = useRef<HTMLPreElement>(null);
  useLayoutEffect(() => {
    const box = pre.current;
    const first = box?.querySelector<HTMLElement>('[data-change]');
    if (!box || !first) return;
    const line = first.getBoundingClientRect().height || 16;
    box.scrollTop += first.getBoundingClientRect().top - box.getBoundingClientRect().top - 3 * line;
  }, [diff]);
  return (
    <pre className="diff" data-testid="diff" ref={pre}>
      {diff.split('\n').map((l, i) => (
        <span key={i} className={l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : ''} data-change={isChange(l) || undefined}>
          {l}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
