// Tests for what the in-page library reads from open shadow roots as a person (or assistive
// technology) meets it: accessible names over the flat tree (slotted content where its slot
// is), checked against Chromium's own accessibility tree, and shadow text shown with its
// text-transform, checked against innerText of the same markup in the light DOM.
//
// Run with node's built-in runner:   node --test assets/js/test/
// The set-up the library's tests share (assets/js/pages.mjs): playwright-core driving
// /usr/bin/chromium (override with STATEWRIGHT_CHROMIUM), pages served from loopback, the
// library as an init script.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { open, sw, text } from '../pages.mjs';

/** Defines custom element `name` whose open shadow root holds `html`. */
const element = (name, html) =>
  `customElements.define(${JSON.stringify(name)}, class extends HTMLElement { constructor() { super(); ` +
  `this.attachShadow({ mode: 'open' }).innerHTML = ${JSON.stringify(html)}; } });`;

const SLOTTED = `<my-button>Buy now</my-button>
  <named-button><span slot="label">Named label</span><span>not slotted</span></named-button>
  <outer-button>Forwarded twice</outer-button>
  <outer-empty></outer-empty>
  <fallback-button></fallback-button>
  <labelled-button><span slot="label">Slotted label</span></labelled-button>
  <hidden-label><span slot="label">From a hidden label</span></hidden-label>
  <my-button>Visible <span hidden>Secret</span><span style="display:none">None</span><span aria-hidden="true">Aria</span> part</my-button>
  <my-button><img alt="Cart" src="data:,"> Checkout</my-button>
  <two-slots><span slot="b">second</span><span slot="a">First</span></two-slots>
  <my-link>Go <em>home</em></my-link>
  <my-heading>Title <my-italic>inner</my-italic></my-heading>
  <my-button aria-hidden="true">Host hidden</my-button>
  <button>Light<span style="visibility:hidden">hidden <b style="visibility:visible">shown</b></span></button>
  <script>
    ${element('my-button', '<button><slot></slot></button>')}
    ${element('named-button', '<button>Pre <slot name="label"></slot> post</button>')}
    ${element('inner-button', '<button><slot></slot></button>')}
    ${element('middle-button', '<inner-button><slot></slot></inner-button>')}
    ${element('outer-button', '<middle-button><slot></slot></middle-button>')}
    ${element('outer-empty', '<inner-button><slot>Outer fallback</slot></inner-button>')}
    ${element('fallback-button', '<button><slot>Fallback name</slot></button>')}
    ${element('labelled-button', '<span id="l"><slot name="label"></slot></span><button aria-labelledby="l">Not this</button>')}
    ${element('hidden-label', '<span id="l" hidden>Hidden: <slot name="label"></slot></span><button aria-labelledby="l">Not this</button>')}
    ${element('two-slots', '<button><slot name="a"></slot> then <slot name="b"></slot></button>')}
    ${element('my-link', '<a href="#"><slot></slot></a>')}
    ${element('my-heading', '<h2><slot></slot></h2>')}
    ${element('my-italic', '<i><slot></slot></i>')}
  </script>`;

/** Chromium's names for the buttons, links and headings of its accessibility tree. */
async function chromiumNames(page) {
  const session = await page.context().newCDPSession(page);
  const { nodes } = await session.send('Accessibility.getFullAXTree');
  await session.detach();
  return nodes
    .filter((n) => !n.ignored && ['button', 'link', 'heading'].includes(n.role?.value))
    .map((n) => [n.role.value, n.name?.value ?? '']);
}

