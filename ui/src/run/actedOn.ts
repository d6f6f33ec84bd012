//! Which element of a step's page each action acted on, and where a click landed, for the
//! run viewer to box on the screenshot. The engine's action events carry no rectangle or
//! point: the element is found again in the step's observation (taken on entering the
//! state, before the actions ran) from the action's target, else from the engine's
//! `detail` ("a#hero-sign-in “Sign in”"). When neither names one element, nothing is boxed
//! rather than a guess.

import type { Action, PageElement, Point, Target } from '../bindings';

/** An action of the step matched to the element it acted on. */
export interface ActedOn {
  /** 0-based, as in the events. */
  index: number;
  type: string;
  element: PageElement;
  /** Where a click landed, in CSS pixels of the viewport; null for other actions. */
  click: Point | null;
}

const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/** The observation's elements that can be drawn (the driver may report partial entries). */
export function pageElements(elements: unknown): PageElement[] {
  if (!Array.isArray(elements)) return [];
  return elements.filter((e): e is PageElement => !!e && typeof e === 'object' && typeof e.id === 'string' && !!e.rect && typeof e.rect.width === 'number');
}

function byTarget(elements: PageElement[], t: Target): PageElement[] {
  if (t.role) return elements.filter((e) => e.role === t.role && (t.name == null || norm(e.name) === norm(t.name)));
  if (t.css) return elements.filter((e) => e.selector === t.css);
  if (t.text) return elements.filter((e) => norm(e.text) === norm(t.text));
  return [];
}

/** The engine describes the element it acted on as `tag#id "name"` (id and name optional). */
function byDetail(elements: PageElement[], detail: string | null | undefined): PageElement[] {
  const m = /^([a-z][\w-]*)(?:#([\w-]+))?(?: "(.*)")?$/i.exec(norm(detail));
  if (!m) return [];
  const [, tag, id, name] = m;
  return elements.filter((e) => e.tag === tag.toLowerCase() && (!id || e.selector === `#${id}`) && (name == null || norm(e.name) === norm(name)));
}

export function findElement(elements: PageElement[], target: Target | null | undefined, detail?: string | null): PageElement | null {
  if (target) {
    const hits = byTarget(elements, target);
    const nth = target.nth ?? 0;
    if (hits.length === 1 || (target.nth != null && hits[nth])) return hits[nth];
  }
  const hits = byDetail(elements, detail);
  return hits.length === 1 ? hits[0] : null;
}

function targetOf(action: Action): Target | null {
  return 'target' in action && action.target ? action.target : null;
}

/** A click lands at its `position` inside the element (fractions), by default the centre. */
export function clickPoint(action: Action, el: PageElement): Point | null {
  if (action.type !== 'click') return null;
  const at = action.position ?? { x: 0.5, y: 0.5 };
  return { x: el.rect.x + el.rect.width * at.x, y: el.rect.y + el.rect.height * at.y };
}

export function actedOn(elements: unknown, actions: { index: number; action: Action | null; detail: string | null; healedTo?: Target | null }[]): ActedOn[] {
  const els = pageElements(elements);
  const out: ActedOn[] = [];
  for (const a of actions) {
    if (!a.action) continue;
    // A healed action found its element by the alternative, not by the written target.
    const target = a.healedTo ?? targetOf(a.action);
    if (!target) continue;
    const element = findElement(els, target, a.detail);
    if (element) out.push({ index: a.index, type: a.action.type, element, click: clickPoint(a.action, element) });
  }
  return out;
}
