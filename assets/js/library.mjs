// The in-page library as the engine injects it: the sections of ./statewright/ joined in
// file-name order (crates/chrome/build.rs does the same at build time).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'statewright');

export const LIB_SOURCE = fs
  .readdirSync(dir)
  .filter((name) => name.endsWith('.js'))
  .sort()
  .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
  .join('');
