  // ---------------------------------------------------------------------------
  // Small utilities
  // ---------------------------------------------------------------------------
  function now() { return Perf_now(_perf); }
  function later(fn, ms) { return Win_setTimeout(W, fn, ms); }
  function cancel(id) { if (id !== null && id !== undefined) Win_clearTimeout(W, id); }
  function push(arr, v) { arr[arr.length] = v; }
  function lower(s) { return typeof s === 'string' ? S_toLowerCase(s) : ''; }
  function makeSet(words) {
    const o = O_create(null);
    const t = tokens(words);
    for (let i = 0; i < t.length; i++) o[t[i]] = true;
    return o;
  }
  function tokens(s) {
    const out = [];
    if (typeof s !== 'string') return out;
    const re = /\S+/g;
    let m;
    while ((m = RE_exec(re, s)) !== null) push(out, m[0]);
    return out;
  }
  function errMessage(e) {
    try {
      if (e && typeof e.message === 'string') return e.message;
      return _String(e);
    } catch (_) { return 'unknown error'; }
  }
  function truncate(s, n) { return s.length > n ? S_slice(s, 0, n - 1) + '\u2026' : s; }
  function round1(v) { return M_round(v * 10) / 10; }
  function cssEscapeFallback(s) {
    return RE_replace(/[^a-zA-Z0-9_\u00a0-\uffff-]/g, _String(s), function (c) { return '\\' + c; });
  }

  const WS_RE = /\s+/g; // \s covers NBSP and the other Unicode spaces
  // Characters that show nothing: zero-width space, soft hyphen, bidi marks, embeddings and
  // isolates, word joiner, BOM. "Zero\u200Bwidth" reads "Zerowidth" on screen. (Zero-width
  // joiners stay: they join an emoji's parts.)
  const INVISIBLE_RE = /[\u00AD\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/g;
  /** Text as a person reads it: without the characters that show nothing. */
  function shown(s) { return RE_replace(INVISIBLE_RE, s, ''); }
  /** Text normalisation, for the page's text and for the text a target or check names alike:
   *  drop the characters that show nothing, collapse white space runs (incl. NBSP) to one
   *  space and trim. */
  function norm(s) {
    if (typeof s !== 'string' || s.length === 0) return '';
    return S_trim(RE_replace(WS_RE, shown(s), ' '));
  }
  function squash(s) { return RE_replace(WS_RE, s, ''); }

  function doc() { return W.document; }

  /** Whether this library runs in a frame's document (the engine calls it in each
   *  cross-origin frame through that frame's own session). */
  const IN_FRAME = (function () { try { return W.top !== W; } catch (_) { return true; } })();

  /** Whether this document is shown at all. A frame that is display: none, or 0 wide or high,
   *  shows nothing, yet innerText in it reads the source text (nothing there is rendered).
   *  Whether a visible frame's owner is visibility: hidden its document cannot tell: the
   *  engine, which sees the frame from outside, decides that. */
  function documentShown() {
    if (!IN_FRAME) return true;
    if (!(W.innerWidth > 0) || !(W.innerHeight > 0)) return false;
    const de = doc().documentElement;
    return !de || El_getClientRects(de).length > 0;
  }

  // ---------------------------------------------------------------------------
  // Visibility (Playwright's definition)
  // ---------------------------------------------------------------------------
  function styleOf(el) {
    try { return Win_getComputedStyle(W, el); } catch (_) { return null; }
  }

  function isVisible(el) {
    if (!el || el.nodeType !== 1 || !el.isConnected || !documentShown()) return false;
    const st = styleOf(el);
    if (!st) return false;
    if (st.display === 'contents') {
      for (let c = el.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 1) {
          if (isVisible(c)) return true;
        } else if (c.nodeType === 3 && norm(c.data)) {
          try {
            const r = Doc_createRange(el.ownerDocument || doc());
            Range_selectNodeContents(r, c);
            const b = Range_getBCR(r);
            if (b.width > 0 && b.height > 0) return true;
          } catch (_) { /* ignore */ }
        }
      }
      return false;
    }
    if (El_checkVisibility) {
      if (!El_checkVisibility(el)) return false;
    } else {
      const d = El_closest(el, 'details');
      if (d && !d.open) {
        const s = El_closest(el, 'summary');
        if (!s || s.parentElement !== d) return false;
      }
    }
    if (st.visibility !== 'visible') return false;
    const r = El_getBCR(el);
    return r.width > 0 && r.height > 0 && framesVisible(el);
  }

  /** The text `el` shows. In a shadow tree, or on a shadow host, read as rendered over the
   *  composed tree (renderedText): innerText there misses slotted content and returns the
   *  source text of what is not rendered. */
  function innerTextOf(el) {
    if (composes(el)) return renderedText(el);
    const t = el.innerText;
    if (typeof t === 'string') return t;
    const c = el.textContent;
    return typeof c === 'string' ? c : '';
  }

  /** `el` is in a shadow tree or hosts an open one: its text is composed (slots filled). */
  function composes(el) {
    if (el.shadowRoot) return true;
    const r = Node_getRootNode(el);
    return !!r && r.nodeType === 11;
  }

  /** `el`'s textContent, over the composed tree when it is in or hosts a shadow tree. */
  function textContentOf(el) {
    if (!composes(el)) { const c = el.textContent; return typeof c === 'string' ? c : ''; }
    let t = '';
    const collect = function (n) {
      const kids = composedChildren(n);
      for (let i = 0; i < kids.length; i++) {
        const c = kids[i];
        if (c.nodeType === 3) t += c.data;
        else if (c.nodeType === 1) collect(c);
      }
    };
    collect(el);
    return t;
  }

  /** The nodes shown inside `n`: an open shadow root's, a slot's assigned nodes (else its
   *  fallback content), otherwise its children. */
  function composedChildren(n) {
    if (n.nodeType === 1) {
      const sr = n.shadowRoot;
      if (sr) return sr.childNodes;
      if (n.localName === 'slot' && Slot_assignedNodes) {
        const a = Slot_assignedNodes(n);
        if (a.length) return a;
      }
    }
    return n.childNodes;
  }

  /** The element `n` is shown in: its slot when it is slotted, its parent, or, at the top of
   *  a shadow tree, the host. */
  function composedParent(n) {
    const s = n.assignedSlot;
    if (s) return s;
    const p = n.parentNode;
    if (!p) return null;
    if (p.nodeType === 1) return p;
    return p.nodeType === 11 && p.host ? p.host : null;
  }

  /** `node` is `el` or shown inside it (through slots and shadow roots). */
  function composedContains(el, node) {
    for (let n = node; n; n = composedParent(n)) if (n === el) return true;
    return false;
  }

  /** Visible text of `el` equals the (normalised) value `v`: as shown or, where a
   *  text-transform shows it in other capitals, as written. */
  function visibleTextEquals(el, v) {
    const it = norm(innerTextOf(el));
    return it === v || (transformedFrom(it, v) && norm(textContentOf(el)) === v);
  }

  /** `shown` may be `written` (both normalised) in the capitals a text-transform gives it:
   *  they differ in case only. Text shown and text written count as the same words then. */
  function transformedFrom(shown, written) {
    return shown.length === written.length && S_toLowerCase(shown) === S_toLowerCase(written);
  }

