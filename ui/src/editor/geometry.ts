//! Points and boxes on the canvas, in graph units (React Flow's flow coordinates).

export interface Point {
  x: number;
  y: number;
}

export interface Box extends Point {
  width: number;
  height: number;
}

/** Each state's top-left corner. */
export type Positions = Map<string, Point>;

export type Side = 'top' | 'right' | 'bottom' | 'left';

export const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The side of `b` whose border `p` lies on (within `slack`), or null if it is on none. */
export function sideOf(p: Point, b: Box, slack = 0.5): Side | null {
  const inX = p.x >= b.x - slack && p.x <= b.x + b.width + slack;
  const inY = p.y >= b.y - slack && p.y <= b.y + b.height + slack;
  if (inX && Math.abs(p.y - b.y) <= slack) return 'top';
  if (inX && Math.abs(p.y - (b.y + b.height)) <= slack) return 'bottom';
  if (inY && Math.abs(p.x - b.x) <= slack) return 'left';
  if (inY && Math.abs(p.x - (b.x + b.width)) <= slack) return 'right';
  return null;
}
