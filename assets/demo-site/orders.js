// Order history: the order just placed (if any) above earlier orders drawn from the seed, in a
// table with a header; a status filter hides rows. Loads after 100-600 ms, like a real API.
(function () {
  'use strict';
  const { rng, demo, session, loadProducts, money, el } = window.Northwind;

  const r = rng('orders');
  const decisions = { loadDelayMs: r.int(100, 600), count: r.int(3, 6) };
  demo.orders = decisions;

  const summary = document.getElementById('orders-summary');
  const body = document.querySelector('#orders tbody');
  const filter = document.getElementById('status-filter');

  const day = (n) => new Date(Date.UTC(2026, 9, 28 - n * 6)).toISOString().slice(0, 10);

  setTimeout(() => loadProducts().then((products) => {
    const orders = [];
    const latest = session.order();
    if (latest) {
      orders.push({ number: latest.number, placed: day(0), items: latest.qty + ' × ' + latest.product, totalCents: latest.totalCents, status: 'Processing' });
    }
    for (let i = 1; i <= decisions.count; i++) {
      const product = r.pick(products);
      const qty = r.int(1, 3);
      orders.push({
        number: 'NW-' + String(r.int(0, 999999)).padStart(6, '0'),
        placed: day(i),
        items: qty + ' × ' + product.name,
        totalCents: product.priceCents * qty,
        status: i === 1 ? 'Shipped' : 'Delivered',
      });
    }
    body.replaceChildren(...orders.map((o) => el('tr', { 'data-status': o.status },
      el('td', {}, el('a', { href: 'orders.html?order=' + o.number }, o.number)),
      el('td', { text: o.placed }),
      el('td', { text: o.items }),
      el('td', { class: 'num', text: money(o.totalCents) }),
      el('td', { text: o.status }))));
    const spent = orders.reduce((sum, o) => sum + o.totalCents, 0);
    summary.textContent = orders.length + ' orders · ' + money(spent) + ' spent';
    filter.addEventListener('change', () => {
      for (const row of body.rows) row.hidden = filter.value !== 'all' && row.dataset.status !== filter.value;
    });
  }), decisions.loadDelayMs);
})();
