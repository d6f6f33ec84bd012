//! The model settings: the OpenAI-compatible endpoint the LLM stage asks, written to the
//! same settings file the CLI reads. The key is write-only here.

import { useEffect, useState } from 'react';
import type { Backend } from '../backend/types';
import type { ModelSettings } from '../bindings';

const num = (s: string) => (s.trim() === '' ? null : Number(s));

export function ModelSettingsDialog({ backend, onClose, notify }: { backend: Backend; onClose: () => void; notify: (m: string, level?: 'info' | 'error') => void }) {
  const [current, setCurrent] = useState<ModelSettings | null>(null);
  const [form, setForm] = useState({ url: '', model: '', timeout: '', retries: '', input_price: '', output_price: '', vision: true, ca_cert: '', api_key: '' });
  useEffect(() => {
    backend
      .modelSettings()
      .then((s) => {
        setCurrent(s);
        setForm({
          url: s.url ?? '',
          model: s.model ?? '',
          timeout: s.timeout?.toString() ?? '',
          retries: s.retries?.toString() ?? '',
          input_price: s.input_price?.toString() ?? '',
          output_price: s.output_price?.toString() ?? '',
          vision: s.vision ?? true,
          ca_cert: s.ca_cert ?? '',
          api_key: '',
        });
      })
      .catch((e) => notify((e as Error).message, 'error'));
  }, [backend, notify]);
  const field = (key: keyof typeof form, label: string, help: string, type = 'text') => (
    <label className="field">
      <span className="field-label">{label}</span>
      <input aria-label={`model ${key}`} type={type} value={String(form[key])} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
      <span className="hint">{help}</span>
    </label>
  );
  const save = async () => {
    try {
      const saved = await backend.saveModelSettings({
        url: form.url,
        model: form.model,
        timeout: num(form.timeout),
        retries: num(form.retries),
        input_price: num(form.input_price),
        output_price: num(form.output_price),
        vision: form.vision,
        ca_cert: form.ca_cert,
        api_key: form.api_key === '' ? null : form.api_key,
      });
      notify(saved.url ? `Model settings saved: ${saved.model} at ${saved.url}` : 'Model settings saved: no model (the LLM stage is skipped)');
      onClose();
    } catch (e) {
      notify((e as Error).message, 'error');
    }
  };
  return (
    <div className="modal-backdrop">
      <form className="modal" role="dialog" aria-label="model settings" onSubmit={(e) => (e.preventDefault(), void save())}>
        <h3>Model</h3>
        <p className="hint">
          The OpenAI-compatible endpoint asked when a run is stuck, before a person (Ollama, llama.cpp, a hosted API). Leave the URL empty for no model. Saved in{' '}
          <code>{current?.path ?? '…'}</code>, which the CLI reads too.
        </p>
        {current && current.overridden_by_env.length > 0 && <p className="problem warning">Set in the environment, and winning over this file: {current.overridden_by_env.join(', ')}</p>}
        {field('url', 'URL', 'e.g. http://127.0.0.1:11434/v1 or https://api.openai.com/v1')}
        {field('model', 'model', 'e.g. qwen2.5vl:7b')}
        {field('api_key', 'API key', current?.has_api_key ? 'a key is set; type to replace it' : 'none set', 'password')}
        {field('timeout', 'timeout', 'seconds per call (default 60)')}
        {field('retries', 'retries', 'on 429 and 5xx (default 2)')}
        {field('input_price', 'input price', 'US$ per million prompt tokens')}
        {field('output_price', 'output price', 'US$ per million completion tokens')}
        {field('ca_cert', 'CA file', 'a PEM file of authorities to trust for https, besides the system’s (a private CA)')}
        <label className="field">
          <span className="field-label">vision</span>
          <input type="checkbox" aria-label="model vision" checked={form.vision} onChange={(e) => setForm({ ...form, vision: e.target.checked })} />
          <span className="hint">send set-of-mark screenshots (off for text-only models)</span>
        </label>
        <div className="modal-actions">
          {current?.has_api_key && (
            <button type="button" className="danger" onClick={() => void backend.saveModelSettings({ ...current, api_key: '' }).then(onClose, (e) => notify((e as Error).message, 'error'))}>
              Remove key
            </button>
          )}
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary">
            Save
          </button>
        </div>
      </form>
    </div>
  );
}
