// Cart: one item, a quantity from 1 to 5, a live total; placing the order takes 300-1000 ms.
(function () {
  'use strict';
  const { rng, demo, session, loadProducts, money, el, thumb } = window.Northwind;

  const r = rng('order');
  const decisions = {
    placeOrderDelayMs: r.int(300, 1000),
    orderNumber: 'NW-' + String(r.int(0, 999999)).padStart(6, '0'),
  };
  demo.cart = decisions;

  const root = document.getElementById('cart');
  const item = session.cart();

  if (!item) {
    root.replaceChildren(
      el('p', { text: 'Your cart is empty.' }),
      el('p', {}, el('a', { class: 'btn secondary', href: 'search.html' }, 'Find a product')));
    return;
  }

  loadProducts().then((all) => {
    const product = all.find((p) => p.id === item.id);
    if (!product) {
      session.setCart(null);
      root.replaceChildren(el('p', { text: 'That product is no longer available.' }));
      return;
    }
    const select = el('select', { id: 'quantity', name: 'quantity' });
    for (let n = 1; n <= 5; n++) select.append(el('option', { value: String(n), selected: n === item.qty }, String(n)));
    const total = el('output', { id: 'total', for: 'quantity', 'aria-live': 'polite' });
    const place = el('button', { id: 'place-order', type: 'button', class: 'btn primary block' }, 'Place order');

    const update = () => {
      const qty = Number(select.value);
      total.textContent = money(product.priceCents * qty);
      session.setCart({ id: product.id, qty });
      window.Northwind.renderChrome();
    };
    select.addEventListener('change', update);

    place.addEventListener('click', () => {
      place.disabled = select.disabled = true;
      place.replaceChildren(el('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Placing order…');
      setTimeout(() => {
        const qty = Number(select.value);
        session.setOrder({ number: decisions.orderNumber, product: product.name, qty, totalCents: product.priceCents * qty });
        session.setCart(null);
        location.href = 'confirmation.html';
      }, decisions.placeOrderDelayMs);
    });

    root.replaceChildren(
      el('div', { class: 'cart-line' },
        thumb(product),
        el('div', { class: 'cart-item' },
          el('h2', { id: 'cart-item-name', text: product.name }),
          el('p', { class: 'muted small', text: product.category + ' · ' + money(product.priceCents) + ' each' })),
        el('div', { class: 'field qty' }, el('label', { for: 'quantity', text: 'Quantity' }), select)),
      el('p', { class: 'total-row' }, el('span', { text: 'Total' }), total),
      place);
    update();
  });
})();
