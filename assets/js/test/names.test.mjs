// Tests for the Statewright in-page library (assets/js/statewright/): accessible names of role
// targets, each checked against the name Chromium's accessibility tree gives. A name read from
// text that a text-transform shows in other capitals: Chromium names such an element as the
// text is shown ("ADD TO CART"); a workflow may give either that or the text as written. And
// the names of <input type=button|submit|reset|image>, and of form fields whose <label>s are
// hidden or empty. Run as statewright.test.mjs says.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { open, sw } from '../pages.mjs';

async function desc(page, target) {
  const r = await sw(page, 'actionable', target, { timeoutMs: 300 });
  return r.ok ? r.description : r.reason;
}

/** Chromium's own names, by element id, from its accessibility tree. */
async function chromiumNames(page, ids) {
  const nodes = await chromiumNodes(page, ids);
  const out = {};
  for (const id of ids) out[id] = nodes[id].name.value;
  return out;
}

/** Chromium's accessibility node of each element, by element id. */
async function chromiumNodes(page, ids) {
  const session = await page.context().newCDPSession(page);
  const root = (await session.send('DOM.getDocument')).root.nodeId;
  const out = {};
  for (const id of ids) {
    const { nodeId } = await session.send('DOM.querySelector', { nodeId: root, selector: '#' + id });
    const { nodes } = await session.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    out[id] = nodes[0];
  }
  await session.detach();
  return out;
}

const GIF = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

