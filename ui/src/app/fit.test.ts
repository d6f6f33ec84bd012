import { describe, expect, it } from 'vitest';
import { fittingCount } from './fit';

describe('fittingCount', () => {
  const widths = [60, 80, 70];
  it('keeps every button when they all fit, with no room kept for More', () => {
    expect(fittingCount(widths, 4, 218, 50)).toBe(3);
  });
  it('keeps room for More once one button must go', () => {
    // 217 px: the three need 218. Two need 144, and 144 + 50 for More fits 217.
    expect(fittingCount(widths, 4, 217, 50)).toBe(2);
    // Two and More need 194: at 190 only the first stays.
    expect(fittingCount(widths, 4, 190, 50)).toBe(1);
  });
  it('sends all into More when not even one fits beside it', () => expect(fittingCount(widths, 4, 100, 50)).toBe(0));
  it('forgives a fraction of a pixel', () => expect(fittingCount([60.4, 80.3], 4, 144.5, 50)).toBe(2));
});
