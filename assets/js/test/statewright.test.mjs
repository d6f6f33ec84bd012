// Tests for the Statewright in-page library (assets/js/statewright/): installing it, the
// signals checks read, and waiting for them to change. Finding and acting on targets, and
// the snapshot, are in act.test.mjs.
//
// Run with node's built-in runner:   node --test assets/js/test/
// Needs `playwright-core` resolvable (top-level devDependency) and a Chromium binary:
// /usr/bin/chromium by default, override with STATEWRIGHT_CHROMIUM=/path/to/chromium.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { LIB_SOURCE } from '../library.mjs';
import { base, cdpCall, css, freshContext, open, sw, text, xpath } from '../pages.mjs';
// ---------------------------------------------------------------------------
describe('install', () => {
  test('defines one frozen instance, no DOM changes, second evaluation is a no-op', async () => {
    const page = await open('probes.html');
    const before = await page.evaluate(() => ({
      html: document.documentElement.outerHTML,
      keys: Object.keys(window).filter((k) => k.includes('statewright')),
    }));
    assert.deepEqual(before.keys, []); // non-enumerable
    const snap1 = await sw(page, 'snapshot', 100);
    await page.evaluate(() => { window.__firstInstance = window.__statewright; });
    await page.evaluate(LIB_SOURCE); // evaluate the library a second time
    const r = await page.evaluate(() => ({
      same: window.__firstInstance === window.__statewright,
      frozen: Object.isFrozen(window.__statewright),
      fns: Object.keys(window.__statewright).sort(),
      html: document.documentElement.outerHTML,
    }));
    assert.equal(r.same, true);
    assert.equal(r.frozen, true);
    assert.deepEqual(r.fns, ['actionable', 'checkState', 'describe', 'extract', 'fileInput', 'html', 'locate', 'prepareTyping',
      'record', 'recorded', 'scrollBy', 'scrollIntoView', 'selectOption', 'setValue', 'signals', 'snapshot', 'typedValue', 'version',
      'waitForChange', 'watch', 'watched']);
    assert.equal(r.html, before.html, 'library must not modify the DOM');
    const snap2 = await sw(page, 'snapshot', 100);
    assert.deepEqual(snap2.elements.map((e) => e.id), snap1.elements.map((e) => e.id));
    // Using the API leaves the DOM alone too.
    await sw(page, 'signals', [text('Sign in'), text('Alice', 'contains'), css('#signin')]);
    assert.equal((await sw(page, 'actionable', { text: 'Sign in' }, { timeoutMs: 1000, hitTest: true })).ok, true);
    await sw(page, 'describe', { role: 'button', name: 'Sign in' });
    await sw(page, 'waitForChange', [text('Sign in')], { results: [true] }, 50);
    const read = await sw(page, 'extract', { css: '#signin' }, 'text', null, { timeoutMs: 100 });
    assert.deepEqual([read.ok, read.value], [true, 'Sign in']);
    const none = await sw(page, 'extract', { css: '#signin' }, 'attribute', 'data-nope', { timeoutMs: 50 });
    assert.deepEqual([none.ok, none.reason], [false, 'no_attribute']);
    assert.equal(await page.evaluate(() => document.documentElement.outerHTML), before.html);
  });

  test('works when evaluated into an already-loaded page (no init script)', async () => {
    const page = await (await freshContext()).newPage();
    await page.goto(`${base}/probes.html`);
    assert.equal(await cdpCall(page, 'typeof window.__statewright'), 'undefined');
    await cdpCall(page, LIB_SOURCE);
    const sig = await cdpCall(page, `window.__statewright.signals([{kind:'text', value:'Sign in', mode:'equals'}])`);
    assert.deepEqual(sig.results, [true]);
    const act = await cdpCall(page, `window.__statewright.actionable({text:'Sign in'}, {timeoutMs: 1000, hitTest: true})`);
    assert.equal(act.ok, true);
    assert.equal(act.description, 'button#signin "Sign in"');
  });

  test('survives a page that sabotages Array.prototype.map, JSON and friends after load', async () => {
    const page = await open('hostile.html');
    // Playwright's own helpers break on this page, so talk CDP like the Rust engine does.
    assert.equal(await cdpCall(page, 'window.__sabotaged === true && (() => { try { [1].map(String); return false; } catch (e) { return true; } })()'), true);
    const sig = await cdpCall(page, `window.__statewright.signals([
      {kind:'text', value:'Press me', mode:'equals'},
      {kind:'text', value:'Hostile  page', mode:'contains'},
      {kind:'element', by:'css', selector:'#b'},
      {kind:'element', by:'xpath', selector:'//input[@id="name"]'},
      {kind:'text', value:'absent', mode:'equals'},
      {kind:'element', by:'css', selector:'##'}])`);
    assert.deepEqual(sig.results, [true, true, true, true, false, false]);
    assert.equal(sig.errors.length, 1);
    assert.equal(sig.errors[0].index, 5);
    assert.equal(sig.title, 'Hostile');

    const act = await cdpCall(page,
      `window.__statewright.actionable({role:'button', name:'Press me'}, {timeoutMs: 2000, enabled: true, hitTest: true})`);
    assert.equal(act.ok, true, JSON.stringify(act));
    assert.equal(act.tag, 'button');

    const w = await cdpCall(page, `(() => {
      const p = [{kind:'text', value:'Later', mode:'equals'}];
      const since = window.__statewright.signals(p);
      const d = document.createElement('p'); d.textContent = 'Later';
      Reflect.apply(window.__origSetTimeout, window, [() => document.body.appendChild(d), 50]);
      return window.__statewright.waitForChange(p, since, 2000);
    })()`);
    assert.deepEqual(w.results, [true]);

    const snap = await cdpCall(page, 'window.__statewright.snapshot(1000)');
    assert.deepEqual(snap.elements.map((e) => e.tag), ['button', 'input', 'select']);
    const typing = await cdpCall(page, `window.__statewright.prepareTyping({css:'#name'}, true)`);
    assert.equal(typing.ok, true, JSON.stringify(typing));
    const sel = await cdpCall(page, `window.__statewright.selectOption({css:'#s'}, {label:'Two'})`);
    assert.equal(sel.ok, true, JSON.stringify(sel));
    assert.equal(sel.selected, '2');
  });
});

