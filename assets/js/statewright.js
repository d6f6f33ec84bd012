/*
 * Statewright in-page library.
 *
 * Injected by the Rust engine into every document (Page.addScriptToEvaluateOnNewDocument)
 * and evaluated directly in already-loaded pages, then driven with Runtime.evaluate
 * (awaitPromise: true, returnByValue: true). Every argument and return value is plain JSON.
 *
 * Install contract:
 *   - one IIFE defining window.__statewright once (a second evaluation is a no-op);
 *   - never modifies the page's DOM and defines no global besides __statewright;
 *   - captures the builtins it relies on at install time, so later prototype patching by
 *     page scripts (Array.prototype.map, window.JSON, ...) doesn't break it;
 *   - no eval / Function / string-executing APIs.
 *
 * Plain ES2020, no modules, no dependencies.
 *
 * API (window.__statewright):
 *   signals(probes)                        -> {url, title, results: bool[], errors: [{index, message}]}
 *   waitForChange(probes, since, timeoutMs) -> Promise<signals>  (first difference from `since`, or timeout)
 *   actionable(target, opts)               -> Promise<{ok:true, x, y, rect, tag, description, alternatives?}
 *                                                     | {ok:false, reason, message}>
 *       opts.alternatives === true adds alternatives: Target[], other targets that designate the
 *       element found, most stable first (see "alternatives" below).
 *   extract(target, read, attribute, opts) -> Promise<{ok:true, value, description, element?, alternatives?}
 *                                                     | {ok:false, reason, message}>
 *       read: 'text' | 'attribute' | 'value' | 'count' | 'list' | 'table'; opts.timeoutMs as actionable
 *   prepareTyping(target, clear)           -> {ok, message?, description?}
 *   selectOption(target, {value?, label?}) -> {ok, message?, selected?, label?}
 *   scrollBy(target|null, dx, dy)          -> {ok, message?, ...scroll position}
 *   scrollIntoView(target)                 -> {ok, message?, rect?}
 *   snapshot(maxTextChars)                 -> {url, title, text, elements: [...], truncated?}
 *   locate(probes)                         -> Target[][]: per element probe, the alternatives of
 *                                             the first visible element it finds
 *   describe(target)                       -> {ok, count, visibleCount, description?, message?}
 *   record(binding)                        -> true; reports what a person does to window[binding] (see "record")
 *
 * Probe:  {kind:'text', value, mode:'equals'|'contains'} | {kind:'element', by:'css'|'xpath', selector}
 * Target: exactly one of {css|xpath|text|role} (+ name with role) (+ nth, 0-based, negative from the end)
 */