describe('accessible names in shadow trees', () => {
  test('follow the flat tree as Chromium names it: slotted, named, forwarded and fallback content, labelledby in the same tree, hidden nodes left out', async () => {
    const page = await open({ html: SLOTTED });
    const chromium = await chromiumNames(page);
    // What Chromium says, spelled out so the comparison below is not with nothing.
    assert.deepEqual(chromium.map(([, name]) => name).sort(), [
      'Buy now', 'Cart Checkout', 'Fallback name', 'First then second', 'Forwarded twice', 'Go home',
      'Hidden: From a hidden label', 'Lightshown', 'Outer fallback', 'Pre Named label post', 'Slotted label',
      'Title inner', 'Visible part',
    ]);
    // Each is found by role and name, once, as getByRole finds it (Playwright leaves out the
    // visible child of a visibility: hidden element, which Chromium, and so the library, name).
    for (const [role, name] of chromium) {
      const found = await sw(page, 'describe', { role, name });
      assert.equal(found.count, 1, `${role} "${name}": ${JSON.stringify(found)}`);
      if (name === 'Lightshown') continue;
      assert.equal(await page.getByRole(role, { name, exact: true }).count(), 1, `playwright finds ${role} "${name}"`);
    }
    // The snapshot names its buttons and links as Chromium does.
    const snap = await sw(page, 'snapshot', 5000);
    const named = snap.elements.filter((e) => e.role === 'button' || e.role === 'link').map((e) => [e.role, e.name]);
    const expected = chromium.filter(([role]) => role !== 'heading');
    assert.deepEqual(named.map(String).sort(), [...expected, ['button', 'Host hidden']].map(String).sort(),
      'the snapshot lists what is on screen, the aria-hidden host too, under Chromium\'s names');
    // A host's aria-hidden hides its shadow tree from assistive technology, so from role targets.
    assert.equal((await sw(page, 'describe', { role: 'button', name: 'Host hidden' })).count, 0);
  });

  test('an element in a shadow tree is offered by role and name, and that target finds it again', async () => {
    const page = await open({ html: SLOTTED });
    const r = await sw(page, 'actionable', { css: 'outer-button button' }, { timeoutMs: 1000, alternatives: true });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.description, 'button "Forwarded twice"');
    assert.deepEqual(r.alternatives.find((t) => t.role), { role: 'button', name: 'Forwarded twice' }, JSON.stringify(r.alternatives));
    const again = await sw(page, 'actionable', { role: 'button', name: 'Forwarded twice' }, { timeoutMs: 1000, hitTest: true });
    assert.equal(again.ok, true, JSON.stringify(again));
    const loose = await sw(page, 'describe', { role: 'button', name: 'named label', exact: false });
    assert.equal(loose.description, 'button "Pre Named label post"');
  });
});

// The same text in each case transformed in the light DOM and in a shadow tree (slotted and
// the shadow root's own): innerText of the light one is what a person sees.
const TRANSFORMED = [
  'hello world', 'hello-world foo.bar', "don't stop at 3rd place", 'x_y e.g. this', 'straße ß', '\u01C6ungla \u01F3',
  '\u00e9lan vital \u00bfqu\u00e9', 'ıi mIxEd', '<b>he</b>llo <i>w</i>orld', '<span>one</span><div>two</div>three',
  '<span style="display:inline-block">in</span>line <img src="data:,">img', 'a\u00a0b <span hidden>c</span>d',
  'one<br>two <span style="visibility:hidden">gh</span>ost',
];
const TRANSFORMS = ['uppercase', 'lowercase', 'capitalize', 'none'];

