//! Where a new state goes: the nearest free spot to the selected state (just below it, the
//! way `next` edges flow) or to the middle of the view, never on top of another node; and
//! how far the view must move for the person to see it land.

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Clear space kept around a placed node, so edges and selection rings stay readable. */
export const GAP = 40;
/** How many grid steps out from the preferred spot are tried before giving up on free space. */
const REACH = 12;

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width + GAP && b.x < a.x + a.width + GAP && a.y < b.y + b.height + GAP && b.y < a.y + a.height + GAP;

/** The top-left corner for a node of `size`: below `near` when it is a node, centred on it
 * when it is a point, or the closest spot on a grid around there that clears every `taken` box. */
export function freeSpot(taken: Box[], near: Box | { x: number; y: number }, size: { width: number; height: number }): { x: number; y: number } {
  const preferred =
    'width' in near ? { x: near.x, y: near.y + near.height + GAP } : { x: near.x - size.width / 2, y: near.y - size.height / 2 };
  const step = { x: size.width + GAP, y: size.height + GAP };
  const spots: { x: number; y: number; d: number }[] = [];
  for (let i = -REACH; i <= REACH; i++)
    for (let j = -REACH; j <= REACH; j++) {
      // Half steps sideways find the gaps between columns of a layered layout.
      const dx = (i * step.x) / 2;
      const dy = j * step.y;
      spots.push({ x: preferred.x + dx, y: preferred.y + dy, d: Math.hypot(dx, dy) });
    }
  spots.sort((a, b) => a.d - b.d);
  const free = spots.find((s) => !taken.some((t) => overlaps({ x: s.x, y: s.y, ...size }, t)));
  // Past the reach every spot is taken: below everything is free by construction.
  return free ? { x: free.x, y: free.y } : { x: preferred.x, y: Math.max(...taken.map((t) => t.y + t.height)) + GAP };
}

/** How far the view (a box in flow coordinates) must move, in flow units, to show `box` with
 * `margin` around it: nothing when it is in view already, else the least that shows it. A box
 * larger than the view shows its top-left corner, where a node's name is. */
export function panToShow(box: Box, view: Box, margin = GAP): { x: number; y: number } {
  const along = (start: number, size: number, viewStart: number, viewSize: number) => {
    const room = Math.min(margin, Math.max(0, (viewSize - size) / 2));
    if (start - room < viewStart || size + 2 * room > viewSize) return start - room - viewStart;
    return Math.max(0, start + size + room - (viewStart + viewSize));
  };
  return { x: along(box.x, box.width, view.x, view.width), y: along(box.y, box.height, view.y, view.height) };
}
