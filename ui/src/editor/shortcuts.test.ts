import { describe, expect, it, vi } from 'vitest';
import { editsText, type Focused, handleShortcut, type ShortcutHandlers } from './shortcuts';

const handlers = (): ShortcutHandlers => ({
  save: vi.fn(),
  undo: vi.fn(),
  redo: vi.fn(),
  layout: vi.fn(),
  addState: vi.fn(),
  deleteState: vi.fn(),
  raise: vi.fn(),
  lower: vi.fn(),
  run: vi.fn(),
  find: vi.fn(),
});
/** A keydown as the window listener sees it, aimed at `target`. */
const press = (key: string, target: Focused | null, mods: { ctrlKey?: boolean; shiftKey?: boolean } = {}) =>
  ({ key, target, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, preventDefault: () => {}, ...mods }) as unknown as KeyboardEvent;

const checkbox = { tagName: 'INPUT', type: 'checkbox' };
const select = { tagName: 'SELECT' };
const button = { tagName: 'BUTTON' };
const textInput = { tagName: 'INPUT', type: 'text' };
const numberInput = { tagName: 'INPUT', type: 'number' };
const textarea = { tagName: 'TEXTAREA' };
const editable = { tagName: 'DIV', isContentEditable: true };

describe('undo and redo', () => {
  it.each([['a checkbox', checkbox], ['a select', select], ['a button', button], ['the page', null]])('are the editor’s with %s focused', (_, target) => {
    const h = handlers();
    expect(handleShortcut(press('z', target, { ctrlKey: true }), h)).toBe(true);
    expect(handleShortcut(press('Z', target, { ctrlKey: true, shiftKey: true }), h)).toBe(true);
    expect(handleShortcut(press('y', target, { ctrlKey: true }), h)).toBe(true);
    expect(h.undo).toHaveBeenCalledTimes(1);
    expect(h.redo).toHaveBeenCalledTimes(2);
  });

  it.each([['a text input', textInput], ['a number input', numberInput], ['a textarea', textarea], ['editable content', editable]])('are left to %s, which undoes its own typing', (_, target) => {
    const h = handlers();
    expect(handleShortcut(press('z', target, { ctrlKey: true }), h)).toBe(false);
    expect(handleShortcut(press('y', target, { ctrlKey: true }), h)).toBe(false);
    expect(h.undo).not.toHaveBeenCalled();
    expect(h.redo).not.toHaveBeenCalled();
  });
});

describe('plain keys', () => {
  it('are left to any form control: a select’s letters pick an option', () => {
    const h = handlers();
    for (const target of [select, checkbox, textInput]) expect(handleShortcut(press('a', target), h)).toBe(false);
    expect(h.addState).not.toHaveBeenCalled();
  });

  it('act when a button or nothing has the focus', () => {
    const h = handlers();
    expect(handleShortcut(press('a', button), h)).toBe(true);
    expect(handleShortcut(press('Delete', null), h)).toBe(true);
    expect(h.addState).toHaveBeenCalledTimes(1);
    expect(h.deleteState).toHaveBeenCalledTimes(1);
  });
});

describe('editsText', () => {
  it('counts an input without a type as text', () => expect(editsText({ tagName: 'INPUT' })).toBe(true));
  it('does not count a range or a radio', () => expect(editsText({ tagName: 'INPUT', type: 'range' }) || editsText({ tagName: 'INPUT', type: 'radio' })).toBe(false));
});
