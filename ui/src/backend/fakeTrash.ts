//! The fake's trash: the files `Library::delete` would move into `.trash/`, kept in memory
//! under the ids the Rust library gives them (`<ms>-<file name>`, behind `skills/` for a
//! skill's), the latest deleted first. A file is in it once; restoring takes it out.

import type { TrashEntry } from '../bindings';
import { BackendError } from './types';

const SKILLS = 'skills/';

export class FakeTrash {
  private files = new Map<string, { entry: TrashEntry; text: string }>();

  /** `text` was the file `id`, deleted at `now` (ms); two in one millisecond are both kept. */
  put(id: string, text: string, now: number): TrashEntry {
    const skill = id.startsWith(SKILLS);
    const file = skill ? id.slice(SKILLS.length) : id;
    let ms = now;
    while (this.files.has(`${skill ? SKILLS : ''}${ms}-${file}`)) ms++;
    const trashId = `${skill ? SKILLS : ''}${ms}-${file}`;
    let name = file.replace(/\.json$/, '');
    try {
      name = (JSON.parse(text) as { name?: string }).name ?? name;
    } catch {
      // Not JSON: the file's stem stands in, as in the Rust library.
    }
    const entry: TrashEntry = { id: trashId, original: id, name, deleted_ms: ms, skill };
    this.files.set(trashId, { entry, text });
    return entry;
  }

  list(): TrashEntry[] {
    return [...this.files.values()].map((f) => f.entry).sort((a, b) => b.deleted_ms - a.deleted_ms || a.id.localeCompare(b.id));
  }

  /** The file `trashId` names, still in the trash (`remove` takes it out once restored). */
  get(trashId: string): { entry: TrashEntry; text: string } {
    const found = this.files.get(trashId);
    if (!found) throw new BackendError('not_found', `nothing named \`${trashId}\` in the trash`);
    return found;
  }

  remove(trashId: string) {
    this.files.delete(trashId);
  }
}
