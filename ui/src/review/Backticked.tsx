//! Engine messages quote names in `backticks`: shown as code, not as raw punctuation.

export function Backticked({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}
    </>
  );
}
