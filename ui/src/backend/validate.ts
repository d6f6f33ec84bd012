//! A small validator for the fake backend only, so browser tests see validation errors
//! where the real app shows the Rust validator's. It covers the common mistakes; the
//! Rust validator (`crates/workflow`) is the authority and covers everything.

import type { Action, Check, Diagnostic, Workflow } from '../bindings';

const PARAM = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The reads whose result is one string, which a `pattern` may narrow. */
const TEXT_READS = ['text', 'lines', 'attribute', 'value'];

function diag(path: string, message: string, help?: string): Diagnostic {
  return { severity: 'error', file: 'workflow', line: 1, column: 1, path, message, help: help ?? null };
}

/** The run variables the workflow sets (its `extract`s' `into`, its `use_skill`s' outputs),
 * in the order first written. A skill's variables are what its users may ask for. */
export function workflowVariables(wf: Workflow): string[] {
  const names: string[] = [];
  const add = (name: string) => name && !names.includes(name) && names.push(name);
  for (const s of wf.states)
    for (const a of s.actions ?? []) {
      if (a.type === 'extract') add(a.into);
      if (a.type === 'use_skill') Object.keys(a.outputs ?? {}).forEach(add);
    }
  return names;
}

/** A skill's name, which is also its file's (`skills/NAME.json`), as the Rust `is_skill_name`. */
export function isSkillName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 100 &&
    !/^[-.]/.test(name) &&
    /^[A-Za-z0-9_-]+$/.test(name) &&
    !/^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i.test(name)
  );
}

/** The skills the fake knows, by name; a file of the skills folder without a `skill`
 * section is there too, to be refused as "a workflow, not a skill". */
export type SkillLibrary = Record<string, Workflow>;

const list = (names: string[]) => (names.length ? names.join(', ') : '(none)');

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 0; i < a.length; i++) {
    const next = [i + 1];
    for (let j = 0; j < b.length; j++) next.push(a[i] === b[j] ? row[j] : 1 + Math.min(row[j], row[j + 1], next[j]));
    row = next;
  }
  return row[b.length];
}

/** The known name closest to `word`, if near enough to be a typo (as the Rust `closest`). */
function closest(word: string, known: string[]): string | null {
  const limit = word.length <= 3 ? 1 : Math.max(2, Math.floor(word.length / 3));
  let best: [number, string] | null = null;
  for (const k of known) {
    const d = editDistance(word, k);
    if (d <= limit && (!best || d < best[0])) best = [d, k];
  }
  return best?.[1] ?? null;
}

/** Every `{{name}}` in the strings of `value` (a check, an action, a target) must name a
 * parameter or a variable; reported at the string's own path, as the Rust validator does.
 * Only the top level's `type` is a tag: a `use_skill` argument may well be called `type`. */
