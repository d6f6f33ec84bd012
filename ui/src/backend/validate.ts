//! A small validator for the fake backend only, so browser tests see validation errors
//! where the real app shows the Rust validator's. It covers the common mistakes; the
//! Rust validator (`crates/workflow`) is the authority and covers everything.

import type { Diagnostic, Workflow } from '../bindings';

const PARAM = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

function diag(path: string, message: string, help?: string): Diagnostic {
  return { severity: 'error', file: 'workflow', line: 1, column: 1, path, message, help: help ?? null };
}

export function fakeValidate(wf: Workflow): Diagnostic[] {
  const out: Diagnostic[] = [];
  const names = new Set<string>();
  const params = new Set(Object.keys(wf.parameters ?? {}));
  if (!wf.name?.trim()) out.push(diag('name', 'the workflow has no name'));
  wf.states.forEach((s, i) => {
    const at = `states[${i}]`;
    if (!s.name.trim()) out.push(diag(`${at}.name`, 'a state needs a name'));
    if (names.has(s.name)) out.push(diag(`${at}.name`, `duplicate state name “${s.name}”`, 'state names must be unique'));
    names.add(s.name);
    if (!s.checks?.length && !s.prompt?.trim()) out.push(diag(`${at}.checks`, 'a state without checks never matches', 'add a check, or a prompt for the model to synthesise them from'));
    (s.checks ?? []).forEach((c, j) => {
      const value = 'value' in c ? c.value : 'selector' in c ? c.selector : 'x';
      if (typeof value === 'string' && !value.trim()) out.push(diag(`${at}.checks[${j}]`, 'the check has an empty value'));
      if (c.type === 'url' && c.match === 'pattern') {
        try {
          new RegExp(c.value);
        } catch {
          out.push(diag(`${at}.checks[${j}].value`, 'invalid pattern'));
        }
      }
    });
    (s.actions ?? []).forEach((a, j) => {
      for (const [k, v] of Object.entries(a)) {
        if (typeof v !== 'string') continue;
        if (!v.trim() && k !== 'type') out.push(diag(`${at}.actions[${j}].${k}`, `\`${k}\` is empty`));
        for (const m of v.matchAll(PARAM))
          if (!params.has(m[1])) out.push(diag(`${at}.actions[${j}].${k}`, `undefined parameter \`${m[1]}\``, 'declare it under parameters'));
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
