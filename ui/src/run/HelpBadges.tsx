//! Badges for what a run or a step needed beyond its workflow: reviews, heals, retries and
//! model calls. Nothing is shown for a run that went straight through.

import type { Help } from './reducer';

const KINDS: { kind: keyof Help; one: string; many: string; why: string }[] = [
  { kind: 'reviews', one: 'review', many: 'reviews', why: 'a person was asked to unblock the run' },
  { kind: 'heals', one: 'heal', many: 'heals', why: 'a locator or an element check found nothing, and a recorded alternative found the element' },
  { kind: 'retries', one: 'retry', many: 'retries', why: 'a state’s actions were run again after they were not verified' },
  { kind: 'modelCalls', one: 'model call', many: 'model calls', why: 'the model was asked' },
];

/** `short` for the timeline's thumbnails: "heal ×3" instead of "3 heals". */
export function HelpBadges({ help, short = false }: { help: Partial<Help>; short?: boolean }) {
  const shown = KINDS.filter((k) => (help[k.kind] ?? 0) > 0);
  if (!shown.length) return null;
  return (
    <span className="help-badges">
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
