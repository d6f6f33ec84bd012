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
  // A locator longer than this (a data: link, a title or test id holding a payload, a name
  // that is a whole essay, a path thousands of levels deep) is no locator a person would
  // keep, and every run that acts on its element would store it several times over.
  const MAX_ALTERNATIVE_CHARS = 1000;
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

  function tooLong(t) {
    const v = typeof t.css === 'string' ? t.css : typeof t.xpath === 'string' ? t.xpath
      : typeof t.text === 'string' ? t.text : typeof t.name === 'string' ? t.name : '';
    return v.length > MAX_ALTERNATIVE_CHARS;
  }

  /** `candidate` as it designates exactly `el` (with nth when several elements match), or null. */
  function designating(candidate, el) {
    if (tooLong(candidate)) return null;
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
    try { return memoized(function () { return alternativesFor(el, original); }); } catch (_) { return []; }
  }