// ---------------------------------------------------------------------------
describe('signals', () => {
  test('text/equals: visibility, whitespace, NBSP, nested spans, input buttons, shadow DOM', async () => {
    const page = await open('probes.html');
    const cases = [
      ['Welcome back, Alice', true],
      ['Welcome\u00a0back,\n  Alice ', true],
      ['Sign in', true],
      ['Sign', false],
      ['Hidden by display', false],
      ['Hidden by visibility', false],
      ['Zero size text', false],
      ['Details secret', false],
      ['More info', true],
      ['Transparent text', true],
      ['Multi part text', true],
      ['Send message', true],
      ['42 EUR', true],
      ['Price: 42 EUR', true],
      ['Line one Line two', true],
      ['Line one', true],
      ['shout', true],
      ['Checkout', true],
      ['Checkout (hidden suffix)', false],
      ['Script text should not count', false],
      ['Shadow words here', true],
      ['', false],
    ];
    const sig = await sw(page, 'signals', cases.map(([v]) => text(v)));
    assert.deepEqual(sig.errors, []);
    cases.forEach(([v, want], i) => assert.equal(sig.results[i], want, `equals ${JSON.stringify(v)}`));
    assert.equal(sig.title, 'Probes');
    assert.equal(sig.url, `${base}/probes.html`);
  });

  test('text/contains uses visible page text', async () => {
    const page = await open('probes.html');
    const cases = [
      ['back, Alice', true],
      ['Welcome   back', true],
      ['Price: 42\u00a0EUR', true],
      ['Details secret', false],
      ['Hidden by display', false],
      ['Hidden by visibility', false],
      ['Shadow words', true],
      ['Script text', false],
      ['sign in', false], // case-sensitive
      ['SHOUT', true], // innerText applies text-transform
      ['Line one Line two', true],
      ['Checkout (hidden suffix)', false],
      ['', false],
    ];
    const sig = await sw(page, 'signals', cases.map(([v]) => text(v, 'contains')));
    cases.forEach(([v, want], i) => assert.equal(sig.results[i], want, `contains ${JSON.stringify(v)}`));
    // Same answers when an equals probe makes the library walk text nodes first.
    const mixed = await sw(page, 'signals', [text('Sign in'), ...cases.map(([v]) => text(v, 'contains'))]);
    assert.deepEqual(mixed.results, [true, ...cases.map(([, want]) => want)]);
  });

  test('characters that show nothing (zero width, soft hyphen, bidi marks) count for nothing, in the page and the check', async () => {
    const page = await open({ html: `<p>Zero&#8203;width</p><p>Hyphen&shy;ated</p>
      <p>Price: \u200f100 \u20aa\u200e total</p><p>\u2066Iso\u2069 \u202aEmbed\u202c Word\u2060joiner \ufeffBom</p>
      <button onclick="this.textContent = 'clicked'">Pay&#8203;&shy;now</button>` });
    const cases = [
      ['Zerowidth', true], ['Zero\u200bwidth', true], ['Hyphenated', true], ['Hyphen\u00adated', true],
      ['Price: 100 \u20aa total', true], ['Iso Embed Wordjoiner Bom', true], ['\u200eIso\u200f', false],
      ['Paynow', true], ['Zero width', false],
    ];
    const probes = [...cases.map(([v]) => text(v)), ...cases.map(([v]) => text(v, 'contains'))];
    const sig = await sw(page, 'signals', probes);
    assert.deepEqual(sig.errors, []);
    cases.forEach(([v, want], i) => {
      const contains = v === '\u200eIso\u200f' ? true : want;
      assert.equal(sig.results[i], want, `equals ${JSON.stringify(v)}`);
      assert.equal(sig.results[cases.length + i], contains, `contains ${JSON.stringify(v)}`);
    });
    const at = await sw(page, 'actionable', { text: 'Paynow' }, { timeoutMs: 500, hitTest: true });
    assert.equal(at.ok, true, JSON.stringify(at));
    const role = await sw(page, 'actionable', { role: 'button', name: 'Pay\u200bnow' }, { timeoutMs: 500 });
    assert.equal(role.ok, true, JSON.stringify(role));
    const read = await sw(page, 'extract', { css: 'p' }, 'text');
    assert.equal(read.value, 'Zerowidth');
  });

  test('a text read of a form field reads what it shows: its value, a drop-down its chosen option, a password nothing', async () => {
    const page = await open({ html: `<textarea id="story">first text</textarea>
      <input id="name" value="Ada"> <input id="go" type="submit" value="Send now"> <input id="pw" type="password" value="hunter2">
      <input id="box" type="checkbox" value="yes" checked>
      <select id="size"><option value="s">Small</option><option value="l" label="Large (+2)">L</option></select>
      <script>
        document.querySelector('#story').value = 'The quick brown fox.\\n\\n  Jumps   over.';
        document.querySelector('#name').value = 'Grace  Hopper';
        document.querySelector('#size').value = 'l';
      </script>` });
    const read = async (id, how = 'text') => (await sw(page, 'extract', { css: `#${id}` }, how, null, { timeoutMs: 200 })).value;
    assert.equal(await read('story'), 'The quick brown fox. Jumps over.');
    assert.equal(await read('story', 'lines'), 'The quick brown fox.\n\n  Jumps   over.');
    assert.equal(await read('name'), 'Grace Hopper');
    assert.equal(await read('go'), 'Send now');
    assert.equal(await read('size'), 'Large (+2)');
    assert.equal(await read('pw'), '', 'a password field shows no text');
    assert.equal(await read('box'), '', 'a box shows no text');
  });

  test('open shadow roots read as rendered: no hidden text, slotted content where its slot is, a drop-down its selected option', async () => {
    const page = await open({ html: `<x-card><span slot="title">Slotted title</span></x-card>
      <x-form></x-form><div hidden><x-card><span slot="title">Gone title</span></x-card></div>
      <x-btn>Save draft</x-btn> <x-outer></x-outer>
      <script>
        customElements.define('x-card', class extends HTMLElement { constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML =
          '<h2>Card: <slot name="title"></slot></h2><p hidden>Hidden shadow text</p><p style="display:none">None shadow text</p>' +
          '<p style="visibility:hidden">Invisible shadow text</p><p style="text-transform:uppercase">shouted</p>'; } });
        customElements.define('x-form', class extends HTMLElement { constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML =
          '<select><option>one</option><option>two</option></select><label>Agree</label>'; } });
        customElements.define('x-btn', class extends HTMLElement { constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML =
          '<button><slot></slot></button>'; } });
        customElements.define('x-outer', class extends HTMLElement { constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML =
          '<x-card><b slot="title">Nested title</b></x-card>'; } });
      </script>` });
    const cases = [
      ['Hidden shadow text', false, false], ['None shadow text', false, false], ['Invisible shadow text', false, false],
      ['Card: Slotted title', true, true], ['Card: Nested title', true, true], ['Card: Gone title', false, false],
      ['Gone title', false, false], ['one', true, true], ['one two', false, false], ['two', false, false],
      ['SHOUTED', true, true], ['shouted', true, false], ['Agree', true, true], ['Save draft', true, true],
    ];
    const probes = [...cases.map(([v]) => text(v)), ...cases.map(([v]) => text(v, 'contains'))];
    const sig = await sw(page, 'signals', probes);
    assert.deepEqual(sig.errors, []);
    cases.forEach(([v, equals, contains], i) => {
      assert.equal(sig.results[i], equals, `equals ${JSON.stringify(v)}`);
      assert.equal(sig.results[cases.length + i], contains, `contains ${JSON.stringify(v)}`);
    });
    const h2 = await sw(page, 'actionable', { text: 'Card: Slotted title' }, { timeoutMs: 500, hitTest: true });
    assert.deepEqual([h2.ok, h2.tag], [true, 'h2'], JSON.stringify(h2));
    // The slotted text is one match, not one more per element it is shown in.
    assert.equal((await sw(page, 'describe', { text: 'Save draft' })).count, 1);
    const read = await sw(page, 'extract', { css: 'x-card h2' }, 'text');
    assert.equal(read.value, 'Card: Slotted title');
    const snap = await sw(page, 'snapshot', 5000);
    assert.ok(!snap.text.includes('Hidden shadow text') && !snap.text.includes('two'), snap.text);
    assert.ok(snap.text.includes('Card: Slotted title'), snap.text);
  });

  test('element probes: css and xpath visibility', async () => {
    const page = await open('probes.html');
    const cases = [
      [css('#signin'), true],
      [css('#signin span.label'), true],
      [css('#dn'), false],
      [css('#vh'), false],
      [css('#zs'), false],
      [css('#secret'), false],
      [css('#det summary'), true],
      [css('#op'), true],
      [css('.does-not-exist'), false],
      [xpath('//button[@id="signin"]'), true],
      [xpath('//div[@id="dn"]'), false],
      [xpath('//p[@id="multi"]/text()'), true],
      [xpath('//*[@id="secret"]'), false],
    ];
    const sig = await sw(page, 'signals', cases.map(([p]) => p));
    assert.deepEqual(sig.errors, []);
    cases.forEach(([p, want], i) => assert.equal(sig.results[i], want, `${p.by} ${p.selector}`));
  });

  test('invalid selectors are reported, not thrown', async () => {
    const page = await open('probes.html');
    const sig = await sw(page, 'signals', [css('div['), css('#signin'), xpath('//div['), xpath('count(//div)'),
      { kind: 'bogus' }]);
    assert.deepEqual(sig.results, [false, true, false, false, false]);
    assert.deepEqual(sig.errors.map((e) => e.index), [0, 2, 3, 4]);
    assert.match(sig.errors[0].message, /invalid CSS selector "div\["/);
    assert.match(sig.errors[1].message, /invalid XPath "\/\/div\["/);
    assert.match(sig.errors[3].message, /unknown probe kind/);
  });

  test('performance on a 5,000-element page', async (t) => {
    const page = await open('blank.html');
    await page.evaluate(() => {
      const parts = [];
      for (let i = 0; i < 1000; i++) {
        parts.push(`<div class="row"><span>Item ${i}</span> <a href="#i${i}">Link ${i}</a>` +
          ` <button>Buy ${i}</button><p>Description text number ${i}</p></div>`);
      }
      document.body.innerHTML = parts.join('\n');
    });
    const count = await page.evaluate(() => document.body.querySelectorAll('*').length);
    assert.ok(count >= 5000, `page has ${count} elements`);
    const timing = await page.evaluate(() => {
      const probes = [
        { kind: 'text', value: 'Buy 999', mode: 'equals' },
        { kind: 'text', value: 'Nothing like this', mode: 'equals' },
        { kind: 'text', value: 'Description text number 500', mode: 'contains' },
        { kind: 'element', by: 'css', selector: '.row:nth-child(300) button' },
        { kind: 'element', by: 'xpath', selector: '//button[text()="Buy 10"]' },
      ];
      const sw = window.__statewright;
      let last;
      for (let i = 0; i < 20; i++) last = sw.signals(probes);
      // performance.now() is coarse (100 µs), so time rounds of 20 calls.
      const rounds = [];
      for (let r = 0; r < 15; r++) {
        const t0 = performance.now();
        for (let i = 0; i < 20; i++) last = sw.signals(probes);
        rounds.push((performance.now() - t0) / 20);
      }
      rounds.sort((a, b) => a - b);
      const eq = [];
      for (let r = 0; r < 15; r++) {
        const t0 = performance.now();
        for (let i = 0; i < 20; i++) sw.signals([probes[0]]);
        eq.push((performance.now() - t0) / 20);
      }
      eq.sort((a, b) => a - b);
      return { results: last.results, best: rounds[0], median: rounds[7], worst: rounds[14], equalsOnly: eq[7] };
    });
    assert.deepEqual(timing.results, [true, false, true, true, true]);
    const msg = `signals() on ${count} elements, 5 probes: best ${timing.best.toFixed(2)} ms, ` +
      `median ${timing.median.toFixed(2)} ms, worst ${timing.worst.toFixed(2)} ms per call ` +
      `(means over rounds of 20 calls); one text/equals probe: median ${timing.equalsOnly.toFixed(2)} ms`;
    t.diagnostic(msg);
    console.log(msg);
    // A guard on complexity, not a speed test (speed is measured by the benchmarks): the
    // best round, the one least disturbed by other processes, takes 2-5 ms on the machines
    // this has run on, and a walk that went quadratic in the page would take seconds.
    assert.ok(timing.best < 50, msg);
  });
});

