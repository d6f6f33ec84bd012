//! The skills a `use_skill` form can offer: their names from the workflow list, and each
//! one's definition opened from the backend when a form needs its parameters.

import { createContext, useContext, useEffect, useMemo, useState } from 'react';
import type { Backend } from '../backend/types';
import type { Workflow, WorkflowEntry } from '../bindings';
import { skillId, skillNames } from './skills';

export interface SkillLibrary {
  names: string[];
  /** The skill's definition, or null when it cannot be opened. */
  open: (name: string) => Promise<Workflow | null>;
}

export const SkillLibraryContext = createContext<SkillLibrary>({ names: [], open: async () => null });

export function useSkillLibrary(backend: Backend, entries: WorkflowEntry[]): SkillLibrary {
  const names = useMemo(() => skillNames(entries), [entries]);
  return useMemo(
    () => ({
      names,
      // Opened afresh each time a form asks: a skill edited and saved a moment ago counts.
      open: (name: string) =>
        backend
          .openWorkflow(skillId(name))
          .then((o) => o.workflow ?? null)
          .catch(() => null),
    }),
    [backend, names],
  );
}

/** The definition of skill `name` while it is in the library, else null. */
export function useSkillDefinition(name: string): Workflow | null {
  const { names, open } = useContext(SkillLibraryContext);
  const known = names.includes(name);
  const [skill, setSkill] = useState<{ name: string; workflow: Workflow | null } | null>(null);
  useEffect(() => {
    if (!known) return;
    let live = true;
    void open(name).then((workflow) => live && setSkill({ name, workflow }));
    return () => {
      live = false;
    };
  }, [name, known, open]);
  // A definition fetched for the name before the last edit is not this one's.
  return known && skill?.name === name ? skill.workflow : null;
}
