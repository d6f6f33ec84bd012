//! A unified diff, its added and removed lines coloured (review previews, saved heals).

export function DiffView({ diff }: { diff: string }) {
  return (
    <pre className="diff" data-testid="diff">
      {diff.split('\n').map((l, i) => (
        <span key={i} className={l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : ''}>
          {l}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
