//! *Trash…*: the workflows and skills deleted from the app, the latest first, each with
//! *Restore*. Restoring never overwrites: when a file took the old name since, the dialog
//! asks for another name and restores under it (the workflow renamed to it).

import { useCallback, useEffect, useState } from 'react';
import type { Backend } from '../backend/types';
import type { TrashEntry, WorkflowEntry } from '../bindings';

/** A name the library takes (letters, digits, spaces, `-`, `_`) close to `name`. */
const usableName = (name: string) => name.replace(/[^\p{L}\p{N} _-]+/gu, ' ').replace(/\s+/g, ' ').trim();

export function TrashDialog({
  backend,
  notify,
  onRestored,
  onClose,
}: {
  backend: Backend;
  notify: (text: string, level?: 'info' | 'error') => void;
  onRestored: (entry: WorkflowEntry) => void;
  onClose: () => void;
}) {
  const [entries, setEntries] = useState<TrashEntry[] | null>(null);
  /** The entry whose old name is taken, and the new name typed for it. */
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const fail = useCallback((e: unknown) => notify((e as Error).message ?? String(e), 'error'), [notify]);
  const refresh = useCallback(() => backend.listTrash().then(setEntries).catch(fail), [backend, fail]);
  useEffect(() => void refresh(), [refresh]);

  const restore = async (entry: TrashEntry, name: string | null) => {
    try {
      const restored = await backend.restoreWorkflow(entry.id, name);
      setRenaming(null);
      notify(`${entry.name} restored as ${restored.id}`);
      onRestored(restored);
      void refresh();
    } catch (e) {
      if ((e as { code?: string }).code === 'exists' && name == null) setRenaming({ id: entry.id, name: `${usableName(entry.name)} restored` });
      else fail(e);
    }
  };

  return (
    <div className="modal-backdrop">
      <div className="modal wide" role="dialog" aria-label="trash">
        <h3>Trash</h3>
        {entries?.length === 0 && <p className="hint">The trash is empty: Delete… in the workflows list moves the open workflow here.</p>}
        {!!entries?.length && (
          <table className="trash-table">
            <thead>
              <tr>
                <th>name</th>
                <th>file</th>
                <th>deleted</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} data-testid="trash-entry">
                  <td>
                    {e.name}
                    {e.skill && <span className="skill-badge">skill</span>}
                  </td>
                  <td>
                    <code>{e.original}</code>
                  </td>
                  <td>{new Date(e.deleted_ms).toLocaleString()}</td>
                  <td>
                    {renaming?.id === e.id ? (
                      <form className="inline-form" onSubmit={(ev) => (ev.preventDefault(), void restore(e, renaming.name))}>
                        <span className="hint">
                          <code>{e.original}</code> is taken: restore as
                        </span>
                        <input autoFocus aria-label="restore as" value={renaming.name} onChange={(ev) => setRenaming({ id: e.id, name: ev.target.value })} />
                        <button type="submit" className="primary" disabled={!renaming.name.trim()}>
                          Restore as
                        </button>
                      </form>
                    ) : (
                      <button onClick={() => void restore(e, null)}>Restore</button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="hint">Deleted files wait in .trash/ inside the workflows and skills folders; remove them there to free the space.</p>
        <div className="modal-actions">
          <button onClick={onClose}>Close</button>
        </div>
      </div>
    </div>
  );
}
