import { describe, expect, it } from 'vitest';
import { clampWidth, dragWidth, keyWidth, PANELS, readWidth, storageKey, widthCap } from './panelWidth';

const left = PANELS.workflows; // 170–480, at most 28% of the window
const right = PANELS.stateForm; // 280–720, at most 40%

describe('widthCap', () => {
  it('is the panel’s max on a wide window and its share of a narrow one', () => {
    expect(widthCap(left, 2560)).toBe(480);
    expect(widthCap(left, 1024)).toBe(286);
  });
  it('never goes under the floor, however narrow the window', () => expect(widthCap(right, 400)).toBe(280));
});

describe('dragWidth', () => {
  it('widens a left panel as its splitter moves right, a right panel as it moves left', () => {
    expect(dragWidth(left, 250, 40, 1440)).toBe(290);
    expect(dragWidth(right, 360, -40, 1440)).toBe(400);
    expect(dragWidth(right, 360, 40, 1440)).toBe(320);
  });
  it('stops at the floor and at the cap', () => {
    expect(dragWidth(left, 250, -500, 1440)).toBe(170);
    expect(dragWidth(right, 360, -2000, 1024)).toBe(409);
  });
});

describe('keyWidth', () => {
  it('moves the splitter a step per arrow, a big step with Shift', () => {
    expect(keyWidth(left, 250, 'ArrowRight', false, 1440)).toBe(266);
    expect(keyWidth(left, 250, 'ArrowLeft', true, 1440)).toBe(186);
    expect(keyWidth(right, 360, 'ArrowLeft', false, 1440)).toBe(376);
  });
  it('goes to the ends with Home and End', () => {
    expect(keyWidth(right, 360, 'Home', false, 1440)).toBe(280);
    expect(keyWidth(right, 360, 'End', false, 1440)).toBe(576);
  });
  it('leaves other keys alone', () => expect(keyWidth(left, 250, 'a', false, 1440)).toBeNull());
});

describe('readWidth', () => {
  const storage = (v: string | null) => ({ getItem: (k: string) => (k === storageKey(left) ? v : null) });
  it('reads what was remembered, within the panel’s bounds', () => {
    expect(readWidth(storage('300'), left)).toBe(300);
    expect(readWidth(storage('9000'), left)).toBe(480);
  });
  it('falls back to the style sheet for nothing, nonsense or zero', () => {
    for (const v of [null, 'wide', '0', '-5']) expect(readWidth(storage(v), left)).toBeNull();
  });
  it('rounds a width to whole pixels', () => expect(clampWidth(left, 250.6, 1440)).toBe(251));
});
