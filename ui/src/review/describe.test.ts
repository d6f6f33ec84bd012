import { describe, expect, it } from 'vitest';
import type { PageElement, ReviewView } from '../bindings';
import { actionOn, failureText, likelyState, switchTo, tabLabel, targetFor } from './describe';

const states = ['Consent popup', 'Login page', 'Home page', 'Start'];
const review = (over: Partial<ReviewView>) => ({ states, state: null, reason: 'r', failure: { kind: 'driver', error: 'x' }, ...over }) as ReviewView;

describe('the review panel’s words', () => {
  it('guesses the closest match the engine found, not the first state', () => {
    const closest = [
      { state: 'Login page', passed: 1, total: 3, failing: [] },
      { state: 'Home page', passed: 2, total: 2, failing: [] },
    ];
    expect(likelyState(review({ failure: { kind: 'no_state', seconds: 5, url: '', title: '', closest } }))).toBe('Home page');
    expect(likelyState(review({ state: 'Login page', failure: { kind: 'action', state: 'Login page', index: 0, action: 'click', error: 'e' } }))).toBe('Login page');
    expect(likelyState(review({}))).toBe('Consent popup');
  });

  it('numbers actions from 1', () => {
    expect(failureText(review({ failure: { kind: 'action', state: 'Cart', index: 1, action: 'click', error: 'gone' } }))).toBe('action 2 (click) of state `Cart` failed: gone');
  });

  it('suggests role and name over a CSS selector', () => {
    const el = { id: 'e1', tag: 'button', role: 'button', name: 'Sign in', text: 'Sign in', rect: { x: 0, y: 0, width: 1, height: 1 }, selector: '#login-submit' } as PageElement;
    expect(targetFor(el)).toEqual({ role: 'button', name: 'Sign in' });
    expect(targetFor({ ...el, name: '' })).toEqual({ css: '#login-submit' });
  });

  it('says a no-state failure in a short sentence, leaving the closest states to the table', () => {
    const closest = [{ state: 'Home page', passed: 1, total: 2, failing: ['element "#hero"'] }];
    const reason = 'no state matched for 5 s (no_states_timeout) at http://x/ (title "X")\n  closest: `Home page` (1/2 checks pass; failing: element "#hero")';
    expect(failureText(review({ reason, failure: { kind: 'no_state', seconds: 5, url: 'http://x/', title: 'X', closest } }))).toBe('no state matched this page for 5 s');
    expect(failureText(review({ reason, failure: { kind: 'no_state', seconds: 5, url: '', title: '', closest: [], silent: true } }))).toMatch(/^the page did not answer once in 5 s/);
  });

  it('names a tab to switch to as a workflow would: the tab before by no name, another by its exact title', () => {
    expect(switchTo({ url: 'http://x/form', title: 'Form', previous: true })).toEqual({ type: 'switch_tab' });
    expect(switchTo({ url: 'http://x/code', title: 'Your code' })).toEqual({ type: 'switch_tab', tab: { title: 'Your code', match: 'exact' } });
    expect(switchTo({ url: 'http://x/blank', title: '' })).toEqual({ type: 'switch_tab', tab: { url: 'http://x/blank', match: 'exact' } });
    // As the engine names it: any count matches.
    const inbox = switchTo({ url: 'http://mail/', title: '(3) Inbox' });
    expect(inbox).toEqual({ type: 'switch_tab', tab: { title: '^\\(\\d+\\) Inbox$', match: 'pattern' } });
    const pattern = new RegExp((inbox as { tab: { title: string } }).tab.title);
    expect([pattern.test('(12) Inbox'), pattern.test('(3) Inbox — spam')]).toEqual([true, false]);
    expect(tabLabel({ url: 'http://x/form', title: 'Form', previous: true })).toBe('“Form” (the tab before)');
    expect(tabLabel({ url: 'http://x/blank', title: '' })).toBe('“http://x/blank”');
  });
});

describe('the action on a picked element', () => {
  const el = (over: Partial<PageElement>): PageElement => ({ id: 'e1', tag: 'input', role: 'checkbox', name: 'Newsletter', text: '', rect: { x: 0, y: 0, width: 10, height: 10 }, selector: '#news', ...over });
  it('sets a box to the state it is not in, and clicks anything else', () => {
    expect(actionOn(el({ checked: false }))).toEqual({ type: 'check', target: { role: 'checkbox', name: 'Newsletter' } });
    expect(actionOn(el({ checked: true }))).toEqual({ type: 'check', target: { role: 'checkbox', name: 'Newsletter' }, checked: false });
    expect(actionOn(el({ role: 'radio', name: 'Express', checked: true }))).toEqual({ type: 'check', target: { role: 'radio', name: 'Express' } });
    expect(actionOn(el({ tag: 'button', role: 'button', name: 'Save' }))).toEqual({ type: 'click', target: { role: 'button', name: 'Save' } });
  });
});
