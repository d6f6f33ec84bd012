import { describe, expect, it } from 'vitest';
import type { Action, Check } from '../bindings';
import { ACTION_FIELDS, CHECK_FIELDS, ROW_KINDS, applies, choicesOf, newAction, newCheck, retype } from './fields';
import { actionShort, checkShort } from './summary';

const shown = (a: Action) => ACTION_FIELDS[a.type].filter((f) => applies(f, a as unknown as Record<string, unknown>, ACTION_FIELDS[a.type])).map((f) => f.key);

describe('the extract action’s form', () => {
  it('asks for what to read, where it goes and how, in that order, reading text by default', () => {
    expect(ACTION_FIELDS.extract.map((f) => f.key)).toEqual(['target', 'into', 'read', 'attribute', 'pattern']);
    const read = ACTION_FIELDS.extract.find((f) => f.key === 'read')!;
    expect(read.options).toEqual(['text', 'lines', 'attribute', 'value', 'count', 'list', 'table']);
    expect(read.fallback).toBe('text');
    expect(ACTION_FIELDS.extract.every((f) => f.help || f.key === 'target')).toBe(true);
  });

  it('starts with an empty target and variable, and nothing the Rust model defaults', () => {
    expect(newAction('extract')).toEqual({ type: 'extract', target: { css: '' }, into: '' });
  });

  it('shows the attribute only when an attribute is read, and the pattern only for one text', () => {
    const base = { type: 'extract', target: { css: '#total' }, into: 'total' } as Action;
    expect(shown(base)).toEqual(['target', 'into', 'read', 'pattern']);
    expect(shown({ ...base, read: 'attribute' } as Action)).toEqual(['target', 'into', 'read', 'attribute', 'pattern']);
    expect(shown({ ...base, read: 'lines' } as Action)).toEqual(['target', 'into', 'read', 'pattern']);
    expect(shown({ ...base, read: 'table' } as Action)).toEqual(['target', 'into', 'read']);
    // A value that no longer applies stays in sight, next to the validator's complaint.
    expect(shown({ ...base, read: 'count', pattern: '\\d+' } as Action)).toEqual(['target', 'into', 'read', 'pattern']);
  });
});

describe('the variable check’s form', () => {
  it('names the variable, then how to compare, then with what; equals by default', () => {
    expect(CHECK_FIELDS.variable.map((f) => f.key)).toEqual(['name', 'match', 'value']);
    const match = CHECK_FIELDS.variable.find((f) => f.key === 'match')!;
    expect(match.options).toEqual(['equals', 'contains', 'pattern', 'less_than', 'at_most', 'greater_than', 'at_least']);
    expect(match.fallback).toBe('equals');
    expect(newCheck('variable')).toEqual({ type: 'variable', name: '', value: '' });
  });
});

describe('summaries of the new kinds', () => {
  it('says what an extract reads, from where, into which variable', () => {
    expect(actionShort({ type: 'extract', target: { css: '#total' }, into: 'total' })).toBe('extract text of #total → total');
    expect(actionShort({ type: 'extract', target: { css: 'a.next' }, into: 'link', read: 'attribute', attribute: 'href' })).toBe('extract href of a.next → link');
    expect(actionShort({ type: 'extract', target: { role: 'row' }, into: 'rows', read: 'count' })).toBe('extract count of row → rows');
    expect(actionShort({ type: 'extract', target: { css: '' }, into: '' })).toBe('extract text of (no target) → ?');
  });

  it('writes a variable check as a comparison, numbers bare and text quoted', () => {
    const v = (c: Partial<Extract<Check, { type: 'variable' }>>) => checkShort({ type: 'variable', name: 'total', value: '100', ...c } as Check);
    expect(v({ match: 'at_least' })).toBe('variable total ≥ 100');
    expect(v({ match: 'less_than', negate: true })).toBe('not variable total < 100');
    expect(v({ value: 'NW-1' })).toBe('variable total = “NW-1”');
    expect(v({ match: 'contains', value: '{{newest}}' })).toBe('variable total contains “{{newest}}”');
    expect(v({ match: 'pattern', value: '^NW-' })).toBe('variable total matches “^NW-”');
  });
});

describe('the use_skill action’s form', () => {
  it('asks for the skill, then its arguments and outputs as rows, both optional', () => {
    expect(ACTION_FIELDS.use_skill.map((f) => [f.key, f.kind, !!f.optional])).toEqual([
      ['skill', 'skill', false],
      ['args', 'arguments', true],
      ['outputs', 'outputs', true],
    ]);
    expect(ACTION_FIELDS.use_skill.every((f) => f.help)).toBe(true);
    expect(ACTION_FIELDS.use_skill.filter((f) => ROW_KINDS.includes(f.kind)).map((f) => f.key)).toEqual(['args', 'outputs']);
    expect(shown({ type: 'use_skill', skill: 'demo-sign-in' })).toEqual(['skill', 'args', 'outputs']);
  });

  it('starts with no skill chosen and nothing passed or copied', () => {
    expect(newAction('use_skill')).toEqual({ type: 'use_skill', skill: '' });
  });
});

