// Northwind Supply: shared code for every page.
// Seeded randomness, the session (login, cart, order), the consent popup and small helpers.
// Loaded in <head> without `defer`, so the login guard runs before the page is drawn.
(function () {
  'use strict';

  const html = document.documentElement;
  const page = html.dataset.page || 'unknown';

  // ---- Seed -------------------------------------------------------------------------------
  // `?seed=N` on any page wins and is remembered for the session; otherwise the stored seed,
  // otherwise a fresh random one (stored, so every page of the visit agrees).
  const query = new URLSearchParams(location.search).get('seed');
  if (query !== null && query.trim() !== '') sessionStorage.setItem('nw.seed', query.trim());
  let seed = sessionStorage.getItem('nw.seed');
  if (seed === null) {
    seed = String(Math.floor(Math.random() * 1000000));
    sessionStorage.setItem('nw.seed', seed);
  }

  // FNV-1a, then mulberry32: small, fast and plenty for a demo.
  function hash(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return h >>> 0;
  }

  function mulberry32(a) {
    return function () {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // One independent stream per (seed, page, purpose): a page's decisions do not shift when
  // another part of it draws more or fewer numbers.
  function rng(stream) {
    const next = mulberry32(hash(seed + ':' + page + ':' + stream));
    const int = (min, max) => min + Math.floor(next() * (max - min + 1));
    return {
      next,
      int,
      chance: (p) => next() < p,
      pick: (list) => list[Math.floor(next() * list.length)],
      shuffle(list) {
        const a = list.slice();
        for (let i = a.length - 1; i > 0; i--) {
          const j = Math.floor(next() * (i + 1));
          [a[i], a[j]] = [a[j], a[i]];
        }
        return a;
      },
    };
  }

  // Everything random the site decided, for debugging: `window.__demo` in the console.
  const demo = { seed, page };
  window.__demo = demo;

  // ---- Session ----------------------------------------------------------------------------
  const session = {
    user: () => sessionStorage.getItem('nw.user'),
    login: (name) => sessionStorage.setItem('nw.user', name),
    logout: () => sessionStorage.removeItem('nw.user'),
    cart: () => readJson('nw.cart'),
    setCart: (item) => (item ? sessionStorage.setItem('nw.cart', JSON.stringify(item)) : sessionStorage.removeItem('nw.cart')),
    order: () => readJson('nw.order'),
    setOrder: (order) => sessionStorage.setItem('nw.order', JSON.stringify(order)),
  };

  function readJson(key) {
    try {
      return JSON.parse(sessionStorage.getItem(key));
    } catch {
      return null;
    }
  }

  // Pages marked data-auth="required" go to the login page when nobody is signed in. The
  // page is hidden meanwhile, so nothing of it can be seen (or recognised) on the way out.
  const redirecting = html.dataset.auth === 'required' && !session.user();
  if (redirecting) {
    html.classList.add('redirecting');
    location.replace('login.html');
  }

  // ---- Helpers ----------------------------------------------------------------------------
  let products = null;
  function loadProducts() {
    products = products || fetch('data/products.json').then((r) => {
      if (!r.ok) throw new Error('products: HTTP ' + r.status);
      return r.json();
    });
    return products;
  }

  const money = (cents) => '$' + (cents / 100).toFixed(2);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === false || v == null) continue;
      if (k === 'class') node.className = v;
      else if (k === 'text') node.textContent = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children) if (c != null) node.append(c);
    return node;
  }

  // A product "photo": initials on a colour derived from the id.
  function thumb(product) {
    const words = product.name.split(' ');
    const initials = (words[0][0] + (words.length > 1 ? words[words.length - 1][0] : '')).toUpperCase();
    const node = el('div', { class: 'thumb', 'aria-hidden': 'true', text: initials });
    node.style.setProperty('--hue', String(hash(product.id) % 360));
    return node;
  }

  function toast(message) {
    const node = el('div', { class: 'toast', role: 'status', text: message });
    document.body.append(node);
    setTimeout(() => node.remove(), 2500);
  }

  // ---- Consent popup ----------------------------------------------------------------------
  // Shown on each page with probability 0.5, after 300-2500 ms, until answered once.
  const consentRng = rng('consent');
  const consent = {
    shows: consentRng.chance(0.5),
    delayMs: consentRng.int(300, 2500),
    answer: sessionStorage.getItem('nw.consent'),
  };
  if (consent.answer || redirecting) consent.shows = false;
  demo.consent = consent;

  function showConsent() {
    if (sessionStorage.getItem('nw.consent') || document.getElementById('consent')) return;
    const answer = (value) => () => {
      sessionStorage.setItem('nw.consent', value);
      consent.answer = value;
      layer.remove();
    };
    const accept = el('button', { type: 'button', class: 'btn primary', id: 'consent-accept', onclick: answer('accepted') }, 'Accept all');
    const layer = el('div', { class: 'consent-layer', id: 'consent' },
      el('div', { class: 'consent', id: 'consent-dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'consent-title', 'aria-describedby': 'consent-text' },
        el('h2', { id: 'consent-title', text: 'We value your privacy' }),
        el('p', { id: 'consent-text', text: 'We and our partners use cookies to keep the shop running, remember your cart and understand how the site is used. You can change your mind at any time.' }),
        el('div', { class: 'consent-actions' },
          el('button', { type: 'button', class: 'btn secondary', id: 'consent-reject', onclick: answer('rejected') }, 'Reject all'),
          accept)));
    document.body.append(layer);
    consent.shownAt = Math.round(performance.now());
    // Fair play: never take the keyboard away from a field the user is typing into.
    const active = document.activeElement;
    if (!active || active === document.body) accept.focus({ preventScroll: true });
  }

  // ---- Page chrome ------------------------------------------------------------------------
  function renderChrome() {
    const account = document.getElementById('account');
    if (account) {
      account.replaceChildren();
      if (session.user()) {
        account.append(
          el('span', { class: 'muted', text: 'Signed in as ' + session.user() }),
          el('button', { type: 'button', class: 'link-button', onclick: () => { session.logout(); location.href = 'index.html'; } }, 'Sign out'));
      }
    }
    const count = document.getElementById('cart-count');
    if (count) {
      const item = session.cart();
      count.textContent = item ? String(item.qty) : '';
      count.hidden = !item;
    }
    const seedNote = document.getElementById('seed-note');
    if (seedNote) seedNote.textContent = 'Demo seed ' + seed;
  }

  document.addEventListener('DOMContentLoaded', () => {
    if (redirecting) return;
    renderChrome();
    if (consent.shows) setTimeout(showConsent, consent.delayMs);
  });

  window.Northwind = { page, seed, rng, demo, session, loadProducts, money, el, thumb, toast, renderChrome };
})();