describe('names under text-transform', () => {
  test('a name read from text is found as shown and as written; one from an attribute only as written', async () => {
    const page = await open({ html: `
      <button id="up" style="text-transform:uppercase">Add to cart</button>
      <button id="cap" style="text-transform:capitalize">view details</button>
      <a href="#" id="mixed" style="text-transform:uppercase"><span>sign</span> <b style="text-transform:none">in</b></a>
      <label for="mail" style="text-transform:uppercase">Email address</label><input id="mail">
      <button id="labelled" style="text-transform:uppercase" aria-label="Add to basket">Buy</button>
      <button id="titled" style="text-transform:uppercase" title="Remove item"></button>
      <img id="shoes" style="text-transform:uppercase" alt="Red shoes" src="${GIF}">
      <input type="submit" id="order" style="text-transform:uppercase" value="Place order">
      <h2 id="heading" style="text-transform:uppercase">Shipping address</h2>
      <section id="shipping" aria-labelledby="heading">…</section>` });
    // What Chromium itself says: text-derived names transformed, attribute names as written.
    const ids = ['up', 'cap', 'mixed', 'mail', 'labelled', 'titled', 'shoes', 'order', 'shipping'];
    assert.deepEqual(await chromiumNames(page, ids), {
      up: 'ADD TO CART', cap: 'View Details', mixed: 'SIGN in', mail: 'EMAIL ADDRESS',
      labelled: 'Add to basket', titled: 'Remove item', shoes: 'Red shoes', order: 'Place order',
      shipping: 'SHIPPING ADDRESS',
    });
    const cases = [
      [{ role: 'button', name: 'ADD TO CART' }, 'button#up "Add to cart"'],
      [{ role: 'button', name: 'Add to cart' }, 'button#up "Add to cart"'],
      [{ role: 'button', name: 'add to cart' }, 'not_found'],
      [{ role: 'button', name: 'View Details' }, 'button#cap "view details"'],
      [{ role: 'button', name: 'view details' }, 'button#cap "view details"'],
      [{ role: 'button', name: 'VIEW DETAILS' }, 'not_found'],
      [{ role: 'link', name: 'SIGN in' }, 'a#mixed "sign in"'],
      [{ role: 'link', name: 'sign in' }, 'a#mixed "sign in"'],
      [{ role: 'link', name: 'SIGN IN' }, 'not_found'],
      [{ role: 'textbox', name: 'EMAIL ADDRESS' }, 'input#mail "Email address"'],
      [{ role: 'textbox', name: 'Email address' }, 'input#mail "Email address"'],
      [{ role: 'button', name: 'Add to basket' }, 'button#labelled "Add to basket"'],
      [{ role: 'button', name: 'ADD TO BASKET' }, 'not_found'],
      [{ role: 'button', name: 'Remove item' }, 'button#titled "Remove item"'],
      [{ role: 'button', name: 'REMOVE ITEM' }, 'not_found'],
      [{ role: 'img', name: 'Red shoes' }, 'img#shoes "Red shoes"'],
      [{ role: 'img', name: 'RED SHOES' }, 'not_found'],
      [{ role: 'button', name: 'Place order' }, 'input#order "Place order"'],
      [{ role: 'button', name: 'PLACE ORDER' }, 'not_found'],
      // Named by another element's text, as it is shown too.
      [{ role: 'region', name: 'SHIPPING ADDRESS' }, 'section#shipping "Shipping address"'],
      [{ role: 'region', name: 'Shipping address' }, 'section#shipping "Shipping address"'],
    ];
    for (const [target, want] of cases) assert.equal(await desc(page, target), want, JSON.stringify(target));
  });

  test('a name joined from several references or labels is found with each part as shown', async () => {
    const page = await open({ html: `
      <span id="first" style="text-transform:uppercase">Billing</span><span id="second">address</span>
      <section id="billing" aria-labelledby="first second">…</section>
      <span id="when" style="text-transform:uppercase">Delivery</span>
      <span id="slot" style="text-transform:capitalize">date and time</span>
      <section id="delivery" aria-labelledby="when slot">…</section>
      <span id="gift" style="text-transform:uppercase">Gift</span>
      <span id="wrap" style="text-transform:uppercase" aria-label="wrapping options">Wrap</span>
      <section id="extras" aria-labelledby="gift wrap">…</section>
      <label for="phone" style="text-transform:uppercase">Phone</label><input id="phone">
      <label for="phone" style="text-transform:lowercase">(Mobile)</label>` });
    // Chromium names each part as shown, an aria-label as written, and joins them with a space.
    assert.deepEqual(await chromiumNames(page, ['billing', 'delivery', 'extras', 'phone']), {
      billing: 'BILLING address', delivery: 'DELIVERY Date And Time',
      extras: 'GIFT wrapping options', phone: 'PHONE (mobile)',
    });
    const cases = [
      [{ role: 'region', name: 'BILLING address' }, 'section#billing "Billing address"'],
      [{ role: 'region', name: 'Billing address' }, 'section#billing "Billing address"'],
      [{ role: 'region', name: 'BILLING ADDRESS' }, 'not_found'],
      [{ role: 'region', name: 'DELIVERY Date And Time' }, 'section#delivery "Delivery date and time"'],
      [{ role: 'region', name: 'Delivery date and time' }, 'section#delivery "Delivery date and time"'],
      [{ role: 'region', name: 'DELIVERY DATE AND TIME' }, 'not_found'],
      [{ role: 'region', name: 'GIFT wrapping options' }, 'section#extras "Gift wrapping options"'],
      [{ role: 'region', name: 'Gift wrapping options' }, 'section#extras "Gift wrapping options"'],
      [{ role: 'region', name: 'GIFT WRAPPING OPTIONS' }, 'not_found'],
      [{ role: 'textbox', name: 'PHONE (mobile)' }, 'input#phone "Phone (Mobile)"'],
      [{ role: 'textbox', name: 'Phone (Mobile)' }, 'input#phone "Phone (Mobile)"'],
      [{ role: 'textbox', name: 'PHONE (MOBILE)' }, 'not_found'],
    ];
    for (const [target, want] of cases) assert.equal(await desc(page, target), want, JSON.stringify(target));
  });

  test('two buttons whose names differ only in case: the one written so comes first', async () => {
    const page = await open({ html: `
      <button id="shout" style="text-transform:uppercase">save</button>
      <button id="plain">SAVE</button>
      <button id="next">Next</button><button id="NEXT">NEXT</button>` });
    // Both show SAVE; the one written SAVE wins, though the other comes first in the page.
    assert.equal(await desc(page, { role: 'button', name: 'SAVE' }), 'button#plain "SAVE"');
    assert.equal(await desc(page, { role: 'button', name: 'SAVE', nth: 1 }), 'button#shout "save"');
    assert.equal((await sw(page, 'describe', { role: 'button', name: 'SAVE' })).count, 2);
    assert.equal(await desc(page, { role: 'button', name: 'save' }), 'button#shout "save"');
    assert.equal((await sw(page, 'describe', { role: 'button', name: 'save' })).count, 1);
    // Without a text-transform, case tells them apart as before.
    assert.equal(await desc(page, { role: 'button', name: 'Next' }), 'button#next "Next"');
    assert.equal(await desc(page, { role: 'button', name: 'NEXT' }), 'button#NEXT "NEXT"');
    assert.equal((await sw(page, 'describe', { role: 'button', name: 'NEXT' })).count, 1);
  });
});

