//! The workflows folder, and the skills folder beside it: open, create, record, duplicate,
//! rename, delete (to the trash) and the trash. Skills are a group of their own after the
//! workflows; new files are workflows.

import { useState } from 'react';
import type { WorkflowEntry } from '../bindings';
import { groupEntries } from '../editor/skills';

function EntryItem({ entry, current, onOpen }: { entry: WorkflowEntry; current: boolean; onOpen: (id: string) => void }) {
  return (
    <li className={[current ? 'current' : '', entry.skill ? 'skill-entry' : ''].filter(Boolean).join(' ')}>
      <button className="link" onClick={() => onOpen(entry.id)} title={entry.error ?? entry.id} data-testid="workflow-entry" data-skill={entry.skill || undefined}>
        {entry.name}
        {entry.skill && (
          <span className="skill-badge" title="a skill: other workflows run it with a use_skill action">
            skill
          </span>
        )}{' '}
        <span className="hint">{entry.error ? '⚠' : `${entry.states} states`}</span>
      </button>
    </li>
  );
}

type Mode = { kind: 'create' } | { kind: 'duplicate'; id: string } | { kind: 'rename'; id: string } | null;

export function WorkflowList(p: {
  entries: WorkflowEntry[];
  current: string | null;
  onOpen: (id: string) => void;
  /** Opens *Record…*: a demonstration compiled into a workflow. */
  onRecord: () => void;
  onCreate: (name: string) => void;
  onDuplicate: (id: string, name: string) => void;
  onRename: (id: string, name: string) => void;
  /** Asks, then moves the file to the trash. */
  onDelete: (entry: WorkflowEntry) => void;
  /** Opens the trash, to restore from it. */
  onTrash: () => void;
}) {
  const [mode, setMode] = useState<Mode>(null);
  const [name, setName] = useState('');
  const start = (m: Mode, initial = '') => {
    setMode(m);
    setName(initial);
  };
  const submit = () => {
    if (!mode || !name.trim()) return;
    if (mode.kind === 'create') p.onCreate(name);
    if (mode.kind === 'duplicate') p.onDuplicate(mode.id, name);
    if (mode.kind === 'rename') p.onRename(mode.id, name);
    setMode(null);
  };
  const currentEntry = p.entries.find((e) => e.id === p.current);
  const { workflows, skills } = groupEntries(p.entries);
  const items = (entries: WorkflowEntry[]) => entries.map((e) => <EntryItem key={e.id} entry={e} current={e.id === p.current} onOpen={p.onOpen} />);
  return (
    <nav className="workflow-list" aria-label="workflows">
      <h2>Workflows</h2>
      <ul>{items(workflows)}</ul>
      {skills.length > 0 && (
        <section className="skill-group" aria-label="skills" data-testid="skill-group">
          <h3 title="skills/ beside the workflows folder: workflows that others run as one action">Skills</h3>
          <ul>{items(skills)}</ul>
        </section>
      )}
      <div className="list-buttons">
        <button onClick={() => start({ kind: 'create' })}>New</button>
        <button onClick={p.onRecord} title="show the task once in a browser; it becomes a workflow">
          Record…
        </button>
        <button disabled={!currentEntry} onClick={() => currentEntry && start({ kind: 'duplicate', id: currentEntry.id }, `${currentEntry.name} copy`)}>
          Duplicate
        </button>
        <button disabled={!currentEntry} onClick={() => currentEntry && start({ kind: 'rename', id: currentEntry.id }, currentEntry.name)}>
          Rename
        </button>
        <button disabled={!currentEntry} onClick={() => currentEntry && p.onDelete(currentEntry)} title="move the open workflow to the trash (Trash… restores it)">
          Delete…
        </button>
        <button onClick={p.onTrash} title="deleted workflows and skills, to restore">
          Trash…
        </button>
      </div>
      {mode && (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <input autoFocus aria-label={`${mode.kind} workflow name`} placeholder={mode.kind !== 'create' && currentEntry?.skill ? 'skill name' : 'workflow name'} value={name} onChange={(e) => setName(e.target.value)} />
          <button type="submit" className="primary">
            {mode.kind === 'create' ? 'Create' : mode.kind === 'duplicate' ? 'Duplicate' : 'Rename'}
          </button>
          <button type="button" onClick={() => setMode(null)}>
            Cancel
          </button>
        </form>
      )}
    </nav>
  );
}
