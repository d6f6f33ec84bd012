  // ---------------------------------------------------------------------------
  // 1. signals
  // ---------------------------------------------------------------------------
  function evalProbe(p, ctx) {
    if (!p || typeof p !== 'object') throw new TypeError('probe must be an object');
    if (p.kind === 'text') {
      if (typeof p.value !== 'string') throw new TypeError('text probe needs a string value');
      const v = norm(p.value);
      if (!v) return false;
      const mode = p.mode === undefined || p.mode === null ? 'contains' : p.mode;
      if (mode === 'equals') return findTextMatches(v, ctx, false).length > 0;
      if (mode === 'contains') return pageTextContains(v, ctx);
      throw new TypeError('unknown text probe mode "' + _String(mode) + '"');
    }
    if (p.kind === 'element') return firstVisible(probeElements(p)) !== null;
    throw new TypeError('unknown probe kind "' + _String(p.kind) + '"');
  }

  /** The elements an element probe's selector finds, visible or not. */
  function probeElements(p) {
    if (typeof p.selector !== 'string' || !S_trim(p.selector)) throw new TypeError('element probe needs a non-empty selector');
    if (p.by === 'css' || p.by === undefined || p.by === null) {
      try { return queryCss(p.selector); } catch (e) {
        throw new TypeError('invalid CSS selector "' + p.selector + '": ' + errMessage(e));
      }
    }
    if (p.by === 'xpath') {
      try { return queryXPath(p.selector); } catch (e) {
        throw new TypeError('invalid XPath "' + p.selector + '": ' + errMessage(e));
      }
    }
    throw new TypeError('unknown element probe "by": ' + _String(p.by));
  }

  function firstVisible(list) {
    for (let i = 0; i < list.length; i++) if (isVisible(list[i])) return list[i];
    return null;
  }

  /** For each element probe, the alternatives of the first visible element it finds (none
   *  when it finds nothing or is not an element probe): what a check heals with later. */
  function locate(probes) { return memoized(function () { return locateNow(probes); }); }

  function locateNow(probes) {
    const out = [];
    const n = A_isArray(probes) ? probes.length : 0;
    for (let i = 0; i < n; i++) {
      const p = probes[i];
      let found = [];
      try {
        const el = p && p.kind === 'element' ? firstVisible(probeElements(p)) : null;
        const original = p && p.by === 'xpath' ? { xpath: p.selector } : { css: p && p.selector };
        if (el) found = alternativesSafely(el, original);
      } catch (_) { found = []; }
      push(out, found);
    }
    return out;
  }

  function signals(probes) { return memoized(function () { return signalsNow(probes); }); }

  function signalsNow(probes) {
    const d = doc();
    const results = [];
    const errors = [];
    const ctx = newCtx();
    const n = A_isArray(probes) ? probes.length : 0;
    for (let i = 0; i < n; i++) {
      const p = probes[i];
      if (p && p.kind === 'text' && p.mode === 'equals') { ctx.preferWalk = true; break; }
    }
    for (let i = 0; i < n; i++) {
      let r = false;
      try { r = evalProbe(probes[i], ctx) === true; } catch (e) {
        r = false;
        push(errors, { index: i, message: errMessage(e) });
      }
      push(results, r);
    }
    return { url: _String(W.location.href), title: _String(d.title || ''), results: results, errors: errors };
  }

  // ---------------------------------------------------------------------------
  // 2. waitForChange
  // ---------------------------------------------------------------------------
  function differs(s, since) {
    if (!since || typeof since !== 'object') return true;
    if (typeof since.url === 'string' && since.url !== s.url) return true;
    if (typeof since.title === 'string' && since.title !== s.title) return true;
    const r = since.results;
    if (A_isArray(r)) {
      if (r.length !== s.results.length) return true;
      for (let i = 0; i < r.length; i++) if ((r[i] === true) !== s.results[i]) return true;
    }
    return false;
  }

  function waitForChange(probes, since, timeoutMs) {
    const timeout = typeof timeoutMs === 'number' && timeoutMs >= 0 ? M_min(timeoutMs, 2147483647) : 30000;
    return new _Promise(function (resolve) {
      let done = false;
      // When a mutation last had the signals read. Only those reads throttle the next: a
      // read by the poll, an event or the start is no reason to wait, and counting it held a
      // change back by up to 16 ms whenever it came just after one (a loaded machine runs a
      // late poll and the page's change back to back).
      let lastMutationRead = -Infinity;
      let throttleTimer = null;
      let pollTimer = null;
      let deadlineTimer = null;
      let mo = null;
      const first = signals(probes);
      if (differs(first, since)) { resolve(first); return; }

      const finish = function (s) {
        if (done) return;
        done = true;
        if (mo) { try { MO_disconnect(mo); } catch (_) { /* ignore */ } mo = null; }
        cancel(throttleTimer); cancel(pollTimer); cancel(deadlineTimer);
        throttleTimer = pollTimer = deadlineTimer = null;
        ET_remove(W, 'hashchange', onEvent);
        ET_remove(W, 'popstate', onEvent);
        resolve(s);
      };
      const evaluate = function () {
        if (done) return;
        const s = signals(probes);
        if (differs(s, since)) finish(s);
      };
      const readForMutation = function () { lastMutationRead = now(); evaluate(); };
      const onMutation = function () {
        if (done || throttleTimer !== null) return;
        // Throttle: at most one evaluation per ~16 ms while mutations keep coming. The first
        // change after a quiet spell is read at once (observer callbacks run once the page's
        // own script is done): a timer hop here is time between a target showing and its click.
        const wait = lastMutationRead + 16 - now();
        if (wait <= 0) { readForMutation(); return; }
        throttleTimer = later(function () { throttleTimer = null; readForMutation(); }, wait);
      };
      const poll = function () {
        pollTimer = null;
        evaluate();
        if (!done) pollTimer = later(poll, 100);
      };
      function onEvent() { evaluate(); }

      try {
        mo = new _MO(onMutation);
        // Frames too: a change in a same-origin frame is a change of the page. A frame that
        // loads later is seen by the poll.
        const docs = documents();
        for (let i = 0; i < docs.length; i++) MO_observe(mo, docs[i], MO_OPTIONS);
      } catch (_) { mo = null; }
      ET_add(W, 'hashchange', onEvent);
      ET_add(W, 'popstate', onEvent);
      pollTimer = later(poll, 100);
      deadlineTimer = later(function () { deadlineTimer = null; finish(signals(probes)); }, timeout);
    });
  }

