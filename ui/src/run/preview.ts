//! How an extracted value is shown: what shape it has (one text, a number, a list, a
//! table's rows) and, for tables, their columns. Pure, so the shapes are unit-tested.

export type Shape =
  | { kind: 'text'; text: string }
  | { kind: 'number'; text: string }
  | { kind: 'list'; items: string[] }
  /** Rows keyed by header cells (a table with a header). */
  | { kind: 'rows'; columns: string[]; rows: Record<string, unknown>[] }
  /** Rows of cells (a table without a header). */
  | { kind: 'grid'; rows: unknown[][] }
  | { kind: 'json'; text: string };

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isScalar = (v: unknown) => v == null || ['string', 'number', 'boolean'].includes(typeof v);

/** A cell or list item as text: scalars as written, anything deeper as compact JSON. */
export function cellText(v: unknown): string {
  if (v == null) return '';
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The header keys of `rows` in the order first seen, so a column missing from the first
 * row is not lost. */
export function columnsOf(rows: Record<string, unknown>[]): string[] {
  const columns: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!columns.includes(k)) columns.push(k);
  return columns;
}

export function shapeOf(value: unknown): Shape {
  if (typeof value === 'string') return { kind: 'text', text: value };
  if (typeof value === 'number' || typeof value === 'boolean') return { kind: 'number', text: String(value) };
  if (Array.isArray(value)) {
    if (value.length && value.every(isRecord)) return { kind: 'rows', columns: columnsOf(value), rows: value };
    if (value.length && value.every(Array.isArray)) return { kind: 'grid', rows: value };
    if (value.every(isScalar)) return { kind: 'list', items: value.map(cellText) };
  }
  return { kind: 'json', text: JSON.stringify(value, null, 1) ?? String(value) };
}

/** `n` things in words: `1 row`, `3 rows`. */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