function references(value: unknown, path: string, known: string[], out: Diagnostic[], top = true) {
  if (typeof value === 'string') {
    for (const m of value.matchAll(PARAM)) {
      if (known.includes(m[1])) continue;
      const near = closest(m[1], known);
      const help = near ? `did you mean \`${near}\`?` : `declare it under "parameters": {"${m[1]}": {"default": "…"}}, or set it with an \`extract\` action`;
      out.push(diag(path, `reference to undefined parameter or variable \`${m[1]}\``, help));
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (!(top && k === 'type')) references(v, `${path}.${k}`, known, out, false);
  }
}

/** An `extract` names a new variable and says exactly what to read. */
function extractRules(a: Extract<Action, { type: 'extract' }>, at: string, params: Set<string>, out: Diagnostic[]) {
  if (a.into && !IDENTIFIER.test(a.into))
    out.push(diag(`${at}.into`, `\`${a.into}\` is not a valid variable name`, 'use letters, digits and `_`, starting with a letter or `_`: it is referenced as {{name}}'));
  else if (params.has(a.into)) out.push(diag(`${at}.into`, `\`${a.into}\` is a parameter; a run's parameters are not overwritten`, 'name the variable differently'));
  const read = a.read ?? 'text';
  if (read === 'attribute' && a.attribute == null) out.push(diag(at, '`read: attribute` needs the attribute\'s name', 'e.g. "attribute": "href"'));
  if (read !== 'attribute' && a.attribute != null) out.push(diag(`${at}.attribute`, '`attribute` is only read with "read": "attribute"', 'add "read": "attribute" or remove `attribute`'));
  if (a.pattern != null) {
    if (!TEXT_READS.includes(read)) out.push(diag(`${at}.pattern`, 'a `pattern` narrows one text: it needs `read` text, lines, attribute or value'));
    else if (!a.pattern.includes('{{') && !validRegex(a.pattern)) out.push(diag(`${at}.pattern`, 'invalid pattern'));
  }
}

/** A `variable` check names a variable or parameter, and its value suits its comparison. */
function variableRules(c: Extract<Check, { type: 'variable' }>, at: string, known: string[], out: Diagnostic[]) {
  if (!known.includes(c.name)) {
    const near = closest(c.name, known);
    out.push(diag(`${at}.name`, `no variable or parameter \`${c.name}\``, near ? `did you mean \`${near}\`?` : 'set it with an `extract` action, e.g. {"type": "extract", "into": "total", …}'));
  }
  const mode = c.match ?? 'equals';
  if (mode === 'pattern' && !c.value.includes('{{') && !validRegex(c.value)) out.push(diag(`${at}.value`, 'invalid pattern'));
  const numeric = mode === 'less_than' || mode === 'at_most' || mode === 'greater_than' || mode === 'at_least';
  if (numeric && !c.value.includes('{{') && !/\d/.test(c.value)) out.push(diag(`${at}.value`, `\`${c.value}\` has no number to compare with`, 'numeric comparisons need a number such as 100 or 12.50'));
}

/** A `use_skill` names a skill, and its arguments and outputs are names. */
function useSkillRules(a: Extract<Action, { type: 'use_skill' }>, at: string, params: Set<string>, out: Diagnostic[]) {
  if (!isSkillName(a.skill)) out.push(diag(`${at}.skill`, `\`${a.skill}\` is not a skill name`, 'skills are files skills/NAME.json: letters, digits, `-` and `_`, not a Windows device name (CON, NUL, COM1…)'));
  for (const name of Object.keys(a.args ?? {})) if (!IDENTIFIER.test(name)) out.push(diag(`${at}.args.${name}`, `\`${name}\` is not a parameter name`));
  for (const [here, there] of Object.entries(a.outputs ?? {})) {
    if (!IDENTIFIER.test(here)) out.push(diag(`${at}.outputs.${here}`, `\`${here}\` is not a valid variable name`));
    else if (params.has(here)) out.push(diag(`${at}.outputs.${here}`, `\`${here}\` is a parameter; a run's parameters are not overwritten`, 'name the variable differently'));
    if (!IDENTIFIER.test(there)) out.push(diag(`${at}.outputs.${here}`, `\`${there}\` is not a variable name`));
  }
}

/** A `use_skill` against the skills folder, as the Rust `load_skills`: the skill exists and
 * is one, the arguments are its parameters and the required ones are given, the outputs are
 * its variables. A name that cannot be a skill's has been reported already. */
function skillLibraryRules(a: Extract<Action, { type: 'use_skill' }>, at: string, skills: SkillLibrary, out: Diagnostic[]) {
  if (!isSkillName(a.skill)) return;
  const skill = skills[a.skill];
  if (!skill) {
    const names = Object.keys(skills).sort();
    const near = closest(a.skill, names);
    out.push(diag(`${at}.skill`, `there is no skill \`${a.skill}\` (skills/${a.skill}.json does not exist)`, near ? `did you mean \`${near}\`?` : `skills in skills/: ${list(names)}`));
    return;
  }
  if (skill.skill == null) {
    out.push(diag(`${at}.skill`, `skills/${a.skill}.json is a workflow, not a skill`, 'a skill has a "skill" section (with its pre- and postconditions, possibly empty)'));
    return;
  }
  const parameters = skill.parameters ?? {};
  const declared = Object.keys(parameters);
  for (const name of Object.keys(a.args ?? {}))
    if (!declared.includes(name)) out.push(diag(`${at}.args.${name}`, `skill \`${a.skill}\` has no parameter \`${name}\``, `its parameters: ${list(declared)}`));
  for (const [name, p] of Object.entries(parameters))
    if (p.default == null && !(name in (a.args ?? {}))) out.push(diag(at, `skill \`${a.skill}\` needs the argument \`${name}\``, `add "args": {"${name}": "…"}`));
  const variables = workflowVariables(skill);
  for (const [here, there] of Object.entries(a.outputs ?? {}))
    if (!variables.includes(there)) out.push(diag(`${at}.outputs.${here}`, `skill \`${a.skill}\` sets no variable \`${there}\``, `its variables: ${list(variables)}`));
}

/** One check, wherever it is (a state's, a skill's pre- or postcondition). */
function checkRules(c: Check, path: string, known: string[], out: Diagnostic[]) {
  references(c, path, known, out);
  // A variable may well be compared with an empty text; its name is checked here.
  if (c.type === 'variable') return variableRules(c, path, known, out);
  const value = 'value' in c ? c.value : 'selector' in c ? c.selector : 'x';
  if (typeof value === 'string' && !value.trim()) out.push(diag(path, 'the check has an empty value'));
  if (c.type === 'url' && c.match === 'pattern' && !validRegex(c.value)) out.push(diag(`${path}.value`, 'invalid pattern'));
}

/** Whether `s` compiles; Rust's leading flags (`(?m)` for a `lines` read), which a
 * JavaScript RegExp takes as arguments, are set aside first. */
function validRegex(s: string): boolean {
  try {
    new RegExp(s.replace(/^\(\?[imsxU]+\)/, ''));
    return true;
  } catch {
    return false;
  }
}

/** The workflow's problems; with `skills`, its `use_skill`s are checked against them too
 * (the Rust library does that on open and validate, not on save). */
export function fakeValidate(wf: Workflow, skills?: SkillLibrary): Diagnostic[] {
  const out: Diagnostic[] = [];
  const names = new Set<string>();
  const params = new Set(Object.keys(wf.parameters ?? {}));
  // Parameters and variables (extracted, or a skill's outputs) share the `{{name}}` namespace.
  const known = [...params, ...workflowVariables(wf)];
  if (!wf.name?.trim()) out.push(diag('name', 'the workflow has no name'));
  for (const part of ['pre', 'post'] as const) (wf.skill?.[part] ?? []).forEach((c, j) => checkRules(c, `skill.${part}[${j}]`, known, out));
  wf.states.forEach((s, i) => {
    const at = `states[${i}]`;
    if (!s.name.trim()) out.push(diag(`${at}.name`, 'a state needs a name'));
    if (names.has(s.name)) out.push(diag(`${at}.name`, `duplicate state name “${s.name}”`, 'state names must be unique'));
    names.add(s.name);
    if (!s.checks?.length && !s.prompt?.trim()) out.push(diag(`${at}.checks`, 'a state without checks never matches', 'add a check, or a prompt for the model to synthesise them from'));
    (s.checks ?? []).forEach((c, j) => checkRules(c, `${at}.checks[${j}]`, known, out));
    (s.actions ?? []).forEach((a, j) => {
      const path = `${at}.actions[${j}]`;
      if (a.type === 'use_skill') {
        // Only the arguments are templates; an output names a variable outright.
        references(a.args ?? {}, `${path}.args`, known, out, false);
        useSkillRules(a, path, params, out);
        if (skills) skillLibraryRules(a, path, skills, out);
        return;
      }
      references(a, path, known, out);
      if (a.type === 'extract') extractRules(a, path, params, out);
      if (a.type === 'upload' && (!a.files.length || a.files.some((f) => !f.trim())))
        out.push(diag(`${path}.files`, 'upload needs at least one file, and no empty one', 'e.g. "files": ["{{invoice}}"]'));
      for (const [k, v] of Object.entries(a)) {
        if (typeof v !== 'string') continue;
        if (!v.trim() && k !== 'type') out.push(diag(`${at}.actions[${j}].${k}`, `\`${k}\` is empty`));
      }
      const t = (a as { target?: Record<string, unknown> }).target;
      if (t) {
        const n = ['css', 'xpath', 'text', 'role'].filter((k) => t[k] != null && t[k] !== '').length;
        if (n !== 1) out.push(diag(`${at}.actions[${j}].target`, `a target needs exactly one of css, xpath, text or role (found ${n})`));
      }
    });
  });
  wf.states.forEach((s, i) =>
    (s.next ?? []).forEach((n, j) => {
      if (!names.has(n)) out.push(diag(`states[${i}].next[${j}]`, `no state named “${n}”`));
    }),
  );
  if (!wf.states.some((s) => s.terminal)) out.push(diag('states', 'the workflow has no terminal state', 'mark a state terminal with an outcome'));
  return out;
}
