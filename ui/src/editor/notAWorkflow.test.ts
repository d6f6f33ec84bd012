import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../bindings';
import { notAWorkflow } from './notAWorkflow';

const at = (line: number, column: number, message: string): Diagnostic =>
  ({ severity: 'error', file: 'broken.json', line, column, path: '', message, help: null }) as Diagnostic;

describe('a file that does not open in the editor', () => {
  it('says where its JSON is wrong', () => {
    const opened = { id: 'broken.json', workflow: null, hash: '', diagnostics: [at(4, 4, 'invalid JSON: expected value')] };
    expect(notAWorkflow(opened)).toBe('broken.json is not a workflow: line 4, column 4: invalid JSON: expected value');
  });

  it('says only what is wrong with a whole file, and something when nothing was said', () => {
    const huge = { id: 'huge.json', workflow: null, hash: '', diagnostics: [at(1, 1, 'the workflow file is larger than 64 MiB (68157440 bytes)')] };
    expect(notAWorkflow(huge)).toBe('huge.json is not a workflow: the workflow file is larger than 64 MiB (68157440 bytes)');
    expect(notAWorkflow({ id: 'x.json', workflow: null, hash: '', diagnostics: [] })).toBe('x.json is not a workflow: unreadable');
  });
});
