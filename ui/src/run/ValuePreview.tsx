//! An extracted value, compact and readable: a text as it is, a number, a list as a short
//! numbered list, a table's rows as a small table. Long ones scroll inside a bounded box
//! and very long ones stop at a limit, so one big table cannot swamp the panel.

import { cellText, count, shapeOf } from './preview';

/** Rows and items drawn at most; the rest is counted. */
const LIMIT = 200;
/** Characters of one cell shown; the whole text is in its tooltip. */
const CELL = 80;

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function Cell({ value }: { value: unknown }) {
  const text = cellText(value);
  return <td title={text.length > CELL ? text : undefined}>{clip(text, CELL)}</td>;
}

function More({ total, what }: { total: number; what: string }) {
  return total > LIMIT ? <p className="hint value-more">… and {count(total - LIMIT, what)} more</p> : null;
}

export function ValuePreview({ value }: { value: unknown }) {
  const shape = shapeOf(value);
  switch (shape.kind) {
    case 'text':
      return shape.text ? <span className="value-text">{clip(shape.text, 2000)}</span> : <span className="hint">(empty text)</span>;
    case 'number':
      return <span className="value-number">{shape.text}</span>;
    case 'list':
      return (
        <div className="value-box" data-shape="list">
          <span className="hint">{count(shape.items.length, 'item')}</span>
          {shape.items.length > 0 && (
            <ol className="value-list">
              {shape.items.slice(0, LIMIT).map((item, i) => (
                <li key={i} title={item.length > CELL ? item : undefined}>
                  {clip(item, CELL)}
                </li>
              ))}
            </ol>
          )}
          <More total={shape.items.length} what="item" />
        </div>
      );
    case 'rows':
      return (
        <div className="value-box" data-shape="table">
          <table className="value-table">
            <caption className="hint">
              {count(shape.rows.length, 'row')} × {count(shape.columns.length, 'column')}
            </caption>
            <thead>
              <tr>
                {shape.columns.map((c) => (
                  <th key={c}>{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shape.rows.slice(0, LIMIT).map((r, i) => (
                <tr key={i}>
                  {shape.columns.map((c) => (
                    <Cell key={c} value={r[c]} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <More total={shape.rows.length} what="row" />
        </div>
      );
    case 'grid':
      return (
        <div className="value-box" data-shape="table">
          <table className="value-table">
            <caption className="hint">{count(shape.rows.length, 'row')}</caption>
            <tbody>
              {shape.rows.slice(0, LIMIT).map((r, i) => (
                <tr key={i}>
                  {r.map((cell, j) => (
                    <Cell key={j} value={cell} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <More total={shape.rows.length} what="row" />
        </div>
      );
    default:
      return <pre className="value-box args">{shape.text}</pre>;
  }
}
