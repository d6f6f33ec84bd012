// Processes and their memory, read from /proc: for the batch and app memory benchmarks.
import { readFileSync, readdirSync } from 'node:fs';

/** Every process whose ancestry leads to one of `roots`, by reading /proc once. */
export function tree(roots) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name may hold spaces and parentheses: the fields start after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended meanwhile.
    }
  }
  const inTree = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (!inTree.has(pid) && inTree.has(ppid)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  return [...inTree].filter((pid) => parents.has(pid));
}

/** Sum of RSS and PSS in KiB over `pids` (processes that ended meanwhile count nothing). */
export function memory(pids) {
  let rss = 0;
  let pss = 0;
  for (const pid of pids) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      rss += Number(rollup.match(/^Rss:\s+(\d+)/m)?.[1] ?? 0);
      pss += Number(rollup.match(/^Pss:\s+(\d+)/m)?.[1] ?? 0);
    } catch {
      // Gone.
    }
  }
  return { rss, pss };
}
