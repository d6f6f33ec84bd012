// Login: the button enables once both fields are filled; signing in takes 200-800 ms; on
// success half of the seeds see the "What's new" interstitial first.
(function () {
  'use strict';
  const { rng, demo, session } = window.Northwind;

  const r = rng('login');
  const decisions = { signInDelayMs: r.int(200, 800), whatsNew: r.chance(0.5) };
  demo.login = decisions;

  const form = document.getElementById('login-form');
  const username = document.getElementById('username');
  const password = document.getElementById('password');
  const button = document.getElementById('sign-in');
  const error = document.getElementById('login-error');
  let busy = false;

  function update() {
    button.disabled = busy || username.value === '' || password.value === '';
  }
  for (const input of [username, password]) {
    input.addEventListener('input', update);
    input.addEventListener('change', update);
  }
  update();

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    update();
    if (button.disabled) return;
    busy = true;
    error.hidden = true;
    button.textContent = 'Signing in…';
    button.disabled = true;
    username.readOnly = password.readOnly = true;
    form.setAttribute('aria-busy', 'true');

    setTimeout(() => {
      if (username.value.trim() === 'demo' && password.value === 'correct horse battery staple') {
        session.login('demo');
        location.href = decisions.whatsNew ? 'whats-new.html' : 'search.html';
        return;
      }
      busy = false;
      button.textContent = 'Sign in';
      username.readOnly = password.readOnly = false;
      form.removeAttribute('aria-busy');
      error.hidden = false;
      update();
    }, decisions.signInDelayMs);
  });
})();
