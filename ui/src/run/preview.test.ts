import { describe, expect, it } from 'vitest';
import { cellText, columnsOf, count, shapeOf } from './preview';

describe('the shape of an extracted value', () => {
  it('shows texts and numbers as they are', () => {
    expect(shapeOf('NW-542052')).toEqual({ kind: 'text', text: 'NW-542052' });
    expect(shapeOf(5)).toEqual({ kind: 'number', text: '5' });
  });

  it('shows a list of texts as items', () => {
    expect(shapeOf(['NW-1', 'NW-2'])).toEqual({ kind: 'list', items: ['NW-1', 'NW-2'] });
    expect(shapeOf([])).toEqual({ kind: 'list', items: [] });
  });

  it('shows a table with a header as rows under every column any row has', () => {
    const rows = [{ Order: 'NW-1', Total: '$1.00' }, { Order: 'NW-2', Status: 'Shipped' }];
    expect(shapeOf(rows)).toEqual({ kind: 'rows', columns: ['Order', 'Total', 'Status'], rows });
    expect(columnsOf([{ b: 1 }, { a: 2, b: 3 }])).toEqual(['b', 'a']);
  });

  it('shows a table without a header as a grid, and anything else as JSON', () => {
    expect(shapeOf([['a', 'b'], ['c', 'd']])).toEqual({ kind: 'grid', rows: [['a', 'b'], ['c', 'd']] });
    expect(shapeOf({ a: 1 }).kind).toBe('json');
    expect(shapeOf([1, { a: 1 }]).kind).toBe('json');
  });

  it('writes cells and counts for people', () => {
    expect([cellText(null), cellText(3), cellText({ a: 1 })]).toEqual(['', '3', '{"a":1}']);
    expect([count(1, 'row'), count(3, 'row'), count(0, 'item')]).toEqual(['1 row', '3 rows', '0 items']);
  });
});