// ---------------------------------------------------------------------------
describe('waitForChange', () => {
  // Reaction time is the benchmark's business; these tests pin the mechanism instead, by
  // order rather than by the clock: a change seen by an observer or an event resolves before
  // the page's next task runs, which the 100 ms poll cannot do.
  test('a DOM change made by setTimeout resolves it before the next task', async () => {
    const page = await open('probes.html');
    const r = await page.evaluate(async () => {
      const sw = window.__statewright;
      const probes = [{ kind: 'text', value: 'Order placed', mode: 'equals' }, { kind: 'element', by: 'css', selector: '#signin' }];
      const since = sw.signals(probes);
      let resolved = false;
      let resolvedByNextTask = null;
      // Taken before the change is set for 250 ms on: taken after, a machine that paused the
      // page in between made the change look early.
      const t0 = performance.now();
      setTimeout(() => {
        const d = document.createElement('div');
        d.textContent = 'Order placed';
        document.body.appendChild(d);
        setTimeout(() => { resolvedByNextTask = resolved; }, 0);
      }, 250);
      const s = await sw.waitForChange(probes, since, 5000).then((s) => { resolved = true; return s; });
      const total = performance.now() - t0;
      await new Promise((done) => setTimeout(done, 0));
      return { since: since.results, now: s.results, total, resolvedByNextTask };
    });
    assert.deepEqual(r.since, [false, true]);
    assert.deepEqual(r.now, [true, true]);
    assert.ok(r.total >= 240, `resolved too early (${r.total} ms)`);
    assert.equal(r.resolvedByNextTask, true, 'the change was not seen by the observer');
  });

  test('a DOM change just after the signals were read (at the start, by the poll) resolves it before the next task', async () => {
    // On a loaded machine the 100 ms poll runs late, back to back with the page's change;
    // here the change comes right after a read at once, by a probe that tells of each read.
    const page = await open('probes.html');
    const r = await page.evaluate(async () => {
      const sw = window.__statewright;
      const out = {};
      for (const when of ['start', 'poll']) {
        const value = 'Placed after the ' + when;
        let armed = false;
        let resolved = false;
        let resolvedByNextTask = null;
        const change = () => {
          const d = document.createElement('div');
          d.textContent = value;
          document.body.appendChild(d);
          setTimeout(() => { resolvedByNextTask = resolved; }, 0);
        };
        const probes = [{
          get kind() {
            // The read after the start's is the poll's (nothing else changes): change the
            // page as soon as it is done.
            if (armed) { armed = false; queueMicrotask(change); }
            return 'text';
          },
          value, mode: 'equals',
        }];
        const since = sw.signals(probes);
        const waiting = sw.waitForChange(probes, since, 5000).then((s) => { resolved = true; return s; });
        if (when === 'start') change(); else armed = true;
        const s = await waiting;
        await new Promise((done) => setTimeout(done, 0));
        out[when] = { since: since.results, now: s.results, resolvedByNextTask };
      }
      return out;
    });
    for (const when of ['start', 'poll']) {
      assert.deepEqual(r[when].since, [false], when);
      assert.deepEqual(r[when].now, [true], when);
    }
    // false: the change was held back by the throttle until after the page's next task.
    assert.deepEqual({ start: r.start.resolvedByNextTask, poll: r.poll.resolvedByNextTask }, { start: true, poll: true });
  });

  test('keeps evaluating while mutations never stop (throttle, not debounce)', async () => {
    const page = await open('probes.html');
    const r = await page.evaluate(async () => {
      const sw = window.__statewright;
      const probes = [{ kind: 'element', by: 'css', selector: '#ready' }];
      const since = sw.signals(probes);
      const noise = document.createElement('div');
      document.body.appendChild(noise);
      let n = 0;
      const iv = setInterval(() => { noise.textContent = String(n++); }, 2);
      let insertedAt = -1;
      setTimeout(() => {
        document.body.insertAdjacentHTML('beforeend', '<p id="ready">Ready</p>');
        insertedAt = n;
      }, 250); // between two of the 100 ms polls, so only the observer can resolve it at once
      const s = await sw.waitForChange(probes, since, 3000);
      const ticks = n - insertedAt;
      clearInterval(iv);
      return { results: s.results, ticks, insertedAt };
    });
    assert.deepEqual(r.results, [true]);
    assert.ok(r.insertedAt >= 0, 'resolved before the change');
    // Counted in noise ticks (one per ≥ 4 ms timer task), so a loaded machine slows both alike:
    // a 16 ms throttle fires within a handful; a debounce would wait for the 100 ms poll.
    assert.ok(r.ticks <= 8, `resolved ${r.ticks} noise ticks after the change`);
  });

  test('times out with unchanged signals when nothing changes', async () => {
    const page = await open('probes.html');
    const r = await page.evaluate(async () => {
      const sw = window.__statewright;
      const probes = [{ kind: 'text', value: 'Sign in', mode: 'equals' }, { kind: 'text', value: 'nope', mode: 'contains' }];
      const since = sw.signals(probes);
      // Mutations that don't change any probe must not resolve it.
      const iv = setInterval(() => { document.body.dataset.tick = String(Date.now()); }, 20);
      const t0 = performance.now();
      const s = await sw.waitForChange(probes, since, 400);
      clearInterval(iv);
      return { since, s, elapsed: performance.now() - t0 };
    });
    assert.ok(r.elapsed >= 395 && r.elapsed < 3000, `elapsed ${r.elapsed}`);
    assert.deepEqual(r.s.results, [true, false]);
    assert.equal(r.s.url, r.since.url);
    assert.equal(r.s.title, r.since.title);
  });

  test('a URL hash change resolves it before the next task', async () => {
    const page = await open('probes.html');
    const r = await page.evaluate(async () => {
      const sw = window.__statewright;
      const since = sw.signals([]);
      let resolved = false;
      let resolvedByNextTask = null;
      setTimeout(() => {
        location.hash = 'step2';
        // popstate comes at once and hashchange as a task of its own: wait for both.
        addEventListener('hashchange', () => setTimeout(() => { resolvedByNextTask = resolved; }, 0), { once: true });
      }, 150);
      const s = await sw.waitForChange([], since, 3000).then((s) => { resolved = true; return s; });
      while (resolvedByNextTask === null) await new Promise((done) => setTimeout(done, 0));
      return { url: s.url, resolvedByNextTask };
    });
    assert.equal(r.url, `${base}/probes.html#step2`);
    assert.equal(r.resolvedByNextTask, true, 'the hash change was not seen by an event');
  });

  test('resolves on history.pushState (polling fallback) and on a title change', async () => {
    const page = await open('probes.html');
    const push = await page.evaluate(async () => {
      const sw = window.__statewright;
      const since = sw.signals([]);
      let at = 0;
      setTimeout(() => { at = performance.now(); history.pushState({}, '', '/pushed/state'); }, 50);
      const s = await sw.waitForChange([], since, 3000);
      return { url: s.url, latency: performance.now() - at };
    });
    assert.equal(push.url, `${base}/pushed/state`);
    // No event tells of pushState: the poll finds it, well before the 3 s timeout would.
    assert.ok(push.latency < 2000, `pushState latency ${push.latency}`);

    const title = await page.evaluate(async () => {
      const sw = window.__statewright;
      const since = sw.signals([]);
      let resolved = false;
      let resolvedByNextTask = null;
      setTimeout(() => {
        document.title = 'Checkout done';
        setTimeout(() => { resolvedByNextTask = resolved; }, 0);
      }, 150);
      const s = await sw.waitForChange([], since, 3000).then((s) => { resolved = true; return s; });
      await new Promise((done) => setTimeout(done, 0));
      return { title: s.title, resolvedByNextTask };
    });
    assert.equal(title.title, 'Checkout done');
    assert.equal(title.resolvedByNextTask, true, 'the title change was not seen by the observer');
  });

  test('resolves immediately when already different, and cleans up its observers', async () => {
    const page = await open('probes.html');
    const r = await page.evaluate(async () => {
      const sw = window.__statewright;
      const probes = [{ kind: 'text', value: 'Sign in', mode: 'equals' }];
      const t0 = performance.now();
      const s = await sw.waitForChange(probes, { url: location.href, title: document.title, results: [false] }, 5000);
      return { results: s.results, elapsed: performance.now() - t0 };
    });
    assert.deepEqual(r.results, [true]);
    assert.ok(r.elapsed < 2500, `elapsed ${r.elapsed}`);
  });

  test('works while document.body is still missing', async () => {
    const page = await open('blank.html');
    const r = await page.evaluate(async () => {
      const sw = window.__statewright;
      document.documentElement.removeChild(document.body);
      const probes = [{ kind: 'text', value: 'Arrived', mode: 'contains' }, { kind: 'text', value: 'Arrived', mode: 'equals' }];
      const since = sw.signals(probes);
      setTimeout(() => {
        const b = document.createElement('body');
        b.innerHTML = '<p>Arrived</p>';
        document.documentElement.appendChild(b);
      }, 100);
      const s = await sw.waitForChange(probes, since, 3000);
      return { since: since.results, now: s.results };
    });
    assert.deepEqual(r.since, [false, false]);
    assert.deepEqual(r.now, [true, true]);
  });
});