(function () {
  'use strict';

  var W = typeof window === 'object' && window ? window : null;
  if (!W || W.__statewright) return;

  // ---------------------------------------------------------------------------
  // Captured builtins
  // ---------------------------------------------------------------------------
  const FnProto = Function.prototype;
  // uncurry(f)(thisArg, ...args) === f.call(thisArg, ...args), immune to later patching of call/bind.
  const uncurry = FnProto.bind.bind(FnProto.call);

  const O_create = Object.create;
  const O_defineProperty = Object.defineProperty;
  const O_freeze = Object.freeze;
  const O_getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const A_isArray = Array.isArray;
  const JSON_stringify = JSON.stringify;
  const A_sort = uncurry(Array.prototype.sort);
  const N_isFinite = Number.isFinite;
  const _parseInt = parseInt;
  const _String = String;
  const M_min = Math.min;
  const M_max = Math.max;
  const M_round = Math.round;

  const S_trim = uncurry(String.prototype.trim);
  const S_toLowerCase = uncurry(String.prototype.toLowerCase);
  const S_indexOf = uncurry(String.prototype.indexOf);
  const S_slice = uncurry(String.prototype.slice);
  const RE_replace = uncurry(RegExp.prototype[Symbol.replace]);
  const RE_exec = uncurry(RegExp.prototype.exec);

  const _Promise = Promise;
  const _RegExp = RegExp;
  const _MO = W.MutationObserver;
  const _WeakMap = WeakMap;
  const _Set = Set;
  const WM_get = uncurry(WeakMap.prototype.get);
  const WM_set = uncurry(WeakMap.prototype.set);
  const Set_add = uncurry(Set.prototype.add);
  const Set_has = uncurry(Set.prototype.has);

  const DocP = Document.prototype;
  const ElP = Element.prototype;
  const NodeP = Node.prototype;
  const FragP = DocumentFragment.prototype;

  const Doc_qsa = uncurry(DocP.querySelectorAll);
  const Frag_qsa = uncurry(FragP.querySelectorAll);
  const Doc_getElementById = uncurry(DocP.getElementById);
  const Frag_getElementById = uncurry(FragP.getElementById);
  const Doc_evaluate = uncurry(DocP.evaluate);
  const Doc_createTreeWalker = uncurry(DocP.createTreeWalker);
  const Doc_createRange = uncurry(DocP.createRange);
  const Doc_elementFromPoint = uncurry(DocP.elementFromPoint);
  const Doc_getAnimations = typeof DocP.getAnimations === 'function' ? uncurry(DocP.getAnimations) : null;
  const SR_elementFromPoint = typeof ShadowRoot === 'function' && ShadowRoot.prototype.elementFromPoint
    ? uncurry(ShadowRoot.prototype.elementFromPoint) : null;
  const El_getBCR = uncurry(ElP.getBoundingClientRect);
  const El_matches = uncurry(ElP.matches);
  const El_closest = uncurry(ElP.closest);
  const El_qsa = uncurry(ElP.querySelectorAll);
  const El_getAttribute = uncurry(ElP.getAttribute);
  const El_hasAttribute = uncurry(ElP.hasAttribute);
  const El_scrollIntoView = uncurry(ElP.scrollIntoView);
  const El_scrollBy = uncurry(ElP.scrollBy);
  const El_checkVisibility = typeof ElP.checkVisibility === 'function' ? uncurry(ElP.checkVisibility) : null;
  const Node_contains = uncurry(NodeP.contains);
  const Node_compare = uncurry(NodeP.compareDocumentPosition);
  const Node_getRootNode = uncurry(NodeP.getRootNode);
  const HEl_focus = uncurry(HTMLElement.prototype.focus);
  const TW_nextNode = uncurry(TreeWalker.prototype.nextNode);
  const XR_snapshotItem = uncurry(XPathResult.prototype.snapshotItem);
  const XR_snapshotLength = uncurry(O_getOwnPropertyDescriptor(XPathResult.prototype, 'snapshotLength').get);
  const Range_selectNodeContents = uncurry(Range.prototype.selectNodeContents);
  const Range_collapse = uncurry(Range.prototype.collapse);
  const Range_getBCR = uncurry(Range.prototype.getBoundingClientRect);
  const Sel_removeAllRanges = uncurry(Selection.prototype.removeAllRanges);
  const Sel_addRange = uncurry(Selection.prototype.addRange);
  const In_select = uncurry(HTMLInputElement.prototype.select);
  const In_setSelectionRange = uncurry(HTMLInputElement.prototype.setSelectionRange);
  const TA_select = uncurry(HTMLTextAreaElement.prototype.select);
  const TA_setSelectionRange = uncurry(HTMLTextAreaElement.prototype.setSelectionRange);
  const ET_add = uncurry(EventTarget.prototype.addEventListener);
  const ET_remove = uncurry(EventTarget.prototype.removeEventListener);
  const ET_dispatch = uncurry(EventTarget.prototype.dispatchEvent);
  const MO_observe = uncurry(_MO.prototype.observe);
  const MO_disconnect = uncurry(_MO.prototype.disconnect);
  const _Event = Event;

  const Win_getComputedStyle = uncurry(W.getComputedStyle);
  const Win_setTimeout = uncurry(W.setTimeout);
  const Win_clearTimeout = uncurry(W.clearTimeout);
  const Win_raf = uncurry(W.requestAnimationFrame);
  const Win_caf = uncurry(W.cancelAnimationFrame);
  const Win_scrollBy = uncurry(W.scrollBy);
  const Win_getSelection = uncurry(W.getSelection);
  const _perf = W.performance;
  const Perf_now = uncurry(Performance.prototype.now);
  /** This document's time origin: with an element id, an identity no other page reuses. */
  const TIME_ORIGIN = _perf && typeof _perf.timeOrigin === 'number' ? _perf.timeOrigin : 0;
  const CSS_escape = W.CSS && typeof W.CSS.escape === 'function' ? W.CSS.escape : cssEscapeFallback;

  const SHOW_ELEMENT = 1;
  const SHOW_TEXT = 4;
  const XPATH_ORDERED_SNAPSHOT = 7;
  const DOC_POS_FOLLOWING = 4;
  const MO_OPTIONS = { childList: true, subtree: true, attributes: true, characterData: true };

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
  /** Whitespace normalisation: collapse runs (incl. NBSP) to one space and trim. */
  function norm(s) {
    if (typeof s !== 'string' || s.length === 0) return '';
    return S_trim(RE_replace(WS_RE, s, ' '));
  }
  function squash(s) { return RE_replace(WS_RE, s, ''); }

  function doc() { return W.document; }

  // ---------------------------------------------------------------------------
  // Visibility (Playwright's definition)
  // ---------------------------------------------------------------------------
  function styleOf(el) {
    try { return Win_getComputedStyle(W, el); } catch (_) { return null; }
  }

  function isVisible(el) {
    if (!el || el.nodeType !== 1 || !el.isConnected) return false;
    const st = styleOf(el);
    if (!st) return false;
    if (st.display === 'contents') {
      for (let c = el.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 1) {
          if (isVisible(c)) return true;
        } else if (c.nodeType === 3 && norm(c.data)) {
          try {
            const r = Doc_createRange(doc());
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
    return r.width > 0 && r.height > 0;
  }

  function innerTextOf(el) {
    const t = el.innerText;
    if (typeof t === 'string') return t;
    const c = el.textContent;
    return typeof c === 'string' ? c : '';
  }

  /** Visible text of `el` equals the (normalised) value `v`. */
  function visibleTextEquals(el, v) {
    const it = norm(innerTextOf(el));
    if (it === v) return true;
    // text-transform changes innerText's case; accept when the source text is exact.
    if (it.length === v.length && S_toLowerCase(it) === S_toLowerCase(v) && norm(el.textContent) === v) return true;
    return false;
  }

  // ---------------------------------------------------------------------------
  // Page text collection (one tree walk per evaluation, shared by probes)
  // ---------------------------------------------------------------------------
  const SKIP_TEXT_PARENT = makeSet('script style noscript template title head');
  const INPUT_BUTTON_SELECTOR = 'input[type=submit], input[type=button], input[type=reset]';
  const RE_SPECIAL = /[.*+?^${}()|[\]\\]/g;
  const SPACE_RE = / /g;

  // Normalised text per text node, valid while the node's data is unchanged.
  const textCache = new _WeakMap();

  function newCtx() {
    return {
      walked: false, preferWalk: false, texts: null, norms: null, shadowRoots: null, buttons: null,
      innerText: null, pageText: null,
    };
  }

  /** One walk over body (and open shadow roots): text nodes and shadow roots, in document order. */
  function walkPage(ctx) {
    if (ctx.walked) return;
    ctx.walked = true;
    const texts = [];
    const shadowRoots = [];
    ctx.texts = texts;
    ctx.norms = [];
    ctx.shadowRoots = shadowRoots;
    const d = doc();
    const root = d.body || d.documentElement;
    if (!root) return;
    const walk = function (r) {
      const w = Doc_createTreeWalker(d, r, SHOW_ELEMENT | SHOW_TEXT);
      let n;
      while ((n = TW_nextNode(w)) !== null) {
        if (n.nodeType === 3) {
          texts[texts.length] = n;
        } else {
          const sr = n.shadowRoot;
          if (sr) { push(shadowRoots, sr); walk(sr); }
        }
      }
    };
    if (root.shadowRoot) { push(shadowRoots, root.shadowRoot); walk(root.shadowRoot); }
    walk(root);
  }

  function inputButtons(ctx) {
    if (ctx.buttons !== null) return ctx.buttons;
    walkPage(ctx);
    const out = [];
    const d = doc();
    if (d.documentElement) {
      const l = Doc_qsa(d, INPUT_BUTTON_SELECTOR);
      for (let i = 0; i < l.length; i++) push(out, l[i]);
    }
    const srs = ctx.shadowRoots;
    for (let j = 0; j < srs.length; j++) {
      const l = Frag_qsa(srs[j], INPUT_BUTTON_SELECTOR);
      for (let i = 0; i < l.length; i++) push(out, l[i]);
    }
    ctx.buttons = out;
    return out;
  }

  function normText(tn) {
    const d = tn.data;
    const e = WM_get(textCache, tn);
    if (e !== undefined && e.d === d) return e.t;
    const t = norm(d);
    WM_set(textCache, tn, { d: d, t: t });
    return t;
  }

  /** Normalised text of ctx.texts[i], computed once per evaluation. */
  function textAt(ctx, i) {
    const norms = ctx.norms;
    if (i < norms.length) return norms[i];
    let t = '';
    for (let j = norms.length; j <= i; j++) { t = normText(ctx.texts[j]); norms[j] = t; }
    return t;
  }

  function bodyInnerText(ctx) {
    if (ctx.innerText === null) {
      const d = doc();
      const root = d.body || d.documentElement;
      ctx.innerText = root ? innerTextOf(root) : '';
    }
    return ctx.innerText;
  }

  /** Visible text of the open shadow roots (not part of body.innerText). */
  function shadowText(ctx) {
    walkPage(ctx);
    const srs = ctx.shadowRoots;
    let t = '';
    for (let i = 0; i < srs.length; i++) {
      for (let c = srs[i].firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 1) { if (SKIP_TEXT_PARENT[c.localName] !== true) t += '\n' + innerTextOf(c); }
        else if (c.nodeType === 3) t += ' ' + c.data;
      }
    }
    return t;
  }

  /** Normalised visible text of the whole page (body innerText + open shadow roots). */
  function pageText(ctx) {
    if (ctx.pageText === null) ctx.pageText = norm(bodyInnerText(ctx) + '\n' + shadowText(ctx));
    return ctx.pageText;
  }

  /** Does the visible page text contain `v` (normalised)? Searches the raw text, no copy. */
  function pageTextContains(v, ctx) {
    if (ctx.pageText !== null) return S_indexOf(ctx.pageText, v) >= 0;
    if (ctx.walked || ctx.preferWalk) {
      // Cheap positive: one text node holds the value and its parent is visible and untransformed
      // (then innerText holds it too). Otherwise fall back to innerText.
      walkPage(ctx);
      const texts = ctx.texts;
      const vl = v.length;
      for (let i = 0; i < texts.length; i++) {
        const t = textAt(ctx, i);
        if (t.length < vl || S_indexOf(t, v) < 0) continue;
        const tn = texts[i];
        const p = tn.parentNode;
        if (!p || p.nodeType !== 1 || SKIP_TEXT_PARENT[p.localName] === true || p.localName === 'textarea') continue;
        const st = styleOf(p);
        if (st && st.textTransform === 'none' && isVisible(p)) return true;
      }
    }
    // "a b" matches any whitespace run between a and b in the raw innerText.
    const re = new _RegExp(RE_replace(SPACE_RE, RE_replace(RE_SPECIAL, v, '\\$&'), '\\s+'));
    if (RE_exec(re, bodyInnerText(ctx)) !== null) return true;
    walkPage(ctx);
    if (!ctx.shadowRoots.length) return false;
    return RE_exec(re, shadowText(ctx)) !== null;
  }

  /**
   * Visible elements whose normalised visible text equals `v` (already normalised).
   * Walks text nodes; for every text node whose normalised text is a substring of v, climbs
   * ancestors while their text is short enough and tests innerText-based equality.
   * With all=false returns after the first match.
   */
  function findTextMatches(v, ctx, all) {
    const out = [];
    if (!v) return out;
    walkPage(ctx);
    const vl = v.length;
    const vSquash = squash(v);
    const rawCap = 8 * vl + 400;
    const extCap = 3 * vl + 50;
    const texts = ctx.texts;
    let seen = null;
    for (let i = 0; i < texts.length; i++) {
      const t = textAt(ctx, i);
      if (!t || t.length > vl || S_indexOf(v, t) < 0) continue;
      const tn = texts[i];
      let el = tn.parentNode;
      if (!el || el.nodeType !== 1 || SKIP_TEXT_PARENT[el.localName] === true) continue;
      if (seen === null) seen = new _Set();
      while (el && el.nodeType === 1) {
        if (Set_has(seen, el)) break;
        Set_add(seen, el);
        const raw = el.textContent;
        if (raw.length > rawCap) break;
        const nt = norm(raw);
        let candidate = false;
        if (nt === v) candidate = true;
        else if (nt.length <= vl) candidate = squash(nt) === vSquash; // block boundaries add spaces in innerText
        else if (nt.length <= extCap) candidate = el.firstElementChild !== null; // hidden children
        else break;
        if (candidate && visibleTextEquals(el, v) && isVisible(el)) {
          push(out, el);
          if (!all) return out;
        }
        el = el.parentElement;
      }
    }
    const buttons = inputButtons(ctx);
    for (let i = 0; i < buttons.length; i++) {
      const b = buttons[i];
      if (norm(b.value) === v && isVisible(b)) {
        push(out, b);
        if (!all) return out;
      }
    }
    return out;
  }

  function docOrderSort(arr) {
    return A_sort(arr, function (a, b) {
      if (a === b) return 0;
      return (Node_compare(a, b) & DOC_POS_FOLLOWING) ? -1 : 1;
    });
  }

  // ---------------------------------------------------------------------------
  // Selectors
  // ---------------------------------------------------------------------------
  function queryCss(sel) {
    const list = Doc_qsa(doc(), sel); // throws SyntaxError on invalid selectors
    const out = [];
    for (let i = 0; i < list.length; i++) push(out, list[i]);
    return out;
  }

  function queryXPath(expr) {
    const d = doc();
    const res = Doc_evaluate(d, expr, d, null, XPATH_ORDERED_SNAPSHOT, null);
    const out = [];
    const n = XR_snapshotLength(res);
    const seen = new _Set();
    for (let i = 0; i < n; i++) {
      let node = XR_snapshotItem(res, i);
      if (!node) continue;
      if (node.nodeType === 2) node = node.ownerElement;
      else if (node.nodeType !== 1) node = node.parentElement;
      if (!node || node.nodeType !== 1 || Set_has(seen, node)) continue;
      Set_add(seen, node);
      push(out, node);
    }
    return out;
  }

  // ---------------------------------------------------------------------------
  // ARIA roles and accessible names (simplified)
  // ---------------------------------------------------------------------------
  const NON_TEXT_INPUT = makeSet('checkbox radio button submit reset file image range color hidden');
  const TEXTBOX_INPUT = makeSet('text email tel url password');
  const NAME_FROM_CONTENT = makeSet(
    'button link heading option tab menuitem menuitemcheckbox menuitemradio cell gridcell columnheader rowheader ' +
    'listitem checkbox radio switch treeitem tooltip row');
  const SKIP_CONTENT = makeSet('script style template noscript');
  const LABELABLE = makeSet('input select textarea meter output progress button');

  // Candidate selectors per role (filtered precisely with roleOf afterwards).
  const ROLE_SELECTORS = (function () {
    const m = O_create(null);
    m.link = 'a[href],area[href]';
    m.button = 'button,input';
    m.textbox = 'input,textarea,[contenteditable]';
    m.searchbox = 'input';
    m.checkbox = 'input';
    m.radio = 'input';
    m.slider = 'input';
    m.spinbutton = 'input';
    m.combobox = 'select,input[list]';
    m.listbox = 'select';
    m.option = 'option';
    m.heading = 'h1,h2,h3,h4,h5,h6';
    m.img = 'img';
    m.list = 'ul,ol,menu';
    m.listitem = 'li';
    m.navigation = 'nav';
    m.main = 'main';
    m.dialog = 'dialog';
    m.table = 'table';
    m.row = 'tr';
    m.cell = 'td';
    m.columnheader = 'th';
    m.form = 'form';
    m.progressbar = 'progress';
    m.article = 'article';
    m.complementary = 'aside';
    m.separator = 'hr';
    m.group = 'fieldset,details';
    m.region = 'section';
    return m;
  })();

  function inputType(el) {
    const t = lower(El_getAttribute(el, 'type'));
    return t || 'text';
  }

  function implicitRole(el) {
    const tag = el.localName;
    switch (tag) {
      case 'a': case 'area': return El_hasAttribute(el, 'href') ? 'link' : null;
      case 'button': return 'button';
      case 'input': {
        const t = inputType(el);
        if (t === 'button' || t === 'submit' || t === 'reset' || t === 'image') return 'button';
        if (t === 'checkbox') return 'checkbox';
        if (t === 'radio') return 'radio';
        if (t === 'range') return 'slider';
        if (t === 'number') return 'spinbutton';
        if (t === 'hidden' || t === 'file' || t === 'color') return null;
        if (El_hasAttribute(el, 'list')) return 'combobox';
        if (t === 'search') return 'searchbox';
        if (TEXTBOX_INPUT[t] === true) return 'textbox';
        // Unknown types fall back to text; date/time-like types have no simple role.
        if (t === 'date' || t === 'datetime-local' || t === 'month' || t === 'week' || t === 'time') return null;
        return 'textbox';
      }
      case 'textarea': return 'textbox';
      case 'select': {
        const size = _parseInt(El_getAttribute(el, 'size') || '0', 10);
        return (El_hasAttribute(el, 'multiple') || size > 1) ? 'listbox' : 'combobox';
      }
      case 'option': return 'option';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'img': return El_getAttribute(el, 'alt') === '' ? 'presentation' : 'img';
      case 'ul': case 'ol': case 'menu': return 'list';
      case 'li': return 'listitem';
      case 'nav': return 'navigation';
      case 'main': return 'main';
      case 'dialog': return 'dialog';
      case 'table': return 'table';
      case 'tr': return 'row';
      case 'td': return 'cell';
      case 'th': return 'columnheader';
      case 'form':
        return (El_hasAttribute(el, 'aria-label') || El_hasAttribute(el, 'aria-labelledby') ||
          El_hasAttribute(el, 'name') || El_hasAttribute(el, 'title')) ? 'form' : null;
      case 'progress': return 'progressbar';
      case 'article': return 'article';
      case 'aside': return 'complementary';
      case 'hr': return 'separator';
      case 'fieldset': case 'details': return 'group';
      case 'section':
        return (El_hasAttribute(el, 'aria-label') || El_hasAttribute(el, 'aria-labelledby')) ? 'region' : null;
      default: break;
    }
    if (El_hasAttribute(el, 'contenteditable') && el.isContentEditable) {
      const p = el.parentElement;
      if (!p || !p.isContentEditable) return 'textbox';
    }
    return null;
  }

  function roleOf(el) {
    const explicit = El_getAttribute(el, 'role');
    if (explicit) {
      const t = tokens(explicit);
      if (t.length) return lower(t[0]);
    }
    return implicitRole(el);
  }

  function isAriaHidden(el) {
    return El_closest(el, '[aria-hidden="true" i]') !== null;
  }

  function getById(el, id) {
    const root = Node_getRootNode(el);
    if (root && root.nodeType === 11) return Frag_getElementById(root, id);
    return Doc_getElementById(doc(), id);
  }

  /** Text alternative from content (subset of accname step 2F). */
  function contentText(node, depth, includeHidden, skipEl, budget) {
    let out = '';
    if (depth > 20) return out;
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (out.length > budget) break;
      if (c.nodeType === 3) { out += c.data; continue; }
      if (c.nodeType !== 1 || c === skipEl) continue;
      const tag = c.localName;
      if (SKIP_CONTENT[tag] === true) continue;
      let pad = '';
      if (!includeHidden) {
        if (lower(El_getAttribute(c, 'aria-hidden')) === 'true') continue;
        const st = styleOf(c);
        if (st) {
          if (st.display === 'none') continue;
          if (st.display !== 'inline' && st.display !== 'contents') pad = ' ';
          if (st.visibility !== 'visible' && !c.firstElementChild) continue;
        }
      } else {
        pad = ' ';
      }
      let part;
      const al = El_getAttribute(c, 'aria-label');
      if (al && norm(al)) part = al;
      else if (tag === 'img' || tag === 'area') part = El_getAttribute(c, 'alt') || '';
      else if (tag === 'br') part = ' ';
      else if (tag === 'input') {
        const t = inputType(c);
        if (t === 'button' || t === 'submit' || t === 'reset') part = c.value || '';
        else if (t === 'image') part = El_getAttribute(c, 'alt') || '';
        else if (NON_TEXT_INPUT[t] === true) part = '';
        else part = c.value || '';
      } else if (tag === 'select') {
        const o = c.selectedOptions;
        part = o && o.length ? (o[0].label || o[0].text || '') : '';
      } else if (tag === 'textarea') part = c.value || '';
      else part = contentText(c, depth + 1, includeHidden, skipEl, budget);
      out += pad + part + pad;
    }
    return out;
  }

  function labelledByText(el, attr) {
    const ids = tokens(attr);
    let s = '';
    for (let i = 0; i < ids.length; i++) {
      const ref = getById(el, ids[i]);
      if (!ref) continue;
      let part;
      const al = El_getAttribute(ref, 'aria-label');
      if (al && norm(al)) part = al;
      else if (ref.localName === 'input' || ref.localName === 'textarea') part = ref.value || '';
      else part = contentText(ref, 1, !isVisible(ref), null, 2000);
      s += ' ' + part;
    }
    return norm(s);
  }

  function labelsText(el) {
    let labels = null;
    try { labels = el.labels; } catch (_) { labels = null; }
    if (!labels || !labels.length) return '';
    let s = '';
    for (let i = 0; i < labels.length; i++) s += ' ' + contentText(labels[i], 1, false, el, 2000);
    return norm(s);
  }

  /** Simplified accessible name computation. Returns a normalised string. */
  function accName(el) {
    const lb = El_getAttribute(el, 'aria-labelledby');
    if (lb) {
      const s = labelledByText(el, lb);
      if (s) return s;
    }
    const al = norm(El_getAttribute(el, 'aria-label') || '');
    if (al) return al;
    const tag = el.localName;
    if (tag === 'input') {
      const t = inputType(el);
      if (t === 'button' || t === 'submit' || t === 'reset') {
        const v = norm(el.value || '');
        if (v) return v;
        const l = labelsText(el);
        if (l) return l;
        if (t === 'submit') return 'Submit';
        if (t === 'reset') return 'Reset';
      } else if (t === 'image') {
        const a = norm(El_getAttribute(el, 'alt') || '') || norm(el.value || '') || norm(El_getAttribute(el, 'title') || '');
        return a || 'Submit';
      } else {
        const l = labelsText(el);
        if (l) return l;
      }
    } else if (LABELABLE[tag] === true) {
      const l = labelsText(el);
      if (l) return l;
    } else if (tag === 'img' || tag === 'area') {
      const a = norm(El_getAttribute(el, 'alt') || '');
      if (a) return a;
    } else if (tag === 'fieldset') {
      const lg = el.firstElementChild;
      if (lg && lg.localName === 'legend') { const s = norm(contentText(lg, 1, false, null, 2000)); if (s) return s; }
    } else if (tag === 'table') {
      const cap = el.caption;
      if (cap) { const s = norm(contentText(cap, 1, false, null, 2000)); if (s) return s; }
    }
    const role = roleOf(el);
    if (role && NAME_FROM_CONTENT[role] === true) {
      const s = norm(contentText(el, 0, false, null, 4000));
      if (s) return s;
    }
    const title = norm(El_getAttribute(el, 'title') || '');
    if (title) return title;
    const ph = norm(El_getAttribute(el, 'placeholder') || El_getAttribute(el, 'aria-placeholder') || '');
    if (ph) return ph;
    return '';
  }

  // ---------------------------------------------------------------------------
  // Element state
  // ---------------------------------------------------------------------------
  const FORM_DISABLEABLE = makeSet('button input select textarea option optgroup fieldset');

  function isDisabled(el) {
    if (FORM_DISABLEABLE[el.localName] === true) {
      try { if (El_matches(el, ':disabled')) return true; } catch (_) { /* ignore */ }
    }
    const a = El_closest(el, '[aria-disabled]');
    return !!a && lower(S_trim(El_getAttribute(a, 'aria-disabled') || '')) === 'true';
  }

  function isEditable(el) {
    const tag = el.localName;
    if (tag === 'input') {
      if (NON_TEXT_INPUT[inputType(el)] === true) return false;
      return !el.readOnly && !isDisabled(el);
    }
    if (tag === 'textarea') return !el.readOnly && !isDisabled(el);
    if (el.isContentEditable) return lower(El_getAttribute(el, 'aria-readonly') || '') !== 'true';
    return false;
  }

  /** For typing / option selection: a <label> stands for its control. */
  function controlOf(el) {
    if (el && el.localName === 'label') {
      const c = el.control;
      if (c) return c;
    }
    return el;
  }

  function deepActiveElement() {
    let a = doc().activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  }

  // ---------------------------------------------------------------------------
  // Descriptions
  // ---------------------------------------------------------------------------
  const DESCRIBE_NAMED_TAG = makeSet('button a input select textarea summary label option img');

  function describeEl(el) {
    if (!el || el.nodeType !== 1) return 'nothing';
    const tag = el.localName || 'element';
    let s = tag;
    const id = el.id;
    if (typeof id === 'string' && id) {
      s += '#' + id;
    } else {
      const nm = El_getAttribute(el, 'name');
      if (nm && LABELABLE[tag] === true) s += '[name="' + nm + '"]';
      else if (tag === 'input') s += '[type=' + inputType(el) + ']';
      else {
        const cls = tokens(El_getAttribute(el, 'class') || '');
        if (cls.length && DESCRIBE_NAMED_TAG[tag] !== true) s += '.' + cls[0];
      }
    }
    const role = roleOf(el);
    let name = '';
    if (DESCRIBE_NAMED_TAG[tag] === true || (role && NAME_FROM_CONTENT[role] === true) ||
        El_hasAttribute(el, 'aria-label') || El_hasAttribute(el, 'aria-labelledby')) {
      name = accName(el);
    }
    if (name) s += ' "' + truncate(name, 40) + '"';
    return s;
  }

  /** Description of the element covering a hit point, naming its nearest ancestor with an id. */
  function describeCover(hit, target) {
    let s = describeEl(hit);
    if (!hit.id) {
      for (let a = hit.parentElement; a; a = a.parentElement) {
        if (Node_contains(a, target)) break;
        if (a.id) { s += ' in ' + describeEl(a); break; }
      }
    }
    return s;
  }

  function describeTarget(t) {
    if (!t || typeof t !== 'object') return 'target';
    let s;
    if (typeof t.css === 'string') s = 'css "' + t.css + '"';
    else if (typeof t.xpath === 'string') s = 'xpath "' + t.xpath + '"';
    else if (typeof t.text === 'string') s = 'text "' + t.text + '"';
    else if (typeof t.role === 'string') s = 'role ' + t.role + (typeof t.name === 'string' ? ' name "' + t.name + '"' : '');
    else s = 'target';
    if (typeof t.nth === 'number') s += ' nth=' + t.nth;
    return s;
  }

  // ---------------------------------------------------------------------------
  // Target resolution
  // ---------------------------------------------------------------------------
  const STRONG_INTERACTIVE = 'button, a[href], [role=button], [role=link], label, input, select, textarea, summary';
  const WEAK_INTERACTIVE = '[onclick], [tabindex]';

  function retargetInteractive(el, v) {
    const strong = El_closest(el, STRONG_INTERACTIVE);
    const weak = El_closest(el, WEAK_INTERACTIVE);
    if (strong && (!weak || Node_contains(weak, strong))) return strong;
    if (weak) {
      // Only retarget to generic clickable containers when they are small widgets.
      const wt = norm(weak.textContent);
      if (wt.length <= 2 * v.length + 20) return weak;
      if (strong) return strong;
    }
    return el;
  }

  /**
   * Resolve a target to candidate elements.
   * Returns {invalid: bool, message?: string, list: Element[], visibleOnly: bool}.
   * css/xpath lists hold all matches (nth counts among them); text/role lists hold visible matches.
   */
  function resolveTarget(target) {
    if (!target || typeof target !== 'object' || A_isArray(target)) {
      return { invalid: true, message: 'target must be an object with one of css, xpath, text, role', list: [] };
    }
    let kinds = 0;
    if (target.css !== undefined && target.css !== null) kinds++;
    if (target.xpath !== undefined && target.xpath !== null) kinds++;
    if (target.text !== undefined && target.text !== null) kinds++;
    if (target.role !== undefined && target.role !== null) kinds++;
    if (kinds !== 1) {
      return { invalid: true, message: 'target must have exactly one of css, xpath, text, role', list: [] };
    }
    if (target.nth !== undefined && target.nth !== null &&
        (typeof target.nth !== 'number' || !N_isFinite(target.nth) || target.nth !== M_round(target.nth))) {
      return { invalid: true, message: 'target nth must be an integer', list: [] };
    }
    if (target.css !== undefined && target.css !== null) {
      if (typeof target.css !== 'string' || !S_trim(target.css)) {
        return { invalid: true, message: 'css selector must be a non-empty string', list: [] };
      }
      try {
        return { invalid: false, list: queryCss(target.css), visibleOnly: false };
      } catch (e) {
        return { invalid: true, message: 'invalid CSS selector "' + target.css + '": ' + errMessage(e), list: [] };
      }
    }
    if (target.xpath !== undefined && target.xpath !== null) {
      if (typeof target.xpath !== 'string' || !S_trim(target.xpath)) {
        return { invalid: true, message: 'xpath must be a non-empty string', list: [] };
      }
      try {
        return { invalid: false, list: queryXPath(target.xpath), visibleOnly: false };
      } catch (e) {
        return { invalid: true, message: 'invalid XPath "' + target.xpath + '": ' + errMessage(e), list: [] };
      }
    }
    if (target.text !== undefined && target.text !== null) {
      if (typeof target.text !== 'string') return { invalid: true, message: 'text must be a string', list: [] };
      const v = norm(target.text);
      if (!v) return { invalid: true, message: 'text must not be empty', list: [] };
      const raw = findTextMatches(v, newCtx(), true);
      // Keep the deepest matches only.
      const deepest = [];
      for (let i = 0; i < raw.length; i++) {
        let hasInner = false;
        for (let j = 0; j < raw.length; j++) {
          if (i !== j && raw[i] !== raw[j] && Node_contains(raw[i], raw[j])) { hasInner = true; break; }
        }
        if (!hasInner) push(deepest, raw[i]);
      }
      const seen = new _Set();
      const list = [];
      for (let i = 0; i < deepest.length; i++) {
        const t = retargetInteractive(deepest[i], v);
        if (Set_has(seen, t)) continue;
        Set_add(seen, t);
        push(list, t);
      }
      return { invalid: false, list: docOrderSort(list), visibleOnly: true };
    }
    // role
    if (typeof target.role !== 'string' || !S_trim(target.role)) {
      return { invalid: true, message: 'role must be a non-empty string', list: [] };
    }
    if (target.name !== undefined && target.name !== null && typeof target.name !== 'string') {
      return { invalid: true, message: 'name must be a string', list: [] };
    }
    const role = lower(S_trim(target.role));
    const wantName = typeof target.name === 'string' ? norm(target.name) : null;
    const base = ROLE_SELECTORS[role];
    const sel = base ? base + ',[role]' : '[role]';
    const all = queryCss(sel);
    const list = [];
    for (let i = 0; i < all.length; i++) {
      const el = all[i];
      if (roleOf(el) !== role) continue;
      if (!isVisible(el) || isAriaHidden(el)) continue;
      if (wantName !== null && accName(el) !== wantName) continue;
      push(list, el);
    }
    return { invalid: false, list: list, visibleOnly: true };
  }

  /** Pick the element a target designates: nth among matches, else first visible. */
  function pickTarget(res, target) {
    const list = res.list;
    if (typeof target.nth === 'number') {
      let i = target.nth;
      if (i < 0) i = list.length + i;
      return i >= 0 && i < list.length ? list[i] : null;
    }
    if (res.visibleOnly) return list.length ? list[0] : null;
    for (let i = 0; i < list.length; i++) if (isVisible(list[i])) return list[i];
    return list.length ? list[0] : null;
  }

  function notFoundMessage(target, res) {
    if (typeof target.nth === 'number' && res.list.length) {
      return 'no element for ' + describeTarget(target) + ' (only ' + res.list.length + ' match' +
        (res.list.length === 1 ? '' : 'es') + ')';
    }
    if (res.visibleOnly) return 'no visible element matches ' + describeTarget(target);
    return 'no element matches ' + describeTarget(target);
  }

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
  function locate(probes) {
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

  function signals(probes) {
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
      let lastEval = now();
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
        lastEval = now();
        const s = signals(probes);
        if (differs(s, since)) finish(s);
      };
      const onMutation = function () {
        if (done || throttleTimer !== null) return;
        // Throttle: at most one evaluation per ~16 ms while mutations keep coming. The first
        // change after a quiet spell is read at once (observer callbacks run once the page's
        // own script is done): a timer hop here is time between a target showing and its click.
        const wait = lastEval + 16 - now();
        if (wait <= 0) { evaluate(); return; }
        throttleTimer = later(function () { throttleTimer = null; evaluate(); }, wait);
      };
      const poll = function () {
        pollTimer = null;
        evaluate();
        if (!done) pollTimer = later(poll, 100);
      };
      function onEvent() { evaluate(); }

      try {
        mo = new _MO(onMutation);
        MO_observe(mo, doc(), MO_OPTIONS);
      } catch (_) { mo = null; }
      ET_add(W, 'hashchange', onEvent);
      ET_add(W, 'popstate', onEvent);
      pollTimer = later(poll, 100);
      deadlineTimer = later(function () { deadlineTimer = null; finish(signals(probes)); }, timeout);
    });
  }

  // ---------------------------------------------------------------------------
  // 3. actionable
  // ---------------------------------------------------------------------------
  let frameNo = 0;

  /** Resolve after the next animation frame (or a mutation, when asked), 100 ms at most. */
  function tick(wakeOnMutation) {
    return new _Promise(function (resolve) {
      let done = false;
      let rafId = null;
      let timer = null;
      let mo = null;
      const fin = function (frame) {
        if (done) return;
        done = true;
        if (frame) frameNo++;
        if (rafId !== null) { try { Win_caf(W, rafId); } catch (_) { /* ignore */ } }
        cancel(timer);
        if (mo) { try { MO_disconnect(mo); } catch (_) { /* ignore */ } }
        resolve();
      };
      try { rafId = Win_raf(W, function () { rafId = null; fin(true); }); } catch (_) { rafId = null; }
      // Fallback when rAF is throttled (background tabs); counts as a frame.
      timer = later(function () { fin(true); }, 100);
      if (wakeOnMutation) {
        try {
          mo = new _MO(function () { fin(false); });
          MO_observe(mo, doc(), MO_OPTIONS);
        } catch (_) { mo = null; }
      }
    });
  }

  function timelineTime() {
    const tl = doc().timeline;
    const t = tl ? tl.currentTime : null;
    return typeof t === 'number' ? t : -1;
  }

  /**
   * Has an animation frame passed since `prev` was recorded? Frames are told apart by the
   * document timeline's time; when no frames are produced at all (throttled background
   * page) our fallback ticks count after 300 ms.
   */
  function newFrameSince(prev) {
    if (prev.frame >= frameNo) return false;
    const t = timelineTime();
    return t === -1 || t !== prev.time || now() - prev.at > 300;
  }

  /** An animation affecting `el` (on it or an ancestor) that hasn't started yet (its first
   *  frames keep the box still), or with `running`, one that is under way. */
  function animationOn(el, running) {
    if (!Doc_getAnimations) return false;
    let list;
    try { list = Doc_getAnimations(doc()); } catch (_) { return false; }
    for (let i = 0; i < list.length; i++) {
      const a = list[i];
      if (!a.pending && !(running && a.playState === 'running')) continue;
      const eff = a.effect;
      const t = eff ? eff.target : null;
      if (t && (t === el || Node_contains(t, el))) return true;
    }
    return false;
  }

  function hasPendingAnimation(el) { return animationOn(el, false); }

  function rectOf(el) {
    const r = El_getBCR(el);
    return { x: r.left, y: r.top, width: r.width, height: r.height };
  }
  function rectEq(a, b) {
    return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
  }
  function viewport() {
    const d = doc();
    const de = d.documentElement;
    let w = W.innerWidth;
    let h = W.innerHeight;
    if (de && d.compatMode === 'CSS1Compat') {
      if (de.clientWidth > 0) w = de.clientWidth;
      if (de.clientHeight > 0) h = de.clientHeight;
    }
    return { width: w, height: h };
  }
  function fullyInViewport(r, vp) {
    return r.x >= 0 && r.y >= 0 && r.x + r.width <= vp.width && r.y + r.height <= vp.height;
  }
  function fraction(v, dflt) {
    if (typeof v !== 'number' || !N_isFinite(v)) return dflt;
    return M_min(1, M_max(0, v));
  }
  function actionPoint(r, position) {
    const fx = fraction(position && position.x, 0.5);
    const fy = fraction(position && position.y, 0.5);
    const ex = M_min(0.5, r.width / 4);
    const ey = M_min(0.5, r.height / 4);
    return {
      x: M_min(r.x + r.width - ex, M_max(r.x + ex, r.x + r.width * fx)),
      y: M_min(r.y + r.height - ey, M_max(r.y + ey, r.y + r.height * fy)),
    };
  }

  /** Other points of an element to try when its centre is covered, nearest the centre
   *  first (fractions of its box). */
  const VISIBLE_POINTS = [
    [0.5, 0.3], [0.5, 0.7], [0.3, 0.5], [0.7, 0.5], [0.3, 0.3], [0.7, 0.3], [0.3, 0.7], [0.7, 0.7],
    [0.5, 0.1], [0.5, 0.9], [0.1, 0.5], [0.9, 0.5], [0.3, 0.1], [0.7, 0.1], [0.3, 0.9], [0.7, 0.9],
    [0.1, 0.3], [0.9, 0.3], [0.1, 0.7], [0.9, 0.7], [0.1, 0.1], [0.9, 0.1], [0.1, 0.9], [0.9, 0.9],
  ];
  /** A point of the box `r` inside the viewport where the element itself takes the hit. */
  function visiblePoint(r, vp, receives) {
    for (let i = 0; i < VISIBLE_POINTS.length; i++) {
      const p = actionPoint(r, { x: VISIBLE_POINTS[i][0], y: VISIBLE_POINTS[i][1] });
      if (p.x < 0 || p.y < 0 || p.x >= vp.width || p.y >= vp.height) continue;
      if (receives(deepElementFromPoint(p.x, p.y))) return p;
    }
    return null;
  }

  function deepElementFromPoint(x, y) {
    let el = Doc_elementFromPoint(doc(), x, y);
    while (el && el.shadowRoot && SR_elementFromPoint) {
      const inner = SR_elementFromPoint(el.shadowRoot, x, y);
      if (!inner || inner === el) break;
      el = inner;
    }
    return el;
  }
  /** `node` is `root` or a (shadow-including) descendant of it. */
  function isInclusiveDescendant(node, root) {
    for (let n = node; n; ) {
      if (n === root) return true;
      if (n.parentNode) n = n.parentNode;
      else if (n.nodeType === 11 && n.host) n = n.host;
      else break;
    }
    return false;
  }

  /** The hit point is on a <label> of `el` (clicking it activates the control). */
  function labelFor(hit, el) {
    const l = hit.nodeType === 1 ? El_closest(hit, 'label') : null;
    return !!l && l.control === el;
  }

  function fail(reason, message) { return { ok: false, reason: reason, message: message }; }

  async function actionable(target, opts) {
    opts = opts && typeof opts === 'object' ? opts : {};
    const timeout = typeof opts.timeoutMs === 'number' && opts.timeoutMs >= 0 ? opts.timeoutMs : 5000;
    const needEnabled = opts.enabled === true;
    const needEditable = opts.editable === true;
    const hitTest = opts.hitTest === true;
    const allowScroll = opts.scroll !== false;
    const position = opts.position && typeof opts.position === 'object' ? opts.position : null;
    const deadline = now() + timeout;

    let last = fail('not_found', 'no element matches ' + describeTarget(target));
    let prev = null; // {el, rect, frame}
    let scrolledEl = null;
    let iterations = 0;

    for (;;) {
      iterations++;
      let wakeOnMutation = true;
      const res = resolveTarget(target);
      if (res.invalid) return fail('invalid_selector', res.message);
      let el = pickTarget(res, target);
      if (el && needEditable) el = controlOf(el);
      if (!el) {
        last = fail('not_found', notFoundMessage(target, res));
        prev = null;
      } else if (!isVisible(el)) {
        last = fail('not_visible', describeEl(el) + ' is not visible');
        prev = null;
      } else {
        const rect = rectOf(el);
        // Stable: the same box over two frames, as Playwright has it, except that an element
        // nothing animates is taken at once. Waiting for a frame is most of the time between
        // a button appearing and its click, and the hit test below still checks the point.
        const settled = !prev && !animationOn(el, true);
        if (!settled && (!prev || prev.el !== el || !rectEq(prev.rect, rect) || !newFrameSince(prev) || hasPendingAnimation(el))) {
          if (!prev || prev.el !== el || !rectEq(prev.rect, rect)) {
            prev = { el: el, rect: rect, frame: frameNo, time: timelineTime(), at: now() };
          }
          last = fail('not_stable', describeEl(el) + ' is not stable (moving or animating)');
          wakeOnMutation = false;
        } else if (needEnabled && isDisabled(el)) {
          last = fail('disabled', describeEl(el) + ' is disabled');
        } else if (needEditable && !isEditable(el)) {
          last = fail('not_editable', describeEl(el) + ' is not editable' +
            (el.readOnly ? ' (readonly)' : isDisabled(el) ? ' (disabled)' : ''));
        } else {
          const vp = viewport();
          let pt = actionPoint(rect, position);
          const ptInside = pt.x >= 0 && pt.y >= 0 && pt.x < vp.width && pt.y < vp.height;
          if (allowScroll && !fullyInViewport(rect, vp) && (scrolledEl !== el || !ptInside)) {
            try { El_scrollIntoView(el, { block: 'center', inline: 'center', behavior: 'instant' }); } catch (_) { /* ignore */ }
            scrolledEl = el;
            prev = null;
            last = fail('not_stable', describeEl(el) + ' is being scrolled into view');
            wakeOnMutation = false;
          } else if (!ptInside) {
            last = fail('not_visible', describeEl(el) + ' is outside of the viewport');
            wakeOnMutation = false;
          } else {
            let hitOk = true;
            let note = null;
            if (hitTest) {
              const receives = function (h) { return !!h && (isInclusiveDescendant(h, el) || labelFor(h, el)); };
              const hit = deepElementFromPoint(pt.x, pt.y);
              // A person clicks the part of a button they can see; an explicit position is
              // kept as given.
              const seen = receives(hit) || position ? null : visiblePoint(rect, vp, receives);
              if (seen) {
                note = 'at (' + round1(seen.x) + ', ' + round1(seen.y) + '): its centre is covered by ' +
                  (hit ? describeCover(hit, el) : 'nothing that takes pointer events');
                pt = seen;
              } else if (!hit) {
                hitOk = false;
                last = fail('obscured', describeEl(el) + ' does not receive pointer events at (' +
                  round1(pt.x) + ', ' + round1(pt.y) + ')');
              } else if (!receives(hit)) {
                hitOk = false;
                last = fail('obscured', 'obscured by ' + describeCover(hit, el));
              }
            }
            if (hitOk) {
              const found = {
                ok: true,
                x: pt.x,
                y: pt.y,
                rect: rect,
                tag: el.localName,
                description: describeEl(el),
              };
              if (note) found.note = note;
              // This very node: a button made anew (or a new page) is another element.
              found.element = elementId(el) + '@' + TIME_ORIGIN;
              if (opts.alternatives === true) found.alternatives = alternativesSafely(el, target);
              return found;
            }
            wakeOnMutation = false;
          }
        }
      }
      if (now() >= deadline && iterations >= 3) return last;
      await tick(wakeOnMutation);
    }
  }

  // ---------------------------------------------------------------------------
  // 3b. extract
  // ---------------------------------------------------------------------------
  /** How many items a list or table read keeps: a page of a million rows must not flood
   *  the run's record. */
  const MAX_EXTRACT_ITEMS = 5000;
  const In_value = uncurry(O_getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').get);
  const TA_value = uncurry(O_getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').get);
  const Sel_value = uncurry(O_getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').get);
  const TABLE_SELECTOR = 'table, [role=table], [role=grid], [role=treegrid]';
  const ROW_SELECTOR = '[role=row]';
  const CELL_SELECTOR = '[role=cell], [role=gridcell], [role=columnheader], [role=rowheader]';

  function isTable(el) { try { return El_matches(el, TABLE_SELECTOR); } catch (_) { return false; } }

  function fieldValue(el) {
    const tag = el.localName;
    if (tag === 'input') return In_value(el);
    if (tag === 'textarea') return TA_value(el);
    if (tag === 'select') return Sel_value(el);
    if (el.isContentEditable) return norm(innerTextOf(el));
    return null;
  }

  /** A row's cells and whether they are all header cells. */
  function cellsOf(row, html) {
    const cells = html ? row.cells : El_qsa(row, CELL_SELECTOR);
    const out = [];
    let headers = cells.length > 0;
    for (let i = 0; i < cells.length; i++) {
      const c = cells[i];
      push(out, norm(innerTextOf(c)));
      const header = html ? c.localName === 'th' : roleOf(c) === 'columnheader';
      if (!header) headers = false;
    }
    return { texts: out, headers: headers };
  }

  /** Header names made usable as keys: empty ones named by position, repeats numbered. */
  function keysOf(texts) {
    const keys = [];
    const seen = new _Set();
    for (let i = 0; i < texts.length; i++) {
      let k = texts[i] || 'column ' + (i + 1);
      let n = 2;
      const base = k;
      while (Set_has(seen, k)) k = base + ' ' + n++;
      Set_add(seen, k);
      push(keys, k);
    }
    return keys;
  }

  /** The visible rows of a table as objects keyed by its header, or arrays without one. */
  function tableRows(table) {
    const html = table.localName === 'table';
    let rows = [];
    if (html) {
      rows = table.rows;
    } else {
      const all = El_qsa(table, ROW_SELECTOR);
      for (let i = 0; i < all.length; i++) {
        // Rows of a table nested inside belong to it, not to this one.
        if (El_closest(all[i].parentElement || all[i], TABLE_SELECTOR) === table) push(rows, all[i]);
      }
    }
    let keys = null;
    const out = [];
    let total = 0;
    for (let i = 0; i < rows.length; i++) {
      if (!isVisible(rows[i])) continue;
      const cells = cellsOf(rows[i], html);
      if (!cells.texts.length) continue;
      if (cells.headers) {
        if (keys === null && !out.length) keys = keysOf(cells.texts);
        continue;
      }
      total++;
      if (out.length >= MAX_EXTRACT_ITEMS) continue;
      if (keys === null) { push(out, cells.texts); continue; }
      const row = O_create(null);
      for (let j = 0; j < cells.texts.length; j++) row[j < keys.length ? keys[j] : 'column ' + (j + 1)] = cells.texts[j];
      push(out, row);
    }
    return { rows: out, total: total };
  }

  function readOne(el, read, attribute) {
    const description = describeEl(el);
    if (read === 'attribute') {
      if (typeof attribute !== 'string' || !El_hasAttribute(el, attribute)) {
        return fail('no_attribute', description + ' has no attribute "' + attribute + '"');
      }
      return { ok: true, value: El_getAttribute(el, attribute), description: description };
    }
    if (read === 'value') {
      const v = fieldValue(el);
      if (v === null) return fail('not_a_field', description + ' is not a form field: it has no value to read');
      return { ok: true, value: _String(v), description: description };
    }
    if (read === 'table') {
      let table = isTable(el) ? el : null;
      if (!table) {
        const inner = El_qsa(el, TABLE_SELECTOR);
        table = inner.length ? inner[0] : null;
      }
      if (!table) return fail('not_a_table', description + ' is not a table and holds none');
      const t = tableRows(table);
      const more = t.total > t.rows.length ? ' (the first ' + t.rows.length + ' of ' + t.total + ')' : '';
      return { ok: true, value: t.rows, description: t.total + ' rows of ' + describeEl(table) + more };
    }
    return { ok: true, value: norm(innerTextOf(el)), description: description };
  }

  /** Reads what an `extract` action asks for: {ok, value, description} or {ok:false, reason,
   *  message}. A count or a list answers at once (none is an answer); the other reads wait
   *  up to opts.timeoutMs for their element, as actions do. */
  async function extract(target, read, attribute, opts) {
    opts = opts && typeof opts === 'object' ? opts : {};
    const timeout = typeof opts.timeoutMs === 'number' && opts.timeoutMs >= 0 ? opts.timeoutMs : 5000;
    const deadline = now() + timeout;
    for (;;) {
      const res = resolveTarget(target);
      if (res.invalid) return fail('invalid_selector', res.message);
      if (read === 'count' || read === 'list') {
        const items = [];
        let count = 0;
        for (let i = 0; i < res.list.length; i++) {
          const el = res.list[i];
          if (!res.visibleOnly && !isVisible(el)) continue;
          count++;
          if (read === 'list' && items.length < MAX_EXTRACT_ITEMS) push(items, norm(innerTextOf(el)));
        }
        const what = count + ' visible match' + (count === 1 ? '' : 'es') + ' of ' + describeTarget(target);
        return { ok: true, value: read === 'count' ? count : items, description: what };
      }
      const el = pickTarget(res, target);
      let last;
      if (el) {
        last = readOne(el, read, attribute);
        if (last.ok) {
          last.element = elementId(el) + '@' + TIME_ORIGIN;
          if (opts.alternatives === true) last.alternatives = alternativesSafely(el, target);
          return last;
        }
      } else {
        last = fail('not_found', notFoundMessage(target, res));
      }
      if (now() >= deadline) return last;
      await tick(true);
    }
  }

  // ---------------------------------------------------------------------------
  // 4. prepareTyping
  // ---------------------------------------------------------------------------
  function resolveOne(target) {
    const res = resolveTarget(target);
    if (res.invalid) return { error: res.message };
    const el = pickTarget(res, target);
    if (!el) return { error: notFoundMessage(target, res) };
    return { el: el };
  }

  function selectContents(el, collapseToEnd) {
    const sel = Win_getSelection(W);
    if (!sel) return;
    const r = Doc_createRange(doc());
    Range_selectNodeContents(r, el);
    if (collapseToEnd) Range_collapse(r, false);
    Sel_removeAllRanges(sel);
    Sel_addRange(sel, r);
  }

  function prepareTyping(target, clear) {
    const r = resolveOne(target);
    if (r.error) return { ok: false, message: r.error };
    const el = controlOf(r.el);
    if (!isEditable(el)) return { ok: false, message: describeEl(el) + ' is not editable' };
    const isInput = el.localName === 'input';
    const isTextarea = el.localName === 'textarea';
    const focused = function () {
      const a = deepActiveElement();
      return a === el || (!!a && el.isContentEditable && a.isContentEditable && Node_contains(a, el));
    };
    if (!focused()) {
      try { HEl_focus(el); } catch (_) { /* ignore */ }
      if (!focused()) return { ok: false, message: 'could not focus ' + describeEl(el) };
    }
    try {
      if (clear) {
        if (isInput) In_select(el);
        else if (isTextarea) TA_select(el);
        else selectContents(el, false);
      } else if (isInput || isTextarea) {
        const len = (el.value || '').length;
        try {
          if (isInput) In_setSelectionRange(el, len, len);
          else TA_setSelectionRange(el, len, len);
        } catch (_) { /* types like email/number have no selection API */ }
      } else {
        selectContents(el, true);
      }
    } catch (e) {
      return { ok: false, message: 'could not select contents of ' + describeEl(el) + ': ' + errMessage(e) };
    }
    return { ok: true, description: describeEl(el) };
  }

  // ---------------------------------------------------------------------------
  // 5. selectOption
  // ---------------------------------------------------------------------------
  function selectOption(target, choice) {
    const r = resolveOne(target);
    if (r.error) return { ok: false, message: r.error };
    const el = controlOf(r.el);
    if (el.localName !== 'select') return { ok: false, message: describeEl(el) + ' is not a <select> element' };
    if (isDisabled(el)) return { ok: false, message: describeEl(el) + ' is disabled' };
    choice = choice && typeof choice === 'object' ? choice : {};
    const byValue = typeof choice.value === 'string' ? choice.value : null;
    const byLabel = typeof choice.label === 'string' ? norm(choice.label) : null;
    if (byValue === null && byLabel === null) return { ok: false, message: 'selectOption needs a value or a label' };
    const options = el.options;
    let found = null;
    for (let i = 0; i < options.length && !found; i++) {
      if (byValue !== null && options[i].value === byValue) found = options[i];
    }
    for (let i = 0; i < options.length && !found; i++) {
      const o = options[i];
      if (byLabel !== null && (norm(o.label) === byLabel || norm(o.text) === byLabel)) found = o;
    }
    if (!found) {
      let avail = '';
      const n = M_min(options.length, 10);
      for (let i = 0; i < n; i++) avail += (i ? ', ' : '') + '"' + norm(options[i].label || options[i].text) + '"';
      if (options.length > n) avail += ', \u2026 (' + options.length + ' options)';
      const what = byValue !== null ? 'value "' + byValue + '"' : 'label "' + byLabel + '"';
      return { ok: false, message: 'no option with ' + what + ' in ' + describeEl(el) + '; available: ' + (avail || '(none)') };
    }
    if (found.disabled || isDisabled(found)) return { ok: false, message: 'option "' + norm(found.label) + '" is disabled' };
    if (el.multiple) {
      for (let i = 0; i < options.length; i++) options[i].selected = options[i] === found;
    } else {
      found.selected = true;
    }
    ET_dispatch(el, new _Event('input', { bubbles: true, composed: true }));
    ET_dispatch(el, new _Event('change', { bubbles: true }));
    return { ok: true, selected: found.value, label: norm(found.label || found.text) };
  }

  // ---------------------------------------------------------------------------
  // 6. scrolling
  // ---------------------------------------------------------------------------
  function canScroll(el, dx, dy) {
    const st = styleOf(el);
    if (!st) return false;
    const oy = st.overflowY;
    const ox = st.overflowX;
    const sy = dy !== 0 && el.scrollHeight > el.clientHeight && (oy === 'auto' || oy === 'scroll' || oy === 'overlay');
    const sx = dx !== 0 && el.scrollWidth > el.clientWidth && (ox === 'auto' || ox === 'scroll' || ox === 'overlay');
    return sy || sx;
  }

  function scrollBy(target, dx, dy) {
    dx = typeof dx === 'number' && N_isFinite(dx) ? dx : 0;
    dy = typeof dy === 'number' && N_isFinite(dy) ? dy : 0;
    if (target === null || target === undefined) {
      Win_scrollBy(W, { left: dx, top: dy, behavior: 'instant' });
      return { ok: true, scrollX: W.scrollX, scrollY: W.scrollY };
    }
    const r = resolveOne(target);
    if (r.error) return { ok: false, message: r.error };
    let el = r.el;
    // If the element itself cannot scroll, scroll its nearest scrollable ancestor.
    let s = el;
    while (s && s.nodeType === 1 && !canScroll(s, dx, dy)) s = s.parentElement;
    const d = doc();
    if (!s || s === d.documentElement || s === d.body) {
      Win_scrollBy(W, { left: dx, top: dy, behavior: 'instant' });
      return { ok: true, scrollX: W.scrollX, scrollY: W.scrollY, scrolled: 'page' };
    }
    el = s;
    El_scrollBy(el, { left: dx, top: dy, behavior: 'instant' });
    return { ok: true, scrollLeft: el.scrollLeft, scrollTop: el.scrollTop, scrolled: describeEl(el) };
  }

  function scrollIntoView(target) {
    const r = resolveOne(target);
    if (r.error) return { ok: false, message: r.error };
    El_scrollIntoView(r.el, { block: 'center', inline: 'center', behavior: 'instant' });
    return { ok: true, rect: rectOf(r.el) };
  }

  // ---------------------------------------------------------------------------
  // 7. snapshot
  // ---------------------------------------------------------------------------
  const SNAPSHOT_SELECTOR =
    'a[href], button, input, select, textarea, summary, ' +
    '[role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], ' +
    '[role=combobox], [role=textbox], [role=switch], [onclick], [contenteditable], [tabindex]';
  const SNAPSHOT_CORE =
    'a[href], button, input, select, textarea, summary, ' +
    '[role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], ' +
    '[role=combobox], [role=textbox], [role=switch], [onclick]';
  // A modal or dialog: what is inside it is an overlay of the page, not the page.
  const DIALOG_SELECTOR = 'dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]';
  const TEST_ID_ATTRS = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];
  const MAX_SNAPSHOT_ELEMENTS = 500;

  const docStates = new _WeakMap();
  const elementIds = new _WeakMap();

  function elementId(el) {
    let id = WM_get(elementIds, el);
    if (id) return id;
    const d = el.ownerDocument || doc();
    let st = WM_get(docStates, d);
    if (!st) { st = { counter: 0 }; WM_set(docStates, d, st); }
    st.counter++;
    id = 'e' + st.counter;
    WM_set(elementIds, el, id);
    return id;
  }

  function selectsOnly(sel, el) {
    try {
      const l = Doc_qsa(doc(), sel);
      return l.length === 1 && l[0] === el;
    } catch (_) { return false; }
  }

  function attrSelector(name, value) { return '[' + name + '="' + CSS_escape(value) + '"]'; }

  /** `tag`, with `:nth-of-type(i)` when the parent has several children of that tag. */
  function typeSegment(cur) {
    const tag = cur.localName;
    let seg = CSS_escape(tag);
    const parent = cur.parentElement;
    if (parent) {
      let idx = 0;
      let count = 0;
      for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
        if (c.localName === tag) {
          count++;
          if (c === cur) idx = count;
        }
      }
      if (count > 1) seg += ':nth-of-type(' + idx + ')';
    }
    return seg;
  }

  function cssPath(el) {
    let path = '';
    let cur = el;
    while (cur && cur.nodeType === 1) {
      if (cur !== el && cur.id && selectsOnly('#' + CSS_escape(cur.id), cur)) {
        return '#' + CSS_escape(cur.id) + ' > ' + path;
      }
      const seg = typeSegment(cur);
      path = path ? seg + ' > ' + path : seg;
      const parent = cur.parentElement;
      if (!parent) break;
      cur = parent;
    }
    return path;
  }

  function uniqueSelector(el) {
    const tag = el.localName;
    const tagSel = CSS_escape(tag);
    const id = el.id;
    if (id) {
      const s = '#' + CSS_escape(id);
      if (selectsOnly(s, el)) return s;
    }
    const name = El_getAttribute(el, 'name');
    if (name) {
      const s = tagSel + attrSelector('name', name);
      if (selectsOnly(s, el)) return s;
    }
    for (let i = 0; i < TEST_ID_ATTRS.length; i++) {
      const v = El_getAttribute(el, TEST_ID_ATTRS[i]);
      if (v) {
        const s = attrSelector(TEST_ID_ATTRS[i], v);
        if (selectsOnly(s, el)) return s;
      }
    }
    const al = El_getAttribute(el, 'aria-label');
    if (al) {
      const s = tagSel + attrSelector('aria-label', al);
      if (selectsOnly(s, el)) return s;
    }
    if (tag === 'a') {
      const href = El_getAttribute(el, 'href');
      if (href) {
        const s = 'a' + attrSelector('href', href);
        if (selectsOnly(s, el)) return s;
      }
    }
    return cssPath(el);
  }

  function visibleTextOf(el) {
    if (el.localName === 'select') {
      const so = el.selectedOptions;
      return so && so.length ? norm(so[0].label || so[0].text) : '';
    }
    return norm(innerTextOf(el));
  }

  function snapshotEntry(el) {
    const tag = el.localName;
    const rect = rectOf(el);
    const e = {
      id: elementId(el),
      tag: tag,
      role: roleOf(el) || '',
      name: truncate(accName(el), 200),
      text: truncate(visibleTextOf(el), 80),
      rect: { x: round1(rect.x), y: round1(rect.y), width: round1(rect.width), height: round1(rect.height) },
      selector: uniqueSelector(el),
    };
    if (tag === 'input') {
      const t = inputType(el);
      e.type = t;
      if (t === 'checkbox' || t === 'radio') e.checked = !!el.checked;
      else if (t !== 'password') e.value = truncate(el.value || '', 200);
    } else if (tag === 'button') {
      e.type = lower(El_getAttribute(el, 'type')) || 'submit';
    } else if (tag === 'textarea' || tag === 'select') {
      e.value = truncate(el.value || '', 200);
    }
    if (e.checked === undefined) {
      const ac = El_getAttribute(el, 'aria-checked');
      if (ac !== null) e.checked = lower(ac) === 'true';
    }
    const ph = El_getAttribute(el, 'placeholder');
    if (ph) e.placeholder = ph;
    if (tag === 'a' || tag === 'area') {
      const h = el.href;
      if (typeof h === 'string' && h) e.href = h;
    }
    if (isDisabled(el)) e.disabled = true;
    const dialog = El_closest(el, DIALOG_SELECTOR);
    if (dialog) e.dialog = truncate(accName(dialog), 80) || 'dialog';
    return e;
  }

  function snapshot(maxTextChars) {
    const d = doc();
    const max = typeof maxTextChars === 'number' && maxTextChars >= 0 ? maxTextChars : 20000;
    const text = pageText(newCtx());
    const elements = [];
    let truncated = false;
    const list = d.documentElement ? Doc_qsa(d, SNAPSHOT_SELECTOR) : [];
    for (let i = 0; i < list.length; i++) {
      const el = list[i];
      if (!El_matches(el, SNAPSHOT_CORE)) {
        // Matched only via [contenteditable] or [tabindex].
        if (El_hasAttribute(el, 'contenteditable')) {
          if (!el.isContentEditable) continue;
        } else if (el.tabIndex < 0) continue;
      }
      if (el.localName === 'input' && inputType(el) === 'hidden') continue;
      if (!isVisible(el)) continue;
      if (elements.length >= MAX_SNAPSHOT_ELEMENTS) { truncated = true; break; }
      push(elements, snapshotEntry(el));
    }
    const out = {
      url: _String(W.location.href),
      title: _String(d.title || ''),
      text: text.length > max ? S_slice(text, 0, max) : text,
      elements: elements,
    };
    if (truncated) out.truncated = true;
    return out;
  }

  // ---------------------------------------------------------------------------
  // 8. describe
  // ---------------------------------------------------------------------------
  function describe(target) {
    const res = resolveTarget(target);
    if (res.invalid) return { ok: false, count: 0, message: res.message };
    let visible = 0;
    for (let i = 0; i < res.list.length; i++) if (res.visibleOnly || isVisible(res.list[i])) visible++;
    const out = { ok: true, count: res.list.length, visibleCount: visible };
    const el = pickTarget(res, target);
    if (el) out.description = describeEl(el);
    return out;
  }

  // ---------------------------------------------------------------------------
  // 9. alternatives (self-healing locators)
  // ---------------------------------------------------------------------------
  // When an action succeeds, the engine records other ways to find the same element, so a
  // later run whose own target finds nothing can try them. Order = expected survival of a
  // redesign: test ids (kept for tests on purpose), role + accessible name (what users see
  // and assistive tech relies on), a hand-written id, the form `name` (what the server
  // reads), descriptive attributes, visible text, and last the position in the tree.
  // A candidate is kept only if this library's own resolution picks exactly this element.
  const MAX_ALTERNATIVES = 6;
  const MAX_ALTERNATIVE_TEXT = 50;
  const DESCRIPTIVE_ATTRS = ['aria-label', 'placeholder', 'title'];
  const ID_TOKEN_RE = /[^-_:.\s]+/g;
  const HEX_RE = /^[0-9a-f]{6,}$/i;
  const DIGIT_RE = /\d/;
  const DIGIT_RUN_RE = /\d{3,}/;
  // option-3, row_12: numbered by position in a list, so they follow the order, not the element.
  const POSITION_ID_RE = /[-_]\d+$/;
  // React's useId (:r0:, «r1»), Ember, ExtJS, YUI, MUI, Headless UI, Radix, react-select,
  // Downshift, Angular Material/CDK, rc-components: ids made per render, not per page.
  const FRAMEWORK_ID_RE = /^(?:[:«]|ember\d|ext-(?:gen|comp)|yui_|mui-|headlessui-|radix-|react-select-|downshift-|mat-|cdk-|rc_|__)/i;
  const CSS_STRING_SPECIAL = /["\\\n]/g;

  /** Ids that a framework, a counter or a list position made up: they change between builds, visits or orders. */
  function looksGenerated(id) {
    if (RE_exec(DIGIT_RUN_RE, id) !== null || RE_exec(FRAMEWORK_ID_RE, id) !== null) return true;
    if (RE_exec(POSITION_ID_RE, id) !== null) return true;
    ID_TOKEN_RE.lastIndex = 0;
    let m;
    while ((m = RE_exec(ID_TOKEN_RE, id)) !== null) {
      if (RE_exec(HEX_RE, m[0]) !== null && RE_exec(DIGIT_RE, m[0]) !== null) return true;
    }
    return false;
  }

  function hasStableId(el) {
    const id = el.id;
    return typeof id === 'string' && id !== '' && !looksGenerated(id) && selectsOnly('#' + CSS_escape(id), el);
  }

  /** A CSS string literal; only quotes, backslashes and newlines need escaping, so it stays readable. */
  function cssString(v) {
    return '"' + RE_replace(CSS_STRING_SPECIAL, v, function (c) { return c === '\n' ? '\\a ' : '\\' + c; }) + '"';
  }

  /** Position in the tree: a nth-of-type chain from the nearest ancestor with a stable id, else from body. */
  function positionPath(el) {
    let path = '';
    for (let cur = el; cur && cur.nodeType === 1; cur = cur.parentElement) {
      if (cur !== el && hasStableId(cur)) return '#' + CSS_escape(cur.id) + ' > ' + path;
      if (cur.localName === 'body' || !cur.parentElement) return cur.localName + (path ? ' > ' + path : '');
      const seg = typeSegment(cur);
      path = path ? seg + ' > ' + path : seg;
    }
    return path;
  }

  /** The text a text target would match: visible text, or the value of an input button. */
  function altText(el) {
    const tag = el.localName;
    if (tag === 'input') {
      const t = inputType(el);
      return t === 'button' || t === 'submit' || t === 'reset' ? norm(el.value || '') : '';
    }
    if (tag === 'textarea' || tag === 'select') return '';
    return norm(innerTextOf(el));
  }

  /** Compares targets as the library resolves them (normalised text, role case). */
  function targetKey(t) {
    if (!t || typeof t !== 'object') return '';
    const nth = typeof t.nth === 'number' ? _String(t.nth) : '';
    if (typeof t.css === 'string') return 'css\u0000' + t.css + '\u0000' + nth;
    if (typeof t.xpath === 'string') return 'xpath\u0000' + t.xpath + '\u0000' + nth;
    if (typeof t.text === 'string') return 'text\u0000' + norm(t.text) + '\u0000' + nth;
    if (typeof t.role === 'string') {
      const name = typeof t.name === 'string' ? norm(t.name) : '';
      return 'role\u0000' + lower(S_trim(t.role)) + '\u0000' + name + '\u0000' + nth;
    }
    return '';
  }

  /** `candidate` as it designates exactly `el` (with nth when several elements match), or null. */
  function designating(candidate, el) {
    const res = resolveTarget(candidate);
    if (res.invalid) return null;
    const list = res.list;
    let index = -1;
    for (let i = 0; i < list.length; i++) if (list[i] === el) { index = i; break; }
    if (index < 0) return null;
    if (list.length > 1) candidate.nth = index;
    return pickTarget(res, candidate) === el ? candidate : null;
  }

  const CONTEXT_LABELS = 'h1, h2, h3, h4, h5, h6, [role=heading], legend, caption, label';
  const MAX_CONTEXT_DEPTH = 6;

  /** An XPath string literal, or null for text holding both kinds of quote. */
  function xpathLiteral(v) {
    if (S_indexOf(v, "'") < 0) return "'" + v + "'";
    if (S_indexOf(v, '"') < 0) return '"' + v + '"';
    return null;
  }

  /**
   * For an element among look-alikes (the "Add to cart" of every result card): an XPath that
   * names it by the heading or label of the nearest container holding only it, so it finds
   * the same card wherever the cards are sorted, where `nth` would follow the position.
   */
  function contextualXPath(el) {
    const own = altText(el);
    const ownLit = own && own.length <= MAX_ALTERNATIVE_TEXT ? xpathLiteral(own) : null;
    if (!ownLit) return null;
    const self = '//' + el.localName + '[normalize-space()=' + ownLit + ']';
    let cur = el.parentElement;
    for (let depth = 0; cur && cur.localName !== 'body' && depth < MAX_CONTEXT_DEPTH; depth++, cur = cur.parentElement) {
      const labels = El_qsa(cur, CONTEXT_LABELS);
      for (let i = 0; i < labels.length; i++) {
        const label = labels[i];
        if (Node_contains(label, el)) continue;
        const text = norm(innerTextOf(label));
        const lit = text && text.length <= MAX_ALTERNATIVE_TEXT ? xpathLiteral(text) : null;
        if (!lit) continue;
        const xpath = '//' + cur.localName + '[.//' + label.localName + '[normalize-space()=' + lit + ']]' + self;
        const res = resolveTarget({ xpath: xpath });
        if (!res.invalid && res.list.length === 1 && res.list[0] === el) return xpath;
      }
    }
    return null;
  }

  const SCRIPT_URL = /^\s*javascript:/i;

  function alternativesFor(el, original) {
    const out = [];
    const seen = new _Set();
    Set_add(seen, targetKey(original));
    // The last slot is kept for the position path, a different kind of evidence.
    const offer = function (candidate, limit) {
      if (out.length >= limit) return;
      const t = designating(candidate, el);
      if (!t) return;
      const key = targetKey(t);
      if (Set_has(seen, key)) return;
      Set_add(seen, key);
      push(out, t);
    };
    const early = MAX_ALTERNATIVES - 1;
    const tag = CSS_escape(el.localName);
    for (let i = 0; i < TEST_ID_ATTRS.length; i++) {
      const v = El_getAttribute(el, TEST_ID_ATTRS[i]);
      if (v) offer({ css: '[' + TEST_ID_ATTRS[i] + '=' + cssString(v) + ']' }, early);
    }
    const role = roleOf(el);
    if (role && out.length < early) {
      const name = accName(el);
      if (name) {
        offer({ role: role, name: name }, early);
        // Ambiguous by role and name: say which one by its context, before any position.
        const last = out[out.length - 1];
        if (last && typeof last.nth === 'number' && out.length < early) {
          const xpath = contextualXPath(el);
          if (xpath) {
            out[out.length - 1] = { xpath: xpath };
            push(out, last);
            Set_add(seen, targetKey({ xpath: xpath }));
          }
        }
      }
    }
    if (hasStableId(el)) offer({ css: '#' + CSS_escape(el.id) }, early);
    const formName = El_getAttribute(el, 'name');
    if (formName) offer({ css: tag + '[name=' + cssString(formName) + ']' }, early);
    for (let i = 0; i < DESCRIPTIVE_ATTRS.length; i++) {
      const v = El_getAttribute(el, DESCRIPTIVE_ATTRS[i]);
      if (v && norm(v)) offer({ css: tag + '[' + DESCRIPTIVE_ATTRS[i] + '=' + cssString(v) + ']' }, early);
    }
    // Where a link goes says which link it is, whatever it is called or styled like.
    const href = tag === 'a' ? El_getAttribute(el, 'href') : null;
    if (href && href !== '#' && RE_exec(SCRIPT_URL, href) === null) offer({ css: 'a[href=' + cssString(href) + ']' }, early);
    if (out.length < early) {
      const text = altText(el);
      if (text && text.length <= MAX_ALTERNATIVE_TEXT) offer({ text: text }, early);
    }
    offer({ css: positionPath(el) }, MAX_ALTERNATIVES);
    return out;
  }

  /** Alternatives are a bonus: a page that breaks their computation must not fail the action. */
  function alternativesSafely(el, original) {
    try { return alternativesFor(el, original); } catch (_) { return []; }
  }


  // ---------------------------------------------------------------------------
  // 10. record: what a person does, for `statewright record`
  // ---------------------------------------------------------------------------
  // Each report is one JSON string: the act (click, type, select, key, scroll), the page as
  // it was when the act began (snapshotted in the capture phase, before the page's own
  // handlers run), and the ways to find the element acted on, most stable first. Typing is
  // reported once per field, when the person leaves it or does something else. A password
  // field's value never leaves the page: only that it was typed into. Only trusted events
  // (a person's, or input sent over the DevTools protocol) are reported.
  const TEXT_INPUT_TYPES = makeSet('text search email url tel password number date time datetime-local month week');
  const RECORDED_KEYS = makeSet('Enter Escape Tab ArrowUp ArrowDown PageUp PageDown');
  const SCROLL_SETTLE_MS = 400;
  const MIN_RECORDED_SCROLL = 200;
  let recorder = null;

  function isTextField(el) {
    if (!el || el.nodeType !== 1) return false;
    const tag = el.localName;
    if (tag === 'textarea') return true;
    if (tag === 'input') return TEXT_INPUT_TYPES[inputType(el)] === true;
    return el.isContentEditable === true;
  }

  function eventTarget(e) {
    const path = typeof e.composedPath === 'function' ? e.composedPath() : null;
    const t = path && path.length ? path[0] : e.target;
    return t && t.nodeType === 1 ? t : t && t.parentElement ? t.parentElement : null;
  }

  function located(el) {
    const alternatives = alternativesSafely(el, null);
    const out = {
      target: alternatives.length ? alternatives[0] : { css: uniqueSelector(el) },
      alternatives: alternatives,
      description: describeEl(el),
    };
    const dialog = El_closest(el, DIALOG_SELECTOR);
    if (dialog) out.dialog = truncate(accName(dialog), 80) || 'dialog';
    return out;
  }

  function report(msg) {
    try { recorder.send(JSON_stringify(msg)); } catch (_) { /* the recorder went away */ }
  }

  function flushTyping() {
    const t = recorder.typing;
    if (!t) return;
    recorder.typing = null;
    const secret = t.el.localName === 'input' && inputType(t.el) === 'password';
    const value = t.el.isContentEditable ? norm(innerTextOf(t.el)) : _String(t.el.value || '');
    const msg = { kind: 'type', page: t.page, secret: secret, text: secret ? '' : value };
    const loc = t.loc;
    msg.target = loc.target; msg.alternatives = loc.alternatives; msg.description = loc.description;
    if (loc.dialog) msg.dialog = loc.dialog;
    report(msg);
  }

  function act(kind, el, extra) {
    flushScroll();
    flushTyping();
    const msg = { kind: kind, page: snapshot(20000) };
    if (el) {
      const loc = located(el);
      msg.target = loc.target; msg.alternatives = loc.alternatives; msg.description = loc.description;
      if (loc.dialog) msg.dialog = loc.dialog;
    }
    for (const k in extra) msg[k] = extra[k];
    report(msg);
  }

  function onClick(e) {
    if (!e.isTrusted) return;
    const raw = eventTarget(e);
    if (!raw) return;
    const el = retargetInteractive(raw, '');
    // Focusing a field is not an act: what is typed into it is. A label passes its click on
    // to its control, which is reported then.
    if (isTextField(el) || el.localName === 'select') return;
    if (el.localName === 'label' && el.control) return;
    act('click', el, { button: e.button === 2 ? 'right' : e.button === 1 ? 'middle' : 'left', count: e.detail >= 2 ? 2 : 1 });
  }

  function onInput(e) {
    if (!e.isTrusted) return;
    const el = eventTarget(e);
    if (!isTextField(el)) return;
    if (recorder.typing && recorder.typing.el === el) return;
    flushScroll();
    flushTyping();
    recorder.typing = { el: el, page: snapshot(20000), loc: located(el) };
  }

  function onChange(e) {
    const el = eventTarget(e);
    if (!el || el.localName !== 'select') return;
    const opt = el.selectedIndex >= 0 ? el.options[el.selectedIndex] : null;
    act('select', el, { value: _String(el.value), label: opt ? norm(opt.text) : '' });
  }

  function onKeyDown(e) {
    if (!e.isTrusted || e.isComposing) return;
    const combo = (e.ctrlKey || e.metaKey) && !isTextField(eventTarget(e));
    if (RECORDED_KEYS[e.key] !== true && !combo) return;
    if (e.key === 'Control' || e.key === 'Meta' || e.key === 'Shift' || e.key === 'Alt') return;
    let key = e.key;
    if (e.shiftKey && key.length > 1) key = 'Shift+' + key;
    if (e.altKey) key = 'Alt+' + key;
    if (e.metaKey) key = 'Meta+' + key;
    if (e.ctrlKey) key = 'Control+' + key;
    act('key', null, { key: key });
  }

  function flushScroll() {
    const s = recorder.scroll;
    if (!s) return;
    recorder.scroll = null;
    cancel(s.timer);
    const dy = M_round(W.scrollY - s.fromY);
    if (dy >= MIN_RECORDED_SCROLL || dy <= -MIN_RECORDED_SCROLL) report({ kind: 'scroll', page: s.page, dy: dy });
  }

  function onScroll(e) {
    if (e.target !== doc() && e.target !== W) return;
    if (!recorder.scroll) recorder.scroll = { fromY: recorder.lastY, page: snapshot(20000), timer: null };
    cancel(recorder.scroll.timer);
    recorder.scroll.timer = later(function () { flushScroll(); recorder.lastY = W.scrollY; }, SCROLL_SETTLE_MS);
  }

  function record(binding) {
    if (recorder) return true;
    const send = W[binding];
    if (typeof send !== 'function') return false;
    recorder = { send: send, typing: null, scroll: null, lastY: W.scrollY };
    ET_add(W, 'click', onClick, true);
    ET_add(W, 'input', onInput, true);
    ET_add(W, 'change', onChange, true);
    ET_add(W, 'keydown', onKeyDown, true);
    ET_add(W, 'scroll', onScroll, true);
    ET_add(W, 'focusout', function (e) { if (recorder.typing && eventTarget(e) === recorder.typing.el) flushTyping(); }, true);
    ET_add(W, 'pagehide', function () { flushTyping(); flushScroll(); }, true);
    return true;
  }

  // ---------------------------------------------------------------------------
  // Install
  // ---------------------------------------------------------------------------
  const api = O_freeze({
    version: 1,
    signals: signals,
    waitForChange: waitForChange,
    actionable: actionable,
    extract: extract,
    prepareTyping: prepareTyping,
    selectOption: selectOption,
    scrollBy: scrollBy,
    scrollIntoView: scrollIntoView,
    snapshot: snapshot,
    locate: locate,
    describe: describe,
    record: record,
  });
  O_defineProperty(W, '__statewright', { value: api, writable: false, enumerable: false, configurable: true });
})();
