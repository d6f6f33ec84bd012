// Tests for the alternatives that actionable() reports with {alternatives: true}: the other
// targets a later run can heal an action with when its own target finds nothing.
//
// Run with node's built-in runner:   node --test assets/js/test/
// The set-up the library's tests share (assets/js/pages.mjs): playwright-core driving
// /usr/bin/chromium (override with STATEWRIGHT_CHROMIUM), pages served from loopback, the
// library as an init script.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { open as openPage, sw } from '../pages.mjs';

/** A fresh page with the library injected, showing `html`. */
const open = (html) => openPage({ html });

/** The alternatives reported for `target`, after asserting the action itself succeeded. */
async function alternatives(page, target) {
  const r = await sw(page, 'actionable', target, { timeoutMs: 1000, alternatives: true });
  assert.equal(r.ok, true, `${JSON.stringify(target)} is actionable: ${r.message}`);
  assert.ok(Array.isArray(r.alternatives), 'alternatives are reported');
  return { description: r.description, list: r.alternatives };
}

/** Every alternative, used as a target, finds the element the original target found. */
async function assertAllDesignate(page, original) {
  const { description, list } = await alternatives(page, original);
  for (const alt of list) {
    const r = await sw(page, 'actionable', alt, { timeoutMs: 300 });
    assert.equal(r.ok, true, `${JSON.stringify(alt)} resolves`);
    assert.equal(r.description, description, `${JSON.stringify(alt)} finds the same element as ${JSON.stringify(original)}`);
  }
  return list;
}

