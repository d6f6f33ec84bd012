import { describe, expect, it } from 'vitest';
import type { PageElement } from '../bindings';
import { actedOn, findElement } from './actedOn';

const el = (id: string, tag: string, role: string, name: string, selector: string, x = 0): PageElement => ({ id, tag, role, name, text: name, selector, rect: { x, y: 100, width: 200, height: 40 } });
const page = [
  el('e1', 'a', 'link', 'Sign in', '#hero-sign-in', 10),
  el('e2', 'input', 'textbox', 'Username', '#username', 300),
  el('e3', 'button', 'button', 'Add to cart', '#r > article:nth-of-type(1) > button', 600),
  el('e4', 'button', 'button', 'Add to cart', '#r > article:nth-of-type(2) > button', 900),
];

describe('the element an action acted on', () => {
  it('is found by role and name, by CSS selector, or by the engine’s detail', () => {
    expect(findElement(page, { role: 'link', name: 'Sign  in' })?.id).toBe('e1');
    expect(findElement(page, { css: '#username' })?.id).toBe('e2');
    expect(findElement(page, { xpath: '//a' }, 'a#hero-sign-in "Sign in"')?.id).toBe('e1');
    expect(findElement(page, { role: 'button', name: 'Add to cart', nth: 1 })?.id).toBe('e4');
  });

  it('is not guessed when several elements fit', () => {
    expect(findElement(page, { role: 'button', name: 'Add to cart' })).toBeNull();
    expect(findElement(page, { xpath: '//button' }, 'button "Add to cart"')).toBeNull();
    expect(findElement(page, { css: '#gone' }, 'li#option-1 "Kettle"')).toBeNull();
  });

  it('marks a click at its position inside the element, the centre by default', () => {
    const acts = actedOn(page, [
      { index: 0, action: { type: 'type', target: { css: '#username' }, text: 'demo' }, detail: null },
      { index: 1, action: { type: 'click', target: { role: 'link', name: 'Sign in' } }, detail: null },
      { index: 2, action: { type: 'click', target: { css: '#username' }, position: { x: 0.25, y: 0 } }, detail: null },
      { index: 3, action: { type: 'navigate_to', url: 'x' }, detail: null },
    ]);
    expect(acts.map((a) => [a.index, a.element.id, a.click])).toEqual([
      [0, 'e2', null],
      [1, 'e1', { x: 110, y: 120 }],
      [2, 'e2', { x: 350, y: 100 }],
    ]);
  });

  it('ignores an observation without usable elements', () => {
    expect(actedOn(null, [{ index: 0, action: { type: 'click', target: { css: '#a' } }, detail: 'a#a' }])).toEqual([]);
    expect(actedOn([{ id: 'e1' }], [{ index: 0, action: { type: 'click', target: { css: '#a' } }, detail: null }])).toEqual([]);
  });
});
