//! Skills as the editor knows them: files of the skills folder (ids `skills/NAME.json`, the
//! name being what a `use_skill` action calls), their parameters (a use's arguments) and
//! variables (a use's outputs).

import type { Workflow, WorkflowEntry } from '../bindings';
import { workflowVariables } from '../backend/validate';

/** The id prefix of the skills folder's files, as the Rust library lists them. */
export const SKILLS_FOLDER = 'skills/';

/** The skill a `use_skill` calls for the file `id`, or null for a workflow's file. */
export function skillNameOf(id: string): string | null {
  return id.startsWith(SKILLS_FOLDER) ? id.slice(SKILLS_FOLDER.length).replace(/\.json$/, '') : null;
}

/** The file of skill `name`. */
export const skillId = (name: string) => `${SKILLS_FOLDER}${name}.json`;

/** The list's two groups: workflows first, then skills, each in the order given. */
export function groupEntries(entries: WorkflowEntry[]): { workflows: WorkflowEntry[]; skills: WorkflowEntry[] } {
  return { workflows: entries.filter((e) => !e.skill), skills: entries.filter((e) => e.skill) };
}

/** The skills a `use_skill` can call: the folder's files that open. */
export function skillNames(entries: WorkflowEntry[]): string[] {
  return entries.filter((e) => e.skill && !e.error).map((e) => skillNameOf(e.id)!);
}

export interface SkillParameter {
  name: string;
  /** No default: every use must pass it. */
  required: boolean;
  secret: boolean;
  description: string;
}

/** A skill's parameters, required ones first (as a person adds them), else in file order. */
export function skillParameters(skill: Workflow): SkillParameter[] {
  const all = Object.entries(skill.parameters ?? {}).map(([name, p]) => ({ name, required: p.default == null, secret: !!p.secret, description: p.description ?? '' }));
  return [...all.filter((p) => p.required), ...all.filter((p) => !p.required)];
}

/** What a use of the skill may copy out: its variables. */
export const skillVariables = (skill: Workflow): string[] => workflowVariables(skill);