// ---------------------------------------------------------------------------
describe('alternatives', () => {
  test('are only computed when asked for', async () => {
    const page = await open('<button id="go">Go</button>');
    const r = await sw(page, 'actionable', { css: '#go' }, { timeoutMs: 300 });
    assert.equal(r.ok, true);
    assert.equal('alternatives' in r, false);
  });

  test('come most stable first: test id, role + name, name, descriptive attributes, position', async () => {
    const page = await open(`
      <form id="checkout">
        <label for="email">Email</label>
        <input id="email" name="email" data-testid="email-field" placeholder="you@example.com" title="Where receipts go">
      </form>`);
    const list = await assertAllDesignate(page, { css: '#email' });
    assert.deepEqual(list, [
      { css: '[data-testid="email-field"]' },
      { role: 'textbox', name: 'Email' },
      { css: 'input[name="email"]' },
      { css: 'input[placeholder="you@example.com"]' },
      { css: 'input[title="Where receipts go"]' },
      { css: '#checkout > input' },
    ], 'the original #email is left out; the label gives the accessible name');
  });

  test('id, aria-label and text come after role + name; the original target is dropped', async () => {
    const page = await open(`
      <main><p>Intro</p><div class="bar">
        <button id="save-draft">Save draft</button>
        <button id="trash" aria-label="Delete">X</button>
      </div></main>`);
    assert.deepEqual(await assertAllDesignate(page, { role: 'button', name: 'Save draft' }), [
      { css: '#save-draft' },
      { text: 'Save draft' },
      { css: 'body > main > div > button:nth-of-type(1)' },
    ]);
    assert.deepEqual(await assertAllDesignate(page, { css: '#trash' }), [
      { role: 'button', name: 'Delete' },
      { css: 'button[aria-label="Delete"]' },
      { text: 'X' },
      { css: 'body > main > div > button:nth-of-type(2)' },
    ]);
  });

  test('look-alikes are named by their container\'s heading first, then told apart with nth; the path anchors at a stable id', async () => {
    const cards = ['Kettle', 'Pan', 'Pot'].map((n) => `<article><h3>${n}</h3><button>Add to cart</button></article>`);
    const page = await open(`<section id="results">${cards.join('')}</section>`);
    const list = await assertAllDesignate(page, { xpath: '//article[h3="Pan"]//button' });
    assert.deepEqual(list, [
      { xpath: "//article[.//h3[normalize-space()='Pan']]//button[normalize-space()='Add to cart']" },
      { role: 'button', name: 'Add to cart', nth: 1 },
      { text: 'Add to cart', nth: 1 },
      { css: '#results > article:nth-of-type(2) > button' },
    ]);
  });

  test('generated-looking ids are neither offered nor used as anchors', async () => {
    const ids = {
      ':r0:': false, 'ember123': false, 'btn-3f9a2c7e': false, 'field-4821': false, 'mui-7': false,
      'radix-:R1:': false, 'a1b2c3d4-e5f6-4711-8a9b-0c1d2e3f4a5b': false, 'option-2': false, 'row_12': false,
      'sign-in': true, 'facade': true, 'h2-title': true, 'place-order': true,
    };
    const buttons = Object.keys(ids).map((id, i) => `<button id="${id}">Button ${i}</button>`);
    const page = await open(`<div id="c9f3e2a1">${buttons.join('')}</div>`);
    for (const [id, stable] of Object.entries(ids)) {
      const i = Object.keys(ids).indexOf(id);
      const { list } = await alternatives(page, { text: `Button ${i}` });
      const escaped = await page.evaluate((v) => '#' + CSS.escape(v), id);
      assert.equal(list.some((t) => t.css === escaped), stable, `id "${id}" is ${stable ? 'stable' : 'generated'}`);
      assert.ok(!list.some((t) => t.css && t.css.startsWith('#c9f3e2a1')), 'a hashed id is no anchor');
    }
  });

  test('attribute values are quoted so that the selector finds the element', async () => {
    const page = await open(`<input name='say "hi" \\o/' aria-label="Greeting"><input name="other" aria-label="Other">`);
    const list = await assertAllDesignate(page, { role: 'textbox', name: 'Greeting' });
    assert.deepEqual(list[0], { css: 'input[name="say \\"hi\\" \\\\o/"]' });
  });

  test('typing into a label resolves the control, and its alternatives name the control', async () => {
    const page = await open('<label>Bio <textarea name="bio"></textarea></label>');
    const r = await sw(page, 'actionable', { text: 'Bio' }, { timeoutMs: 1000, editable: true, alternatives: true });
    assert.equal(r.ok, true, r.message);
    assert.deepEqual(r.alternatives, [
      { role: 'textbox', name: 'Bio' },
      { css: 'textarea[name="bio"]' },
      { css: 'body > label > textarea' },
    ]);
  });

  test('long texts, hidden duplicates and unresolvable candidates are left out; at most six', async () => {
    const long = 'A very long paragraph of button text that nobody would ever use as a locator';
    const page = await open(`
      <button data-testid="t1" data-qa="q1" data-cy="c1" data-test="d1" name="n" title="T" aria-label="Big">${long}</button>
      <button style="display:none" title="T">hidden twin</button>`);
    const { list } = await alternatives(page, { css: 'button' });
    assert.ok(list.length <= 6, `capped: ${JSON.stringify(list)}`);
    assert.ok(!list.some((t) => t.text), 'no long text');
    assert.deepEqual(list[list.length - 1], { css: 'body > button:nth-of-type(1)' }, 'the position path keeps the last slot');
    assert.deepEqual(list.slice(0, 4), [
      { css: '[data-testid="t1"]' }, { css: '[data-test="d1"]' }, { css: '[data-qa="q1"]' }, { css: '[data-cy="c1"]' },
    ]);
  });

  test('a value too long to be a locator is left out: the store keeps no megabyte selectors', async () => {
    // A page's data: link, a generated title or label, a test id made of a payload, a button
    // whose name is a whole text, an element thousands of levels deep: each run that acted
    // on it kept its alternatives (in the run's timeline, the store's actions and its
    // locators), 20 MB of them for one 20 MB attribute.
    const big = (c, n) => c.repeat(n);
    const page = await open(`
      <a id="get" data-testid="${big('t', 5000)}" title="${big('T', 100000)}" aria-label="Get"
         href="data:text/plain;base64,${big('QUJD', 250000)}">Get</a>
      <input id="q" name="${big('n', 5000)}" placeholder="${big('p', 5000)}" aria-label="Query">
      <button id="essay" class="essay">${big('word ', 20000)}</button>
      <div id="deep"></div>`);
    await page.evaluate(() => {
      let e = document.getElementById('deep');
      for (let i = 0; i < 1500; i++) e = e.appendChild(document.createElement('div'));
      e.innerHTML = '<button>Bottom</button>';
    });
    const longest = (list) => Math.max(...list.map((t) => JSON.stringify(t).length));
    const link = await assertAllDesignate(page, { css: '#get' });
    assert.deepEqual(link, [{ role: 'link', name: 'Get' }, { css: 'a[aria-label="Get"]' }, { text: 'Get' }, { css: 'body > a' }]);
    const field = await assertAllDesignate(page, { css: '#q' });
    assert.deepEqual(field, [{ role: 'textbox', name: 'Query' }, { css: 'input[aria-label="Query"]' }, { css: 'body > input' }]);
    const essay = await assertAllDesignate(page, { css: '#essay' });
    assert.ok(longest(essay) < 1100, `no alternative names the button by its 100,000 characters: ${longest(essay)}`);
    assert.deepEqual(essay, [{ css: 'body > button' }]);
    const bottom = await assertAllDesignate(page, { text: 'Bottom' });
    assert.ok(longest(bottom) < 1100, `no path 1,500 levels long: ${longest(bottom)}`);
    assert.deepEqual(bottom, [{ role: 'button', name: 'Bottom' }]);
  });

  test('cheap on a 5,000-element page and leave the DOM alone', async (t) => {
    const page = await open('<div id="root"></div>');
    await page.evaluate(() => {
      const parts = [];
      for (let i = 0; i < 1000; i++) {
        parts.push(`<div class="row"><span>Item ${i}</span> <a href="#i${i}">Link ${i}</a>` +
          ` <button name="buy">Buy ${i}</button><p>Description text number ${i}</p></div>`);
      }
      document.getElementById('root').innerHTML = parts.join('\n');
    });
    const before = await page.evaluate(() => document.documentElement.outerHTML);
    const timing = await page.evaluate(async () => {
      const sw = window.__statewright;
      const target = { css: '.row:nth-child(700) button' };
      const opts = { timeoutMs: 1000 };
      const times = [];
      let last;
      for (let i = 0; i < 7; i++) {
        const t0 = performance.now();
        last = await sw.actionable(target, Object.assign({ alternatives: true }, opts));
        const t1 = performance.now();
        await sw.actionable(target, opts);
        const t2 = performance.now();
        times.push((t1 - t0) - (t2 - t1));
      }
      times.sort((a, b) => a - b);
      return { extra: times[3], list: last.alternatives };
    });
    const msg = `alternatives on a 5,000-element page cost ${timing.extra.toFixed(1)} ms (median)`;
    t.diagnostic(msg);
    assert.deepEqual(timing.list, [
      { role: 'button', name: 'Buy 699' },
      { css: 'button[name="buy"]', nth: 699 },
      { text: 'Buy 699' },
      { css: '#root > div:nth-of-type(700) > button' },
    ]);
    assert.ok(timing.extra < 100, msg);
    assert.equal(await page.evaluate(() => document.documentElement.outerHTML), before, 'no DOM change');
  });

  test('a link is also found by where it leads, unless that is nowhere or a script', async () => {
    const page = await open(`
      <nav><a id="signin" href="login.html">Sign in</a><a id="top" href="#">Top</a>
      <a id="run" href="javascript:void 0">Run</a></nav>`);
    assert.deepEqual(await assertAllDesignate(page, { css: '#signin' }), [
      { role: 'link', name: 'Sign in' },
      { css: 'a[href="login.html"]' },
      { text: 'Sign in' },
      { css: 'body > nav > a:nth-of-type(1)' },
    ]);
    const hrefs = (list) => list.filter((t) => t.css && t.css.includes('href'));
    assert.deepEqual(hrefs(await assertAllDesignate(page, { css: '#top' })), []);
    assert.deepEqual(hrefs(await assertAllDesignate(page, { css: '#run' })), []);
  });
});

describe('locate', () => {
  test('gives, per element probe, the alternatives of the first visible element it finds', async () => {
    const page = await open(`
      <p hidden><a class="nav" href="hidden.html">Hidden</a></p>
      <nav><a class="nav" id="signin" href="login.html">Sign in</a></nav>`);
    const found = await sw(page, 'locate', [
      { kind: 'element', by: 'css', selector: 'a.nav' },
      { kind: 'element', by: 'xpath', selector: '//nav/a' },
      { kind: 'element', by: 'css', selector: '#nothing-here' },
      { kind: 'element', by: 'css', selector: 'a[[[' },
      { kind: 'text', value: 'Sign in', mode: 'equals' },
    ]);
    assert.equal(found.length, 5, 'one answer per probe');
    assert.deepEqual(found[0].slice(0, 3), [{ role: 'link', name: 'Sign in' }, { css: '#signin' }, { css: 'a[href="login.html"]' }],
      'the visible link, not the hidden one');
    assert.deepEqual(found[1], found[0], 'XPath finds the same element');
    assert.deepEqual(found.slice(2), [[], [], []], 'nothing found, a bad selector, and a text probe give none');
  });
});
