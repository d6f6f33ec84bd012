//! How many of a toolbar's secondary buttons stay in its row; the rest go into *More*.

/** Of buttons `widths` wide in order, `gap` apart, how many fit in `room` px. When they do
 * not all fit, `reserve` px are kept for the *More* button that holds the others. */
export function fittingCount(widths: number[], gap: number, room: number, reserve: number): number {
  // Half a pixel of slack: widths are fractional and a rounding must not send a button away.
  const fits = (n: number, space: number) => widths.slice(0, n).reduce((sum, w) => sum + w, 0) + gap * Math.max(0, n - 1) <= space + 0.5;
  if (fits(widths.length, room)) return widths.length;
  let n = widths.length - 1;
  while (n > 0 && !fits(n, room - reserve)) n--;
  return n;
}