/** The ids of the elements a `role` target with `name` finds, in page order. */
async function idsNamed(page, role, name) {
  const { count } = await sw(page, 'describe', { role, name });
  const ids = [];
  for (let nth = 0; nth < count; nth++) {
    ids.push(/#([\w-]+)/.exec((await sw(page, 'describe', { role, name, nth })).description)[1]);
  }
  return ids.sort();
}

describe('names of input buttons', () => {
  // Chromium reads an <input type=button|submit|reset|image>'s name from, in order:
  // aria-label; its labels, when it has any, even if they say nothing; then for a text button
  // its value attribute, even an empty one, else "Submit"/"Reset", else its title; for an
  // image button a non-empty alt, its value attribute, its title, else "Submit".
  test('a role target finds each by the name Chromium gives it, and by no other', async () => {
    // Sized, as a broken image with an empty alt has no box and would not be visible.
    const page = await open({ html: `
      <style>input[type=image] { width: 24px; height: 24px }</style>
      <label for="sub-for">Send it</label><input type="submit" id="sub-for">
      <label>Wrap send <input type="submit" id="sub-wrap"></label>
      <label for="sub-label-value">Send order</label><input type="submit" id="sub-label-value" value="Go">
      <label for="sub-label-empty">Send empty</label><input type="submit" id="sub-label-empty" value="">
      <label for="sub-silent"></label><input type="submit" id="sub-silent">
      <input type="submit" id="sub-default">
      <input type="submit" id="sub-empty" value="">
      <input type="submit" id="sub-title" title="Send title">
      <input type="submit" id="sub-empty-title" value="" title="Send empty title">
      <input type="submit" id="sub-aria" aria-label="Send aria" value="Go on">
      <label for="reset-for">Clear it</label><input type="reset" id="reset-for">
      <label>Wrap clear <input type="reset" id="reset-wrap" value="Undo"></label>
      <input type="reset" id="reset-default">
      <input type="reset" id="reset-empty" value="">
      <input type="reset" id="reset-title" title="Clear title">
      <input type="reset" id="reset-aria" aria-label="Clear aria">
      <label for="btn-for">Press it</label><input type="button" id="btn-for">
      <label>Wrap press <input type="button" id="btn-wrap"></label>
      <label for="btn-label-value">Press on</label><input type="button" id="btn-label-value" value="Push">
      <input type="button" id="btn-none">
      <input type="button" id="btn-title" title="Press title">
      <input type="button" id="btn-empty-title" value="" title="Press empty title">
      <input type="button" id="btn-aria" aria-label="Press aria">
      <label for="img-for">Image label</label><input type="image" id="img-for" src="${GIF}">
      <label>Wrap image <input type="image" id="img-wrap" src="${GIF}"></label>
      <label for="img-label-alt">Image label alt</label><input type="image" id="img-label-alt" src="${GIF}" alt="Alt shadowed">
      <label for="img-label-title">Image label title</label><input type="image" id="img-label-title" src="${GIF}" title="Title shadowed">
      <input type="image" id="img-default" src="${GIF}">
      <input type="image" id="img-alt" src="${GIF}" alt="Image alt" value="Value shadowed">
      <input type="image" id="img-value" src="${GIF}" value="Image value" title="Title behind value">
      <input type="image" id="img-title" src="${GIF}" title="Image title">
      <input type="image" id="img-alt-empty" src="${GIF}" alt="">
      <input type="image" id="img-alt-empty-title" src="${GIF}" alt="" title="Image title after empty alt">
      <input type="image" id="img-value-empty-title" src="${GIF}" value="" title="Image title after empty value">
      <input type="image" id="img-alt-blank-title" src="${GIF}" alt="  " title="Image title after blank alt">
      <input type="image" id="img-aria" src="${GIF}" aria-label="Image aria" alt="Alt behind aria">` });
    const ids = await page.evaluate(() => [...document.querySelectorAll('input')].map((e) => e.id));
    const chromium = await chromiumNames(page, ids);
    // What Chromium says, kept here so that a Chromium that changes its mind is seen.
    assert.deepEqual(chromium, {
      'sub-for': 'Send it', 'sub-wrap': 'Wrap send', 'sub-label-value': 'Send order',
      'sub-label-empty': 'Send empty', 'sub-silent': '', 'sub-default': 'Submit', 'sub-empty': '',
      'sub-title': 'Submit', 'sub-empty-title': '', 'sub-aria': 'Send aria',
      'reset-for': 'Clear it', 'reset-wrap': 'Wrap clear', 'reset-default': 'Reset', 'reset-empty': '',
      'reset-title': 'Reset', 'reset-aria': 'Clear aria',
      'btn-for': 'Press it', 'btn-wrap': 'Wrap press', 'btn-label-value': 'Press on', 'btn-none': '',
      'btn-title': 'Press title', 'btn-empty-title': '', 'btn-aria': 'Press aria',
      'img-for': 'Image label', 'img-wrap': 'Wrap image', 'img-label-alt': 'Image label alt',
      'img-label-title': 'Image label title', 'img-default': 'Submit', 'img-alt': 'Image alt',
      'img-value': 'Image value', 'img-title': 'Image title', 'img-alt-empty': 'Submit',
      'img-alt-empty-title': 'Image title after empty alt', 'img-value-empty-title': '',
      'img-alt-blank-title': '  ', 'img-aria': 'Image aria',
    });
    // Every name Chromium gives, and every name our resolver gives any of them: a role
    // target with that name finds exactly the inputs Chromium gives it to.
    const names = new Set();
    for (const id of ids) {
      names.add(chromium[id].trim());
      const m = /"(.*)"$/.exec((await sw(page, 'describe', { css: '#' + id })).description);
      if (m) names.add(m[1]);
    }
    names.delete('');
    const found = {};
    const want = {};
    for (const name of [...names].sort()) {
      found[name] = await idsNamed(page, 'button', name);
      want[name] = ids.filter((id) => chromium[id].trim() === name).sort();
    }
    // Those Chromium leaves unnamed are unnamed to us too.
    found['(no name)'] = [];
    for (const id of ids) {
      if ((await sw(page, 'describe', { css: '#' + id })).description === `input#${id}`) found['(no name)'].push(id);
    }
    want['(no name)'] = ids.filter((id) => !chromium[id].trim());
    assert.deepEqual(found, want);
  });

  test('a label shown in capitals names an input button as shown and as written', async () => {
    const page = await open({ html: `
      <label for="pay" style="text-transform:uppercase">Pay now</label><input type="submit" id="pay" value="Pay">` });
    assert.deepEqual(await chromiumNames(page, ['pay']), { pay: 'PAY NOW' });
    assert.equal(await desc(page, { role: 'button', name: 'PAY NOW' }), 'input#pay "Pay now"');
    assert.equal(await desc(page, { role: 'button', name: 'Pay now' }), 'input#pay "Pay now"');
    assert.equal(await desc(page, { role: 'button', name: 'Pay' }), 'not_found');
  });
});

describe('names of fields whose labels are hidden or empty', () => {
  // Chromium names a form field that has <label>s by what they show, even when that is
  // nothing: a label not rendered (display: none, on it or above it; hidden), not visible, or
  // itself aria-hidden says nothing, nor does an empty one, and the field's title or
  // placeholder does not stand in for them; only aria-labelledby and aria-label come first.
  // A label in content that is not shown (a closed <details>) is no label of it at all.
  const FIELDS = {
    text: (id, a) => `<input id="${id}"${a}>`,
    area: (id, a) => `<textarea id="${id}"${a}></textarea>`,
    sel: (id, a) => `<select id="${id}"${a}><option>One</option></select>`,
    list: (id, a) => `<select multiple id="${id}"${a}><option>One</option></select>`,
    check: (id, a) => `<input type="checkbox" id="${id}"${a}>`,
    radio: (id, a) => `<input type="radio" name="${id}" id="${id}"${a}>`,
  };
  // Each kind of label: its attributes, and its content given the text it would show.
  const LABELS = {
    shown: ['', (t) => t],
    none: [' style="display:none"', (t) => t],
    invis: [' style="visibility:hidden"', (t) => t],
    hidden: [' hidden', (t) => t],
    aria: [' aria-hidden="true"', (t) => t],
    empty: ['', () => ''],
    blank: ['', () => '   '],
    spannone: ['', (t) => `<span style="display:none">${t}</span>`],
    spanaria: ['', (t) => `<span aria-hidden="true">${t}</span>`],
  };
  // What else the field has that might name it.
  const OTHERS = {
    bare: '', title: ' title="Tt"', ph: ' placeholder="Ph"', tp: ' title="Tt" placeholder="Ph"',
    al: ' aria-label="Al"', lb: ' aria-labelledby="ext"',
  };
  // One at a time, with what Chromium names it.
  const ODD = {
    'anc-none': ['<div style="display:none"><label for="anc-none">Anc none</label></div><input id="anc-none" title="Tt">', ''],
    'anc-invis': ['<div style="visibility:hidden"><label for="anc-invis">Anc invis</label></div><input id="anc-invis" title="Tt">', ''],
    'anc-hidden': ['<div hidden><label for="anc-hidden">Anc hidden</label></div><input id="anc-hidden" title="Tt">', ''],
    'anc-aria': ['<div aria-hidden="true"><label for="anc-aria">Anc aria <span aria-hidden="true">x</span></label></div><input id="anc-aria" title="Tt">', 'Anc aria'],
    'anc-aria-self': ['<div aria-hidden="true"><label for="anc-aria-self" aria-hidden="true">Anc aria self</label></div><input id="anc-aria-self" title="Tt">', ''],
    'aria-caps': ['<label for="aria-caps" aria-hidden="TRUE">Aria caps</label><input id="aria-caps" title="Tt">', ''],
    'aria-false': ['<label for="aria-false" aria-hidden="false">Aria false</label><input id="aria-false" title="Tt">', 'Aria false'],
    'invis-child': ['<label for="invis-child" style="visibility:hidden"><span style="visibility:visible">Vis child</span></label><input id="invis-child">', ''],
    'cv-self': ['<label for="cv-self" style="content-visibility:hidden;display:block">Cv self</label><input id="cv-self" title="Tt">', ''],
    'in-details': ['<details><summary>S</summary><label for="in-details">In details</label></details><input id="in-details" title="Tt">', 'Tt'],
    'in-open-details': ['<details open><summary>S</summary><label for="in-open-details">In open details</label></details><input id="in-open-details" title="Tt">', 'In open details'],
    'in-details-two': ['<details><summary>S</summary><label for="in-details-two">Closed</label></details><label for="in-details-two">Other</label><input id="in-details-two" title="Tt">', 'Other'],
    'in-cv': ['<div style="content-visibility:hidden"><label for="in-cv">In cv</label></div><input id="in-cv" title="Tt">', 'Tt'],
    'until-found': ['<div hidden="until-found"><label for="until-found">Until found</label></div><input id="until-found" title="Tt">', 'Tt'],
    'sr-only': ['<label for="sr-only" style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">Sr only</label><input id="sr-only">', 'Sr only'],
    'transparent': ['<label for="transparent" style="opacity:0">Transparent</label><input id="transparent" title="Tt">', 'Transparent'],
    'off-screen': ['<label for="off-screen" style="position:absolute;left:-9999px">Off screen</label><input id="off-screen">', 'Off screen'],
    'lb-empty': ['<label for="lb-empty" style="display:none">Lb empty</label><input id="lb-empty" aria-labelledby="nothing" title="Tt">', ''],
    'al-blank': ['<label for="al-blank" style="display:none">Al blank</label><input id="al-blank" aria-label="  " title="Tt">', ''],
    'sub-value': ['<label for="sub-value" style="display:none">Sub value</label><input type="submit" id="sub-value" value="Go">', ''],
    'sub-default': ['<label for="sub-default" hidden>Sub default</label><input type="submit" id="sub-default">', ''],
    'btn-hidden': ['<label for="btn-hidden" style="display:none">Btn hidden</label><button id="btn-hidden">Go button</button>', ''],
    'btn-shown': ['<label for="btn-shown">Btn shown</label><button id="btn-shown">Go button</button>', 'Btn shown'],
    'btn-empty': ['<label for="btn-empty"></label><button id="btn-empty" title="Tt">Go button</button>', ''],
    'num-hidden': ['<label for="num-hidden" style="display:none">Num hidden</label><input type="number" id="num-hidden" title="Tt">', ''],
    'range-empty': ['<label for="range-empty"></label><input type="range" id="range-empty" title="Tt">', ''],
    'search-hidden': ['<label for="search-hidden" style="display:none">Search hidden</label><input type="search" id="search-hidden" placeholder="Ph">', ''],
    'email-empty': ['<label for="email-empty"></label><input type="email" id="email-empty" placeholder="Ph">', ''],
    'list-empty': ['<label for="list-empty"></label><input list="dl" id="list-empty" title="Tt"><datalist id="dl"><option>a</option></datalist>', ''],
  };

  function fixture() {
    let html = '<span id="ext">Ext</span><span id="nothing"></span>\n';
    const want = {};
    for (const [field, make] of Object.entries(FIELDS)) {
      for (const [kind, [attrs, content]] of Object.entries(LABELS)) {
        for (const how of ['for', 'wrap']) {
          // Not rendered or aria-hidden, a wrapping label hides its field too.
          if (how === 'wrap' && (kind === 'none' || kind === 'hidden' || kind === 'aria')) continue;
          for (const [other, more] of Object.entries(OTHERS)) {
            if ((other === 'ph' || other === 'tp') && field !== 'text' && field !== 'area') continue;
            const id = `${field}-${how}-${kind}-${other}`;
            const text = 'L ' + id;
            if (how === 'for') html += `<div><label for="${id}"${attrs}>${content(text)}</label>${make(id, more)}</div>\n`;
            else html += `<div><label${attrs}>${content(text)} ${make(id, more + (kind === 'invis' ? ' style="visibility:visible"' : ''))}</label></div>\n`;
            want[id] = other === 'al' ? 'Al' : other === 'lb' ? 'Ext' : kind === 'shown' ? text : '';
          }
        }
      }
      // Two labels, one of them hidden or empty: the other names the field, alone.
      for (const kind of ['none', 'invis', 'hidden', 'aria', 'empty']) {
        const id = `${field}-two-${kind}`;
        const [attrs, content] = LABELS[kind];
        html += `<div><label for="${id}"${attrs}>${content('H ' + id)}</label><label for="${id}">V ${id}</label>${make(id, ' title="Tt"')}</div>\n`;
        want[id] = 'V ' + id;
      }
    }
    for (const [id, [markup, name]] of Object.entries(ODD)) {
      html += `<div>${markup}</div>\n`;
      want[id] = name;
    }
    return { html, want };
  }

  test('a role target finds each by the name Chromium gives it, and by no other', async () => {
    const { html, want: chromiumWants } = fixture();
    const page = await open({ html });
    const ids = Object.keys(chromiumWants);
    const nodes = await chromiumNodes(page, ids);
    const chromium = {};
    for (const id of ids) chromium[id] = nodes[id].name.value;
    // What Chromium says, kept here so that a Chromium that changes its mind is seen.
    assert.deepEqual(chromium, chromiumWants);
    // Every name Chromium gives any of them, and every name our resolver gives: a role target
    // with it finds exactly the fields of that role Chromium gives it to.
    const roleOf = (id) => nodes[id].role.value;
    const pairs = new Map();
    for (const id of ids) {
      const m = /"(.*)"$/.exec((await sw(page, 'describe', { css: '#' + id })).description);
      for (const name of [chromium[id].trim(), m ? m[1] : '']) if (name) pairs.set(roleOf(id) + '|' + name, [roleOf(id), name]);
    }
    const found = {};
    const wanted = {};
    for (const [key, [role, name]] of [...pairs].sort()) {
      found[key] = await idsNamed(page, role, name);
      wanted[key] = ids.filter((id) => roleOf(id) === role && chromium[id].trim() === name).sort();
    }
    // Those Chromium leaves unnamed are unnamed to us too.
    found['(no name)'] = [];
    for (const id of ids) {
      if (/^\w+#[\w-]+$/.test((await sw(page, 'describe', { css: '#' + id })).description)) found['(no name)'].push(id);
    }
    wanted['(no name)'] = ids.filter((id) => !chromium[id].trim());
    assert.deepEqual(found, wanted);
  });

  test('a hidden label is no part of a name shown in capitals', async () => {
    const page = await open({ html: `
      <label for="city" style="text-transform:uppercase">City</label>
      <label for="city" style="display:none">Town</label><input id="city">` });
    assert.deepEqual(await chromiumNames(page, ['city']), { city: 'CITY' });
    assert.equal(await desc(page, { role: 'textbox', name: 'CITY' }), 'input#city "City"');
    assert.equal(await desc(page, { role: 'textbox', name: 'City' }), 'input#city "City"');
    assert.equal(await desc(page, { role: 'textbox', name: 'City Town' }), 'not_found');
    assert.equal(await desc(page, { role: 'textbox', name: 'CITY TOWN' }), 'not_found');
  });
});
