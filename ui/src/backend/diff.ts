//! A line diff in unified format, for the fake backend's review previews (the real app
//! gets its diff from Rust).

export function unifiedDiff(before: string, after: string, name = 'workflow.json'): string {
  const a = before.split('\n');
  const b = after.split('\n');
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const lines: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) (lines.push(` ${a[i]}`), i++, j++);
    else if (j < m && (i >= n || lcs[i][j + 1] >= lcs[i + 1][j])) lines.push(`+${b[j++]}`);
    else lines.push(`-${a[i++]}`);
  }
  if (!lines.some((l) => l[0] !== ' ')) return '';
  return [`--- a/${name}`, `+++ b/${name}`, `@@ -1,${n} +1,${m} @@`, ...lines].join('\n');
}
