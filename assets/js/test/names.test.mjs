// Tests for the Statewright in-page library (assets/js/statewright/): role targets whose
// accessible name is read from text that a text-transform shows in other capitals. Chromium
// names such an element as the text is shown ("ADD TO CART"); a workflow may give either that
// or the text as written. Run as statewright.test.mjs says.
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