describe('text-transform in shadow trees', () => {
  test('shadow text reads as the same light text reads (innerText): uppercase, lowercase and capitalize, by language', async () => {
    let html = '';
    const ids = [];
    TRANSFORMS.forEach((t, ti) => TRANSFORMED.forEach((s, si) => {
      const id = `${ti}-${si}`;
      ids.push(id);
      html += `<div id="light-${id}" style="text-transform:${t}">${s}</div>` +
        `<x-slotted id="slotted-${id}" data-transform="${t}">${s}</x-slotted>` +
        `<x-own id="own-${id}" data-transform="${t}" data-html="${s.replace(/"/g, '&quot;')}"></x-own>`;
    }));
    ids.push('tr');
    html += '<div lang="tr"><div id="light-tr" style="text-transform:uppercase">istanbul</div>' +
      '<x-slotted id="slotted-tr" data-transform="uppercase">istanbul</x-slotted>' +
      '<x-own id="own-tr" data-transform="uppercase" data-html="istanbul"></x-own></div>';
    const page = await open({ html: `${html}<script>
      customElements.define('x-slotted', class extends HTMLElement { connectedCallback() { if (this.shadowRoot) return;
        this.attachShadow({ mode: 'open' }).innerHTML = '<div style="text-transform:' + this.dataset.transform + '"><slot></slot></div>'; } });
      customElements.define('x-own', class extends HTMLElement { connectedCallback() { if (this.shadowRoot) return;
        this.attachShadow({ mode: 'open' }).innerHTML = '<div style="text-transform:' + this.dataset.transform + '">' + this.dataset.html + '</div>'; } });
    </script>` });
    for (const id of ids) {
      const read = async (kind) => (await sw(page, 'extract', { css: `#${kind}-${id}` }, 'text')).value;
      const light = await read('light');
      assert.equal(await read('slotted'), light, `slotted ${id}`);
      assert.equal(await read('own'), light, `shadow root's own ${id}`);
    }
    assert.equal((await sw(page, 'extract', { css: '#own-tr' }, 'text')).value, '\u0130STANBUL');
  });

  test('capitalized shadow text is found, checked and snapshotted as shown', async () => {
    const page = await open({ html: `<x-title>welcome back, ada</x-title><script>
      ${element('x-title', '<h1 style="text-transform:capitalize"><slot></slot></h1><p style="text-transform:capitalize">order <b>no</b>w</p>')}
    </script>` });
    const sig = await sw(page, 'signals', [text('Welcome Back, Ada'), text('Order Now'), text('Back, Ada', 'contains'), text('Order No W')]);
    assert.deepEqual(sig.results, [true, true, true, false]);
    const h1 = await sw(page, 'actionable', { text: 'Welcome Back, Ada' }, { timeoutMs: 500 });
    assert.deepEqual([h1.ok, h1.tag], [true, 'h1'], JSON.stringify(h1));
    const snap = await sw(page, 'snapshot', 5000);
    assert.ok(snap.text.includes('Welcome Back, Ada') && snap.text.includes('Order Now'), snap.text);
  });
});

// Markup laid out in lines: white space collapsed or kept, line breaks from <br>, blocks,
// paragraphs, table rows and pre-line, hidden text left out.
const LAID_OUT = [
  'Ada   Lovelace<br>\n  1 Main St<br>Springfield', '<p>First   para,\n   two lines.</p>\n  <p>Second.</p>',
  '<div><h2>Title</h2>\n<ul>\n  <li>one</li>\n  <li>two</li>\n</ul></div>', '<pre>fn main() {\n    body;\n}\n</pre>',
  '<table><tr><th>Item</th><th>Price</th></tr>\n<tr><td>Tea</td> <td>$3</td></tr></table>',
  'a <span hidden>b</span> c<span style="visibility:hidden"> d</span>\n e',
  '<div style="white-space:pre-line">one  two\n   three</div>', '<p>para</p>text after<div>block</div><br><br>end',
  '<span style="display:inline-block">in</span>line <b>bold</b>  <i> italic </i>',
];

describe('line breaks in shadow trees', () => {
  test('a `lines` read of shadow text is what it is of the same light text (innerText)', async () => {
    let html = '';
    LAID_OUT.forEach((s, i) => {
      html += `<div id="light-${i}">${s}</div><x-slotted id="slotted-${i}">${s}</x-slotted>` +
        `<x-own id="own-${i}" data-html="${s.replace(/"/g, '&quot;')}"></x-own>`;
    });
    const page = await open({ html: `${html}<script>
      customElements.define('x-slotted', class extends HTMLElement { connectedCallback() { if (this.shadowRoot) return;
        this.attachShadow({ mode: 'open' }).innerHTML = '<div><slot></slot></div>'; } });
      customElements.define('x-own', class extends HTMLElement { connectedCallback() { if (this.shadowRoot) return;
        this.attachShadow({ mode: 'open' }).innerHTML = '<div>' + this.dataset.html + '</div>'; } });
    </script>` });
    const read = async (kind, i, how = 'lines') => (await sw(page, 'extract', { css: `#${kind}-${i}` }, how)).value;
    for (let i = 0; i < LAID_OUT.length; i++) {
      const light = await read('light', i);
      assert.equal(await read('slotted', i), light, `slotted ${JSON.stringify(LAID_OUT[i])}`);
      assert.equal(await read('own', i), light, `shadow root's own ${JSON.stringify(LAID_OUT[i])}`);
      assert.equal(await read('own', i, 'text'), await read('light', i, 'text'), 'a text read is one line alike');
    }
    assert.equal(await read('light', 0), 'Ada Lovelace\n1 Main St\nSpringfield');
    assert.equal(await read('light', 4), 'Item\tPrice\nTea\t$3');
  });
});
