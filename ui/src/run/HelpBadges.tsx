//! Badges for what a run or a step needed beyond its workflow: reviews, heals, retries and
//! model calls; and on a step, the tabs its actions opened. Nothing is shown for a run that
//! went straight through.

import type { Help } from './reducer';

const KINDS: { kind: keyof Help; one: string; many: string; why: string }[] = [
  { kind: 'reviews', one: 'review', many: 'reviews', why: 'a person was asked to unblock the run' },
  { kind: 'heals', one: 'heal', many: 'heals', why: 'a locator or an element check found nothing, and a recorded alternative found the element' },
  { kind: 'retries', one: 'retry', many: 'retries', why: 'a state’s actions were run again after they were not verified' },
  { kind: 'modelCalls', one: 'model call', many: 'model calls', why: 'the model was asked' },
];

/** `short` for the timeline's thumbnails: "heal ×3" instead of "3 heals". `tabs`: a step's
 * actions opened these tabs (their masked addresses), and the run went on in them. */
export function HelpBadges({ help, short = false, tabs = [] }: { help: Partial<Help>; short?: boolean; tabs?: string[] }) {
  const shown = KINDS.filter((k) => (help[k.kind] ?? 0) > 0);
  if (!shown.length && !tabs.length) return null;
  return (
    <span className="help-badges">
      {tabs.length > 0 && (
        <span className="help-badge help-tabs" data-testid="help-tabs" title={tabs.map((url) => `opened a tab; the run went on in it, at ${url}`).join('\n')}>
          {tabs.length === 1 ? 'new tab' : `new tab ×${tabs.length}`}
        </span>
      )}
      {shown.map(({ kind, one, many, why }) => {
        const n = help[kind] ?? 0;
        return (
          <span key={kind} className={`help-badge help-${kind}`} data-testid={`help-${kind}`} title={`${n} ${n === 1 ? one : many}: ${why}`}>
            {short ? (n === 1 ? one : `${one} ×${n}`) : `${n} ${n === 1 ? one : many}`}
          </span>
        );
      })}
    </span>
  );
}
