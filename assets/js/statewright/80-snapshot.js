  // ---------------------------------------------------------------------------
  // 7. snapshot
  // ---------------------------------------------------------------------------
  const SNAPSHOT_SELECTOR =
    'a[href], button, input, select, textarea, summary, ' +
    '[role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], ' +
    '[role=combobox], [role=textbox], [role=switch], [role=slider], [role=spinbutton], [role=searchbox], ' +
    '[role=menuitemcheckbox], [role=menuitemradio], [role=treeitem], [draggable=true], ' +
    '[onclick], [contenteditable], [tabindex]';
  const SNAPSHOT_CORE =
    'a[href], button, input, select, textarea, summary, ' +
    '[role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], ' +
    '[role=combobox], [role=textbox], [role=switch], [role=slider], [role=spinbutton], [role=searchbox], ' +
    '[role=menuitemcheckbox], [role=menuitemradio], [role=treeitem], [draggable=true], [onclick]';
  // A modal or dialog: what is inside it is an overlay of the page, not the page.
  const DIALOG_SELECTOR = 'dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]';
  const TEST_ID_ATTRS = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];
  const MAX_SNAPSHOT_ELEMENTS = 500;
  // How long the element list may take: on a page of tens of thousands of elements each
  // entry's unique selector costs a query of the whole DOM. The page text is always whole.
  const SNAPSHOT_BUDGET_MS = 1500;

  const docStates = new _WeakMap();
  const elementIds = new _WeakMap();

  function elementId(el) {
    let id = WM_get(elementIds, el);
    if (id) return id;
    // Counted per top document, frames included: an id names one element of the page.
    const d = doc();
    let st = WM_get(docStates, d);
    if (!st) { st = { counter: 0 }; WM_set(docStates, d, st); }
    st.counter++;
    id = 'e' + st.counter;
    WM_set(elementIds, el, id);
    return id;
  }

  /** The selector finds `el` and nothing else, frames included (as targets resolve). */
  function selectsOnly(sel, el) {
    try {
      const l = queryCss(sel);
      return l.length === 1 && l[0] === el;
    } catch (_) { return false; }
  }

  function attrSelector(name, value) { return '[' + name + '="' + CSS_escape(value) + '"]'; }

  /** `tag`, with `:nth-of-type(i)` when the parent has several children of that tag. */
  function typeSegment(cur) {
    const tag = cur.localName;
    let seg = CSS_escape(tag);
    if (cur.parentElement) {
      // Its index among the siblings before it; whether another follows only when it is the
      // first (a row of a list of thousands costs its position, not the list's length).
      let idx = 1;
      for (let c = cur.previousElementSibling; c; c = c.previousElementSibling) if (c.localName === tag) idx++;
      let several = idx > 1;
      for (let c = cur.nextElementSibling; c && !several; c = c.nextElementSibling) if (c.localName === tag) several = true;
      if (several) seg += ':nth-of-type(' + idx + ')';
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
    // The same component twice has the same path inside each root: the host's path tells
    // them apart (a descendant combinator crosses into shadow roots, see queryCss).
    const host = hostOf(cur);
    if (host && !selectsOnly(path, el)) return cssPath(host) + ' ' + path;
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
    if (e.value === undefined) {
      // A slider's or a spin button's value, as assistive technology reads it.
      const now = El_getAttribute(el, 'aria-valuetext') || El_getAttribute(el, 'aria-valuenow');
      if (now !== null && now !== '') e.value = truncate(now, 200);
    }
    if (lower(El_getAttribute(el, 'draggable') || '') === 'true') e.draggable = true;
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

  /** The page's text and its interactive elements, the first 500 visible ones in document
   *  order or as many as SNAPSHOT_BUDGET_MS (opts.budgetMs) allows; when the list stops
   *  early, `truncated` is true and `unexamined` counts the candidates not looked at. */
  function snapshot(maxTextChars, opts) { return memoized(function () { return snapshotNow(maxTextChars, opts); }); }

  function snapshotNow(maxTextChars, opts) {
    const d = doc();
    const max = typeof maxTextChars === 'number' && maxTextChars >= 0 ? maxTextChars : 20000;
    const text = pageText(newCtx());
    const budget = opts && typeof opts.budgetMs === 'number' && opts.budgetMs >= 0 ? opts.budgetMs : SNAPSHOT_BUDGET_MS;
    const deadline = now() + budget;
    const elements = [];
    let truncated = false;
    let unexamined = 0;
    const list = queryCss(SNAPSHOT_SELECTOR);
    for (let i = 0; i < list.length; i++) {
      if (now() > deadline) { truncated = true; unexamined = list.length - i; break; }
      const el = list[i];
      if (!El_matches(el, SNAPSHOT_CORE)) {
        // Matched only via [contenteditable] or [tabindex].
        if (El_hasAttribute(el, 'contenteditable')) {
          if (!el.isContentEditable) continue;
        } else if (el.tabIndex < 0) continue;
      }
      if (el.localName === 'input' && inputType(el) === 'hidden') continue;
      if (!isVisible(el)) continue;
      if (elements.length >= MAX_SNAPSHOT_ELEMENTS) { truncated = true; unexamined = list.length - i; break; }
      push(elements, snapshotEntry(el));
    }
    const out = {
      url: _String(W.location.href),
      title: _String(d.title || ''),
      text: text.length > max ? S_slice(text, 0, max) : text,
      elements: elements,
    };
    if (truncated) { out.truncated = true; out.unexamined = unexamined; }
    return out;
  }

  /** The document's markup, as `save_html` keeps it (answered well-formed, as every answer). */
  function html() {
    const de = doc().documentElement;
    return de ? de.outerHTML : '';
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

