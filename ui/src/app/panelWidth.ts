//! A side panel's width as the person set it by dragging its splitter or with the arrow
//! keys: never under a floor (its controls still fit), never over a ceiling (what is beside
//! it keeps most of the window), remembered per panel. Until one is set, the style sheet's
//! width holds, which narrows on small screens.

export interface PanelSpec {
  /** The key its width is remembered under. */
  id: string;
  /** What the splitter resizes, in words: its accessible name is "resize <label>". */
  label: string;
  /** The side of its splitter the panel is on: moving the splitter towards it narrows it. */
  side: 'left' | 'right';
  min: number;
  max: number;
  /** The most of the window's width the panel takes, whatever `max` says. */
  share: number;
}

export const PANELS = {
  workflows: { id: 'workflows', label: 'workflows list', side: 'left', min: 170, max: 480, share: 0.28 },
  stateForm: { id: 'state-form', label: 'state panel', side: 'right', min: 280, max: 720, share: 0.4 },
  runSide: { id: 'run-side', label: 'graph and step details', side: 'right', min: 280, max: 760, share: 0.45 },
  reviewList: { id: 'review-list', label: 'review list', side: 'left', min: 180, max: 520, share: 0.35 },
} as const satisfies Record<string, PanelSpec>;

/** Arrow keys move the splitter this far; with Shift, `BIG_STEP`. */
export const STEP = 16;
export const BIG_STEP = 64;

export const storageKey = (spec: PanelSpec) => `statewright.panel.${spec.id}`;

/** The widest the panel may be in a window `windowWidth` wide. */
export function widthCap(spec: PanelSpec, windowWidth: number): number {
  return Math.max(spec.min, Math.min(spec.max, Math.floor(spec.share * windowWidth)));
}

export function clampWidth(spec: PanelSpec, width: number, windowWidth: number): number {
  return Math.round(Math.min(widthCap(spec, windowWidth), Math.max(spec.min, width)));
}

/** The width after the splitter moved `dx` px (rightwards positive) from where a drag began. */
export function dragWidth(spec: PanelSpec, start: number, dx: number, windowWidth: number): number {
  return clampWidth(spec, spec.side === 'left' ? start + dx : start - dx, windowWidth);
}

/** The width after a key on the focused splitter, or null when the key is not the splitter's.
 * The arrows move the splitter, as a drag would; Home and End go to the narrowest and widest. */
export function keyWidth(spec: PanelSpec, width: number, key: string, big: boolean, windowWidth: number): number | null {
  const step = big ? BIG_STEP : STEP;
  if (key === 'ArrowLeft') return dragWidth(spec, width, -step, windowWidth);
  if (key === 'ArrowRight') return dragWidth(spec, width, step, windowWidth);
  if (key === 'Home') return spec.min;
  if (key === 'End') return widthCap(spec, windowWidth);
  return null;
}

/** The remembered width, or null for the style sheet's (never set, reset, or unreadable). */
export function readWidth(storage: Pick<Storage, 'getItem'>, spec: PanelSpec): number | null {
  const stored = Number(storage.getItem(storageKey(spec)) ?? NaN);
  return Number.isFinite(stored) && stored > 0 ? Math.max(spec.min, Math.min(spec.max, stored)) : null;
}
