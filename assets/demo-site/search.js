// Search: a combobox whose suggestions come from a slow "API" (300-1200 ms, stale answers
// dropped), then results that load after 500-2500 ms in a random order, sometimes behind a
// sponsored card for a look-alike product.
(function () {
  'use strict';
  const { rng, demo, session, loadProducts, money, el, thumb, renderChrome } = window.Northwind;

  const form = document.getElementById('search-form');
  const input = document.getElementById('product');
  const listbox = document.getElementById('product-listbox');
  const button = document.getElementById('search');
  const status = document.getElementById('results-status');
  const results = document.getElementById('results');

  const resultsRng = rng('results');
  const log = { suggestDelaysMs: [], staleDiscarded: 0, searches: [] };
  demo.search = log;

  let selected = null; // the product picked from the suggestions
  let options = []; // products shown in the listbox, in order
  let active = -1; // keyboard-highlighted option
  let querySeq = 0;
  let searchSeq = 0;

  // ---- Suggestions ------------------------------------------------------------------------
  input.addEventListener('input', () => {
    const id = ++querySeq;
    const text = input.value.trim();
    selected = null;
    button.disabled = true;
    if (text === '') {
      close();
      return;
    }
    // Drawn for the query, not in the order of the input events: a client that types key by
    // key waits for the same answer to the same text as one that fills the field at once.
    const answer = rng('suggest:' + text);
    const delay = answer.int(300, 1200);
    if (log.suggestDelaysMs.length < 100) log.suggestDelaysMs.push(delay);
    loadProducts()
      .then((all) => new Promise((resolve) => setTimeout(() => resolve(all), delay)))
      .then((all) => {
        if (id !== querySeq) {
          log.staleDiscarded++;
          return;
        }
        const needle = text.toLowerCase();
        const matches = all.filter((p) => p.name.toLowerCase().includes(needle));
        open(answer.shuffle(matches).slice(0, 6), needle);
      });
  });

  function open(list, needle) {
    options = list;
    active = -1;
    listbox.replaceChildren();
    list.forEach((product, i) => {
      const name = product.name;
      const at = name.toLowerCase().indexOf(needle);
      const li = el('li', { role: 'option', id: 'option-' + i, 'aria-selected': 'false', 'data-product-id': product.id },
        name.slice(0, at), el('mark', { text: name.slice(at, at + needle.length) }), name.slice(at + needle.length));
      li.addEventListener('mousedown', (e) => e.preventDefault()); // keep focus in the input
      li.addEventListener('click', () => choose(product));
      listbox.append(li);
    });
    if (list.length === 0) listbox.append(el('li', { class: 'empty', role: 'presentation', text: 'No products match' }));
    listbox.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    input.removeAttribute('aria-activedescendant');
  }

  function close() {
    listbox.hidden = true;
    listbox.replaceChildren();
    options = [];
    active = -1;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  }

  function choose(product) {
    querySeq++; // any answer still on its way is now stale
    selected = product;
    input.value = product.name;
    close();
    button.disabled = false;
  }

  function highlight(index) {
    const items = listbox.querySelectorAll('[role=option]');
    items.forEach((li, i) => li.setAttribute('aria-selected', String(i === index)));
    active = index;
    if (items[index]) input.setAttribute('aria-activedescendant', items[index].id);
  }

  input.addEventListener('keydown', (e) => {
    if (listbox.hidden || options.length === 0) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      highlight((active + step + options.length) % options.length);
    } else if (e.key === 'Enter' && active >= 0) {
      e.preventDefault();
      choose(options[active]);
    } else if (e.key === 'Escape') {
      close();
    }
  });

  // A click elsewhere on the page closes the suggestions (answering the consent popup does not).
  document.addEventListener('click', (e) => {
    if (e.target.closest('.combo') || e.target.closest('#consent')) return;
    if (!listbox.hidden) close();
  });

  // ---- Results ----------------------------------------------------------------------------
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!selected) return;
    const id = ++searchSeq;
    const chosen = selected;
    const run = { product: chosen.name, delayMs: resultsRng.int(500, 2500), sponsored: resultsRng.chance(0.4) };
    log.searches.push(run);
    results.replaceChildren();
    results.setAttribute('aria-busy', 'true');
    status.replaceChildren(el('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Loading results…');
    status.classList.add('loading');

    loadProducts()
      .then((all) => new Promise((resolve) => setTimeout(() => resolve(all), run.delayMs)))
      .then((all) => {
        if (id !== searchSeq) return;
        // The product itself and a few others from its department, in a random order.
        const related = resultsRng.shuffle(all.filter((p) => p.category === chosen.category && p.id !== chosen.id));
        const cards = resultsRng.shuffle([chosen, ...related.slice(0, resultsRng.int(2, 4))]);
        run.order = cards.map((p) => p.name);
        if (run.sponsored) {
          // Sponsored: a different product, preferably one whose name contains the chosen
          // one ("… kettle descaler"), else one that starts alike.
          const others = all.filter((p) => p.id !== chosen.id);
          const word = chosen.name.split(' ')[0];
          const tiers = [others.filter((p) => p.name.includes(chosen.name)), others.filter((p) => p.name.startsWith(word)), others];
          const ad = resultsRng.pick(tiers.find((t) => t.length > 0));
          run.sponsoredProduct = ad.name;
          cards.unshift(Object.assign({ sponsored: true }, ad));
        }
        status.classList.remove('loading');
        status.textContent = cards.filter((p) => !p.sponsored).length + ' results for “' + chosen.name + '”';
        results.removeAttribute('aria-busy');
        results.replaceChildren(...cards.map(card));
      });
  });

  function card(product) {
    return el('article', { class: product.sponsored ? 'result-card sponsored' : 'result-card', 'data-product-id': product.id, 'data-sponsored': product.sponsored ? 'true' : null },
      thumb(product),
      el('div', { class: 'card-body' },
        product.sponsored ? el('p', { class: 'badge', text: 'Sponsored' }) : null,
        el('h3', { text: product.name }),
        el('p', { class: 'muted small', text: product.category }),
        el('p', { class: 'price', text: money(product.priceCents) }),
        el('button', { type: 'button', class: 'btn primary', onclick: () => addToCart(product) }, 'Add to cart')));
  }

  function addToCart(product) {
    session.setCart({ id: product.id, qty: 1 });
    renderChrome();
    location.href = 'cart.html';
  }
})();
