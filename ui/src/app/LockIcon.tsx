//! A padlock drawn inline: the 🔒 emoji rendered as an empty box in WebKitGTK without a
//! colour emoji font, and an SVG ships with the app.

export function LockIcon({ title = 'secret' }: { title?: string }) {
  return (
    <svg className="icon" data-testid="lock-icon" width="12" height="12" viewBox="0 0 12 12" role="img" aria-label={title}>
      <title>{title}</title>
      <path d="M3.5 5V3.5a2.5 2.5 0 0 1 5 0V5" fill="none" stroke="currentColor" strokeWidth="1.4" />
      <rect x="2" y="5" width="8" height="6" rx="1.2" fill="currentColor" />
    </svg>
  );
}
