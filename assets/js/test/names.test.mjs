// Tests for the Statewright in-page library (assets/js/statewright/): accessible names of role
// targets, each checked against the name Chromium's accessibility tree gives. A name read from
// text that a text-transform shows in other capitals: Chromium names such an element as the
// text is shown ("ADD TO CART"); a workflow may give either that or the text as written. And
// the names of <input type=button|submit|reset|image>. Run as statewright.test.mjs says.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { open, sw } from '../pages.mjs';

async function desc(page, target) {
  const r = await sw(page, 'actionable', target, { timeoutMs: 300 });
  return r.ok ? r.description : r.reason;
}

/** Chromium's own names, by element id, from its accessibility tree. */
async function chromiumNames(page, ids) {
  const session = await page.context().newCDPSession(page);
  const out = {};
  for (const id of ids) {
    const { nodeId } = await session.send('DOM.querySelector', {
      nodeId: (await session.send('DOM.getDocument')).root.nodeId, selector: '#' + id });
    const { nodes } = await session.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    out[id] = nodes[0].name.value;
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
