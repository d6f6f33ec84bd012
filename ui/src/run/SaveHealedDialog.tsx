//! *Save healed locators…*: the locators a run healed, previewed as a diff of its workflow
//! file, then written there (`statewright review save-healed` from the run viewer).

import { useEffect, useState } from 'react';
import type { Backend, HealedSaved } from '../backend/types';
import { Modal } from '../app/Modal';
import { Backticked } from '../review/Backticked';
import { DiffView } from '../review/DiffView';

const plural = (n: number) => `${n} locator${n === 1 ? '' : 's'}`;

/** The message once saved: how many, where, and the store's id of what was there before. */
export function savedText(saved: HealedSaved): string {
  const kept = saved.version != null ? ` (previous version kept as ${saved.version})` : '';
  return `Saved ${plural(saved.changes.length)} into ${saved.path}${kept}`;
}

export function SaveHealedDialog({ backend, runId, notify, onClose }: { backend: Backend; runId: string; notify: (m: string, level?: 'info' | 'error') => void; onClose: () => void }) {
  const [preview, setPreview] = useState<HealedSaved | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    backend.saveHealedLocators(runId, false).then(
      (p) => current && setPreview(p),
      (e: unknown) => current && setError((e as Error).message ?? String(e)),
    );
    return () => void (current = false);
  }, [backend, runId]);

  const save = async () => {
    setSaving(true);
    try {
      notify(savedText(await backend.saveHealedLocators(runId, true)));
      onClose();
    } catch (e) {
      setError((e as Error).message ?? String(e));
      setSaving(false);
    }
  };

  const body = error ? 'Nothing was saved.' : preview ? `${plural(preview.changes.length)} of run ${runId} into ${preview.path}:` : `Comparing what run ${runId} healed with its workflow file…`;
  return (
    <Modal
      title="Save healed locators"
      body={body}
      wide
      choices={[
        { label: saving ? 'Saving…' : 'Save', kind: 'primary', disabled: !preview || saving || !!error, onChoose: () => void save() },
        { label: 'Cancel', onChoose: onClose },
      ]}
    >
      {error && (
        <p className="notice error" data-testid="save-healed-error">
          {error}
        </p>
      )}
      {preview && !error && (
        <>
          <ul className="healed-changes" data-testid="healed-changes">
            {preview.changes.map((c, i) => (
              <li key={i}>
                <Backticked text={c} />
              </li>
            ))}
          </ul>
          <DiffView diff={preview.diff || '(no change to the workflow)'} />
        </>
      )}
    </Modal>
  );
}