describe('a use_skill in short', () => {
  it('reads as a call: the skill, the arguments it is given, the variables it sets here', () => {
    const args = { site: '{{site}}', username: '{{username}}', password: '{{password}}' };
    expect(actionShort({ type: 'use_skill', skill: 'demo-sign-in', args })).toBe('use_skill demo-sign-in(site, username, password)');
    expect(actionShort({ type: 'use_skill', skill: 'demo-sign-in', args: { password: 'x' }, outputs: { greeting: 'welcome_text', who: 'account' } })).toBe('use_skill demo-sign-in(password) → greeting, who');
    expect(actionShort({ type: 'use_skill', skill: 'search-product' })).toBe('use_skill search-product()');
    expect(actionShort({ type: 'use_skill', skill: '' })).toBe('use_skill ?()');
  });
});

describe('the switch_tab action', () => {
  it('starts as “back to the previous tab”, with nothing the Rust model defaults', () => {
    expect(newAction('switch_tab')).toEqual({ type: 'switch_tab' });
    expect(actionShort(newAction('switch_tab'))).toBe('back to the previous tab');
    expect(ACTION_FIELDS.switch_tab.map((f) => [f.key, f.kind])).toEqual([
      ['tab', 'tab'],
      ['close', 'bool'],
    ]);
  });

  it('says which tab it goes to, by address first, and that it closes the one it leaves', () => {
    expect(actionShort({ type: 'switch_tab', tab: { url: '/docs', title: 'Docs' } })).toBe('switch to tab /docs');
    expect(actionShort({ type: 'switch_tab', tab: { title: 'Docs' }, close: true })).toBe('switch to tab “Docs”, closing this one');
    expect(actionShort({ type: 'switch_tab', close: true })).toBe('back to the previous tab, closing this one');
  });
});

describe('the go_back action', () => {
  it('has no fields and says where it goes', () => {
    expect(newAction('go_back')).toEqual({ type: 'go_back' });
    expect(ACTION_FIELDS.go_back).toEqual([]);
    expect(actionShort(newAction('go_back'))).toBe('go back to the page before');
  });
});

describe('the check action', () => {
  it('starts checking its target and says whether it checks or unchecks', () => {
    expect(newAction('check')).toEqual({ type: 'check', target: { css: '' } });
    expect(ACTION_FIELDS.check.map((f) => [f.key, f.kind])).toEqual([['target', 'target'], ['checked', 'bool']]);
    expect(actionShort({ type: 'check', target: { role: 'checkbox', name: 'Newsletter' } })).toBe('check checkbox “Newsletter”');
    expect(actionShort({ type: 'check', target: { css: '#news' }, checked: false })).toBe('uncheck #news');
  });
});

describe('the drag action', () => {
  it('asks for what to carry and where to let it go', () => {
    expect(newAction('drag')).toEqual({ type: 'drag', target: { css: '' }, to: { css: '' } });
    expect(ACTION_FIELDS.drag.map((f) => [f.key, f.kind])).toEqual([['target', 'target'], ['to', 'target']]);
    expect(actionShort({ type: 'drag', target: { css: '#call' }, to: { role: 'region', name: 'Done' } })).toBe('drag #call to region “Done”');
  });
});

describe('changing an action\'s type', () => {
  it('keeps the element it works on when the new type works on one', () => {
    const click = { type: 'click' as const, target: { role: 'checkbox', name: 'Newsletter' } };
    expect(retype(click, 'check')).toEqual({ type: 'check', target: { role: 'checkbox', name: 'Newsletter' } });
    expect(retype(click, 'drag')).toEqual({ type: 'drag', target: { role: 'checkbox', name: 'Newsletter' }, to: { css: '' } });
    expect(retype(click, 'press_key')).toEqual({ type: 'press_key', key: '' });
  });
});

describe('the upload action', () => {
  it('starts with no file, a path a line, and says which file it gives to what', () => {
    expect(newAction('upload')).toEqual({ type: 'upload', target: { css: '' }, files: [] });
    expect(ACTION_FIELDS.upload.map((f) => [f.key, f.kind])).toEqual([['target', 'target'], ['files', 'lines']]);
    const one = { type: 'upload' as const, target: { css: '#cv' }, files: ['/home/ada/My CV.pdf'] };
    expect(actionShort(one)).toBe('upload “My CV.pdf” into #cv');
    expect(actionShort({ ...one, files: ['C:\\Users\\ada\\a.png', 'b.png'] })).toBe('upload 2 files into #cv');
  });
});

describe('the select_option action', () => {
  it('takes one option a line, several as a list, and says which it chooses', () => {
    expect(ACTION_FIELDS.select_option.map((f) => [f.key, f.kind])).toEqual([['target', 'target'], ['value', 'choices'], ['label', 'choices']]);
    expect(choicesOf('Leia', true)).toBe('Leia');
    expect(choicesOf('Leia\nLeia, Yoda', true)).toEqual(['Leia', 'Leia, Yoda']);
    expect(choicesOf('Leia\n', true)).toEqual(['Leia', '']);
    expect(choicesOf('', true)).toBeUndefined();
    const one = { type: 'select_option' as const, target: { css: '#people' }, label: 'Leia' };
    expect(actionShort(one)).toBe('select “Leia” in #people');
    expect(actionShort({ ...one, label: ['Leia', 'Yoda'] })).toBe('select “Leia”, “Yoda” in #people');
  });
});

describe('the download action', () => {
  it('asks what to click and what to keep the file as', () => {
    expect(newAction('download')).toEqual({ type: 'download', target: { css: '' }, filename: '' });
    expect(actionShort({ type: 'download', target: { text: 'Export' }, filename: 'sales.csv' })).toBe('download sales.csv through text “Export”');
  });
});
