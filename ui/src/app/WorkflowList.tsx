//! The workflows folder: open, create, record, duplicate, rename.

import { useState } from 'react';
import type { WorkflowEntry } from '../bindings';

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
  return (
    <nav className="workflow-list" aria-label="workflows">
      <h2>Workflows</h2>
      <ul>
        {p.entries.map((e) => (
          <li key={e.id} className={e.id === p.current ? 'current' : ''}>
            <button className="link" onClick={() => p.onOpen(e.id)} title={e.error ?? e.id} data-testid="workflow-entry">
              {e.name} <span className="hint">{e.error ? '⚠' : `${e.states} states`}</span>
            </button>
          </li>
        ))}
      </ul>
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
      </div>
      {mode && (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <input autoFocus aria-label={`${mode.kind} workflow name`} placeholder="workflow name" value={name} onChange={(e) => setName(e.target.value)} />
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
