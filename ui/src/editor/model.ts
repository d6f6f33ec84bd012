//! The editing model: pure, immutable operations on a workflow. Every edit returns a new
//! workflow and leaves the old one untouched, so undo is a stack of references and "dirty"
//! is a reference comparison with what was last saved.

import type { Action } from '../bindings';
import type { Check } from '../bindings';
import type { Parameter } from '../bindings';
import type { State } from '../bindings';
import type { Workflow } from '../bindings';

export type Config = NonNullable<Workflow['config']>;

/** An edit the user cannot make, with the reason to show them. */
export class EditError extends Error {}

export function stateIndex(wf: Workflow, name: string): number {
  const i = wf.states.findIndex((s) => s.name === name);
  if (i < 0) throw new EditError(`no state named “${name}”`);
  return i;
}

export function uniqueStateName(wf: Workflow, base = 'New state'): string {
  const taken = new Set(wf.states.map((s) => s.name));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`)) return `${base} ${n}`;
}

function withStates(wf: Workflow, states: State[]): Workflow {
  return { ...wf, states };
}

/** Adds a state at the end of the priority order (or at `at`). */
export function addState(wf: Workflow, state?: Partial<State>, at?: number): Workflow {
  const name = state?.name ?? uniqueStateName(wf);
  if (wf.states.some((s) => s.name === name)) throw new EditError(`a state named “${name}” already exists`);
  const fresh: State = { name, checks: [], ...state } as State;
  const states = [...wf.states];
  states.splice(at ?? states.length, 0, fresh);
  return withStates(wf, states);
}

/** Removes a state and every `next` reference to it. */
export function deleteState(wf: Workflow, name: string): Workflow {
  stateIndex(wf, name);
  return withStates(
    wf,
    wf.states.filter((s) => s.name !== name).map((s) => (s.next?.includes(name) ? { ...s, next: s.next.filter((n) => n !== name) } : s)),
  );
}

/** Renames a state and follows the rename in every `next` list. */
export function renameState(wf: Workflow, from: string, to: string): Workflow {
  const name = to.trim();
  if (!name) throw new EditError('a state needs a name');
  if (name === from) return wf;
  if (wf.states.some((s) => s.name === name)) throw new EditError(`a state named “${name}” already exists`);
  stateIndex(wf, from);
  return withStates(
    wf,
    wf.states.map((s) => {
      const renamed = s.name === from ? { ...s, name } : s;
      return renamed.next?.includes(from) ? { ...renamed, next: renamed.next.map((n) => (n === from ? name : n)) } : renamed;
    }),
  );
}

/** Moves a state to position `to` in the priority order (0 = checked first). */
export function moveState(wf: Workflow, name: string, to: number): Workflow {
  const from = stateIndex(wf, name);
  const target = Math.max(0, Math.min(wf.states.length - 1, to));
  if (from === target) return wf;
  const states = [...wf.states];
  const [moved] = states.splice(from, 1);
  states.splice(target, 0, moved);
  return withStates(wf, states);
}

export function updateState(wf: Workflow, name: string, patch: Partial<Omit<State, 'name'>>): Workflow {
  const i = stateIndex(wf, name);
  const states = [...wf.states];
  const next = { ...states[i], ...patch };
  for (const key of Object.keys(patch) as (keyof typeof patch)[]) if (patch[key] === undefined) delete next[key];
  states[i] = next;
  return withStates(wf, states);
}

function editList<T>(list: T[] | undefined, op: (items: T[]) => void): T[] {
  const items = [...(list ?? [])];
  op(items);
  return items;
}

function checkIndex<T>(items: T[], i: number, what: string) {
  if (i < 0 || i >= items.length) throw new EditError(`no ${what} #${i + 1}`);
}

export function addCheck(wf: Workflow, state: string, check: Check): Workflow {
  const s = wf.states[stateIndex(wf, state)];
  return updateState(wf, state, { checks: [...(s.checks ?? []), check] });
}

export function updateCheck(wf: Workflow, state: string, i: number, check: Check): Workflow {
  const s = wf.states[stateIndex(wf, state)];
  return updateState(wf, state, { checks: editList(s.checks, (c) => (checkIndex(c, i, 'check'), (c[i] = check))) });
}

export function removeCheck(wf: Workflow, state: string, i: number): Workflow {
  const s = wf.states[stateIndex(wf, state)];
  return updateState(wf, state, { checks: editList(s.checks, (c) => (checkIndex(c, i, 'check'), c.splice(i, 1))) });
}

export function addAction(wf: Workflow, state: string, action: Action): Workflow {
  const s = wf.states[stateIndex(wf, state)];
  return updateState(wf, state, { actions: [...(s.actions ?? []), action] });
}

export function updateAction(wf: Workflow, state: string, i: number, action: Action): Workflow {
  const s = wf.states[stateIndex(wf, state)];
  return updateState(wf, state, { actions: editList(s.actions, (a) => (checkIndex(a, i, 'action'), (a[i] = action))) });
}

export function removeAction(wf: Workflow, state: string, i: number): Workflow {
  const s = wf.states[stateIndex(wf, state)];
  const actions = editList(s.actions, (a) => (checkIndex(a, i, 'action'), a.splice(i, 1)));
  return updateState(wf, state, { actions: actions.length ? actions : undefined });
}

export function moveAction(wf: Workflow, state: string, from: number, to: number): Workflow {
  const s = wf.states[stateIndex(wf, state)];
  const actions = editList(s.actions, (a) => {
    checkIndex(a, from, 'action');
    const [moved] = a.splice(from, 1);
    a.splice(Math.max(0, Math.min(a.length, to)), 0, moved);
  });
  return updateState(wf, state, { actions });
}

export function setNext(wf: Workflow, state: string, next: string[]): Workflow {
  for (const n of next) stateIndex(wf, n);
  return updateState(wf, state, { next: next.length ? next : undefined });
}

export function setParameter(wf: Workflow, name: string, param: Parameter, previousName?: string): Workflow {
  const key = name.trim();
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new EditError('a parameter name is letters, digits and _');
  const entries = Object.entries(wf.parameters ?? {});
  const old = previousName ?? key;
  if (key !== old && entries.some(([k]) => k === key)) throw new EditError(`a parameter named “${key}” already exists`);
  const i = entries.findIndex(([k]) => k === old);
  if (i >= 0) entries[i] = [key, param];
  else entries.push([key, param]);
  return { ...wf, parameters: Object.fromEntries(entries) };
}

export function removeParameter(wf: Workflow, name: string): Workflow {
  const parameters = Object.fromEntries(Object.entries(wf.parameters ?? {}).filter(([k]) => k !== name));
  return { ...wf, parameters };
}

export function setConfig(wf: Workflow, patch: Partial<Config>): Workflow {
  return { ...wf, config: { ...wf.config, ...patch } };
}

export function setMeta(wf: Workflow, patch: { name?: string; description?: string }): Workflow {
  return { ...wf, ...patch };
}

/** `record` with key `from` renamed `to`, in its place; refused when `to` is another's. */
export function renameKey(record: Record<string, string>, from: string, to: string): Record<string, string> {
  if (from === to) return record;
  if (to in record) throw new EditError(`“${to}” is there already`);
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k === from ? to : k, v]));
}

/** The skill section's checks `part` replaced (the section kept, possibly empty: it is what
 * makes the file a skill). */
export function setSkillChecks(wf: Workflow, part: 'pre' | 'post', checks: Check[]): Workflow {
  const skill = { ...wf.skill, [part]: checks };
  if (!checks.length) delete skill[part];
  return { ...wf, skill };
}
