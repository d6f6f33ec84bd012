// Confirmation: shows the order placed from the cart.
(function () {
  'use strict';
  const { session, money, el } = window.Northwind;
  const root = document.getElementById('confirmation');
  const order = session.order();

  if (!order) {
    document.title = 'No recent order · Northwind Supply';
    root.replaceChildren(
      el('h1', { text: 'No recent order' }),
      el('p', {}, el('a', { class: 'btn secondary', href: 'search.html' }, 'Continue shopping')));
    return;
  }

  root.replaceChildren(
    el('div', { class: 'check', 'aria-hidden': 'true', text: '✓' }),
    el('h1', { text: 'Order confirmed' }),
    el('p', { class: 'order-number' }, 'Order number ', el('strong', { id: 'order-number', text: order.number })),
    el('p', { id: 'order-summary', class: 'order-summary', text: order.qty + ' × ' + order.product }),
    el('p', { class: 'muted', text: 'Total charged: ' + money(order.totalCents) + '. A receipt is on its way to your inbox.' }),
    el('p', {},
      el('a', { class: 'btn secondary', href: 'search.html' }, 'Continue shopping'), ' ',
      el('a', { class: 'btn secondary', href: 'orders.html' }, 'Order history')));
})();
