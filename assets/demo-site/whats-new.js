// The "What's new" interstitial: the tour is a dead end, skipping goes to the shop.
(function () {
  'use strict';
  const { toast } = window.Northwind;
  document.getElementById('take-tour').addEventListener('click', () => toast('The tour is coming soon.'));
  document.getElementById('skip').addEventListener('click', () => { location.href = 'search.html'; });
})();
