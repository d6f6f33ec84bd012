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
    const d = el.ownerDocument || doc();
    const sel = Doc_getSelection(d);
    if (!sel) return;
    const r = Doc_createRange(d);
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
    const whole = isInput && VALUE_INPUT[inputType(el)] === true;
    return { ok: true, description: describeEl(el), whole: whole };
  }

  /** What the focused field holds (a text box's or a textarea's value, an editable
   *  element's text), null when no field has the focus: the engine types a few keys and
   *  looks whether they went in as text, or whether the page takes keys itself. */
  function typedValue() {
    const el = deepActiveElement();
    return { ok: true, value: el ? fieldValue(el) : null };
  }

  /** How the browser's locale writes 27 November 2026 in a date field, and the order of the
   *  parts there (['month', 'day', 'year'] in en-US, which launched browsers use); null
   *  where the locale cannot say. */
  const SHOWN_DATE = (function () {
    try {
      const f = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: '2-digit', day: '2-digit' });
      const parts = f.formatToParts(new Date(2026, 10, 27));
      const order = [];
      for (let i = 0; i < parts.length; i++) {
        const t = parts[i].type;
        if (t === 'year' || t === 'month' || t === 'day') push(order, t);
      }
      return order.length === 3 ? { example: f.format(new Date(2026, 10, 27)), order: order } : null;
    } catch (_) { return null; }
  })();
  const SHOWN_DATE_RE = /^(\d{1,4})[/.-] ?(\d{1,4})[/.-] ?(\d{1,4})\.?$/;

  /** A date written as the field shows one (11/27/2026 in en-US), as the field's value
   *  (2026-11-27); null when it is not one: a person types it so, the parts in the locale's
   *  order, and a page's own text gives it so. The browser still refuses a day that is not. */
  function shownDate(text) {
    const m = SHOWN_DATE ? RE_exec(SHOWN_DATE_RE, text) : null;
    if (!m) return null;
    const part = {};
    for (let i = 0; i < 3; i++) part[SHOWN_DATE.order[i]] = m[i + 1];
    if (part.year.length !== 4 || part.month.length > 2 || part.day.length > 2) return null;
    const two = function (d) { return d.length === 1 ? '0' + d : d; };
    return part.year + '-' + two(part.month) + '-' + two(part.day);
  }

  // \s: Chromium's own 12-hour times part the hour and AM or PM with a narrow no-break space.
  const SHOWN_TIME_RE = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp])\.?\s*[Mm]\.?$/;

  /** A time written on a 12-hour clock (2:35 PM, as en-US shows one and a page's
   *  toLocaleTimeString writes it), as the field's value (14:35); null when it is not one.
   *  It says which half of the day it is, so it reads the same in every locale. */
  function shownTime(text) {
    const m = RE_exec(SHOWN_TIME_RE, text);
    if (!m) return null;
    const h = _parseInt(m[1], 10);
    if (h < 1 || h > 12) return null;
    const h24 = (h % 12) + (lower(m[4]) === 'p' ? 12 : 0);
    return (h24 < 10 ? '0' : '') + h24 + ':' + m[2] + (m[3] !== undefined ? ':' + m[3] : '');
  }

  const VALUE_FORMAT = {
    date: 'a date as 2026-11-27' + (SHOWN_DATE ? ' or as it shows one, ' + SHOWN_DATE.example : ''), time: 'a time as 14:30 or 2:30 PM', 'datetime-local': 'a date and time as 2026-11-27T14:30',
    month: 'a month as 2026-11', week: 'a week as 2026-W48', color: 'a colour as #1e90ff', range: 'a number within its range',
  };

  /**
   * Gives a date, time, colour or range field its value whole, as its picker does, with the
   * input and change events the picker sends: keys would reach one part of a date at a time,
   * in the order of the browser's locale, and a colour or a range takes none. A value the
   * field does not take (the browser empties it, or a range moves elsewhere) is an error
   * that says what it takes, and the field keeps what it had.
   */
  function setValue(target, text) {
    const r = resolveOne(target);
    if (r.error) return { ok: false, message: r.error };
    const el = controlOf(r.el);
    const t = inputType(el);
    if (el.localName !== 'input' || VALUE_INPUT[t] !== true) return { ok: false, message: describeEl(el) + ' takes typing' };
    let v = S_trim(_String(text));
    const before = el.value;
    In_setValue(el, v);
    const shown = el.value !== '' || v === '' ? null : t === 'date' ? shownDate(v) : t === 'time' ? shownTime(v) : null;
    if (shown) {
      v = shown;
      In_setValue(el, v);
    }
    // A date the browser cannot read is emptied; a colour or a range is set to another value.
    const taken = t === 'range' ? _parseFloat(el.value) === _parseFloat(v)
      : t === 'color' ? lower(el.value) === lower(v) : el.value !== '' || v === '';
    if (!taken) {
      In_setValue(el, before);
      return { ok: false, message: describeEl(el) + ' takes ' + VALUE_FORMAT[t] + ': the text given is not one' };
    }
    ET_dispatch(el, new _Event('input', { bubbles: true, composed: true }));
    ET_dispatch(el, new _Event('change', { bubbles: true }));
    return { ok: true, value: el.value };
  }

  // ---------------------------------------------------------------------------
  // 4b. File fields
  // ---------------------------------------------------------------------------
  /** The file field `el` stands for: itself, or its label's control; else null. */
  function fileInputOf(el) {
    const c = controlOf(el);
    return c && c.localName === 'input' && inputType(c) === 'file' ? c : null;
  }

  /** The file field `target` designates, as a node for the engine to give files to (it
   *  reads the node by reference, not as JSON); null when it is not one. */
  function fileInput(target) {
    const r = resolveOne(target);
    return r.error ? null : fileInputOf(r.el);
  }

  // ---------------------------------------------------------------------------
  // 5. selectOption
  // ---------------------------------------------------------------------------
  /** The option `value` or `label` names: exactly as given; else the one whose label (for a
   *  value) or value (for a label) is that, as Playwright reads one string as either; else
   *  the only one whose label or value is that in another case. */
  function optionFor(options, byValue, byLabel) {
    const wanted = byValue !== null ? byValue : byLabel;
    const valueIs = function (o) { return o.value === wanted; };
    const labelIs = function (o) { return norm(o.label) === norm(wanted) || norm(o.text) === norm(wanted); };
    const tiers = byValue !== null ? [valueIs, labelIs] : [labelIs, valueIs];
    for (let t = 0; t < tiers.length; t++) {
      for (let i = 0; i < options.length; i++) if (tiers[t](options[i])) return options[i];
    }
    const lw = lower(norm(wanted));
    let only = null;
    for (let i = 0; i < options.length; i++) {
      const o = options[i];
      if (lower(norm(o.label)) !== lw && lower(norm(o.text)) !== lw && lower(o.value) !== lw) continue;
      if (only) return null;
      only = o;
    }
    return only;
  }

  /** The entries `given` names: one string, or a list of strings; null for anything else. */
  function choiceEntries(given) {
    if (typeof given === 'string') return [given];
    if (!A_isArray(given)) return null;
    for (let i = 0; i < given.length; i++) if (typeof given[i] !== 'string') return null;
    return given;
  }

  /** The first options of `el`, quoted, for a message: at most 10 and how many there are. */
  function availableOptions(options) {
    let avail = '';
    const n = M_min(options.length, 10);
    for (let i = 0; i < n; i++) avail += (i ? ', ' : '') + '"' + norm(options[i].label || options[i].text) + '"';
    if (options.length > n) avail += ', \u2026 (' + options.length + ' options)';
    return avail || '(none)';
  }

  /** Chooses the options `choice.value` or `choice.label` names (one string, or a list: then
   *  exactly those of a `<select multiple>`, every other one deselected, as Playwright's
   *  selectOption([...])), firing input and change once. A list answers with lists. */
  function selectOption(target, choice) {
    const r = resolveOne(target);
    if (r.error) return { ok: false, message: r.error };
    const el = controlOf(r.el);
    if (el.localName !== 'select') return { ok: false, reason: 'not_a_select', message: describeEl(el) + ' is not a <select> element' };
    if (isDisabled(el)) return { ok: false, message: describeEl(el) + ' is disabled' };
    choice = choice && typeof choice === 'object' ? choice : {};
    const byValue = choice.value !== undefined && choice.value !== null;
    const wanted = choiceEntries(byValue ? choice.value : choice.label);
    if (!wanted || !wanted.length) return { ok: false, message: 'selectOption needs a value or a label' };
    const several = typeof (byValue ? choice.value : choice.label) !== 'string';
    if (wanted.length > 1 && !el.multiple) {
      let listed = '';
      for (let w = 0; w < wanted.length; w++) listed += (w ? ', ' : '') + '"' + wanted[w] + '"';
      return { ok: false, message: describeEl(el) + ' takes one option, not ' + wanted.length + ' (' + listed + '): it is no <select multiple>' };
    }
    const options = el.options;
    // Each option once, in the order the entries name them.
    const found = [];
    const chosen = new _Set();
    for (let w = 0; w < wanted.length; w++) {
      const entry = byValue ? wanted[w] : norm(wanted[w]);
      const o = optionFor(options, byValue ? entry : null, byValue ? null : entry);
      if (!o) {
        const what = byValue ? 'value "' + entry + '"' : 'label "' + entry + '"';
        return { ok: false, message: 'no option with ' + what + ' in ' + describeEl(el) + '; available: ' + availableOptions(options) };
      }
      if (o.disabled || isDisabled(o)) return { ok: false, message: 'option "' + norm(o.label) + '" is disabled' };
      if (!Set_has(chosen, o)) found[found.length] = o;
      Set_add(chosen, o);
    }
    if (el.multiple) {
      for (let i = 0; i < options.length; i++) options[i].selected = Set_has(chosen, options[i]);
    } else {
      found[0].selected = true;
    }
    ET_dispatch(el, new _Event('input', { bubbles: true, composed: true }));
    ET_dispatch(el, new _Event('change', { bubbles: true }));
    if (!several) return { ok: true, selected: found[0].value, label: norm(found[0].label || found[0].text) };
    const values = [];
    const labels = [];
    for (let i = 0; i < found.length; i++) {
      values[i] = found[i].value;
      labels[i] = norm(found[i].label || found[i].text);
    }
    return { ok: true, selected: values, label: labels };
  }

  // ---------------------------------------------------------------------------
  // 5b. check
  // ---------------------------------------------------------------------------
  const CHECKABLE_ROLES = makeSet('checkbox radio switch menuitemcheckbox menuitemradio');

  /** A control with a checked state: a native checkbox or radio button, or an element of a
   *  checkable role. */
  function isCheckable(el) {
    if (!el || el.nodeType !== 1) return false;
    if (el.localName === 'input') {
      const t = inputType(el);
      return t === 'checkbox' || t === 'radio';
    }
    return CHECKABLE_ROLES[roleOf(el)] === true;
  }

  /** The control `el` stands for: itself, its label's control, or the one control it holds
   *  (a to-do item, a styled switch around its input); else null. */
  function checkableOf(el) {
    if (isCheckable(el)) return el;
    const c = controlOf(el);
    if (c !== el) return isCheckable(c) ? c : null;
    let found = null;
    const list = El_qsa(el, 'input, [role]');
    for (let i = 0; i < list.length; i++) {
      if (!isCheckable(list[i])) continue;
      if (found) return null;
      found = list[i];
    }
    return found;
  }

  /** What a person clicks to change the control `el` stands for: a label of it they
   *  targeted, else the control, unless it is hidden or covered and a label of it shows
   *  (styled pages hide the input and draw the box in its label); `el` itself when it
   *  stands for no control. */
  function pressableFor(el) {
    const c = checkableOf(el);
    if (!c) return el;
    if (el !== c && el.localName === 'label' && el.control === c && isVisible(el)) return el;
    let label = null;
    const labels = c.labels || [];
    for (let i = 0; i < labels.length && !label; i++) if (isVisible(labels[i])) label = labels[i];
    return !label || (isVisible(c) && !coveredInView(c)) ? c : label;
  }

  /** In the viewport, but a click at its centre lands on something else. */
  function coveredInView(el) {
    const r = rectOf(el);
    const p = { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    if (!pointInside(p, viewArea(el))) return false;
    const hit = deepElementFromPoint(p.x, p.y);
    return !hit || !(isInclusiveDescendant(hit, el) || labelFor(hit, el));
  }

  /** true, false, or 'mixed' (a tri-state box half set). */
  function checkedOf(c) {
    if (c.localName === 'input') return !!c.checked;
    const v = lower(S_trim(El_getAttribute(c, 'aria-checked') || ''));
    return v === 'mixed' ? 'mixed' : v === 'true';
  }

  /** What `check` reads before and after its click: whether the control is checked. */
  function checkState(target) {
    const r = resolveOne(target);
    if (r.error) return { ok: false, message: r.error };
    const c = checkableOf(r.el);
    if (!c) return { ok: false, message: describeEl(r.el) + ' is not a checkbox, radio button or switch, nor holds one' };
    const radio = c.localName === 'input' ? inputType(c) === 'radio' : roleOf(c) === 'radio' || roleOf(c) === 'menuitemradio';
    return { ok: true, checked: checkedOf(c), radio: radio, description: describeEl(c) };
  }

  // ---------------------------------------------------------------------------
  // 5c. events the engine's input causes
  // ---------------------------------------------------------------------------
  // Whether the page began an HTML drag (a `dragstart` it did not cancel), or takes what is
  // dragged over it (a `dragover` it cancels, as a drop zone must): the engine's drag goes on
  // with the browser's drag events, or its files are dropped, only then. Each event of the
  // watched types is kept, and read once its dispatch is over (its handlers have run).
  let watching = null;

  function noteEvent(e) { if (watching) watching.seen[e.type] = e; }

  function unwatch() {
    if (!watching) return;
    const w = watching;
    watching = null;
    for (let i = 0; i < w.docs.length; i++) {
      for (let k = 0; k < w.types.length; k++) {
        try { ET_remove(w.docs[i], w.types[k], noteEvent, true); } catch (_) { /* a document gone */ }
      }
    }
  }

  function watch(types) {
    unwatch();
    const list = [];
    for (let k = 0; types && k < types.length && k < 8; k++) if (typeof types[k] === 'string') push(list, types[k]);
    watching = { types: list, docs: documents(), seen: O_create(null) };
    for (let i = 0; i < watching.docs.length; i++) {
      for (let k = 0; k < list.length; k++) ET_add(watching.docs[i], list[k], noteEvent, true);
    }
    return { ok: true };
  }

  /** Each watched type: whether it happened since `watch`, and whether the page cancelled
   *  it. `stop` ends the watch. */
  function watched(stop) {
    const out = {};
    if (watching) {
      for (let k = 0; k < watching.types.length; k++) {
        const e = watching.seen[watching.types[k]];
        out[watching.types[k]] = { seen: !!e, prevented: !!e && e.defaultPrevented };
      }
    }
    if (stop === true) unwatch();
    return { ok: true, events: out };
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
    const d = el.ownerDocument || doc();
    if (!s || s === d.documentElement || s === d.body) {
      if (d === doc()) {
        Win_scrollBy(W, { left: dx, top: dy, behavior: 'instant' });
        return { ok: true, scrollX: W.scrollX, scrollY: W.scrollY, scrolled: 'page' };
      }
      // The viewport of a frame scrolls with its document's scrolling element.
      s = d.scrollingElement || d.documentElement;
      El_scrollBy(s, { left: dx, top: dy, behavior: 'instant' });
      return { ok: true, scrollLeft: s.scrollLeft, scrollTop: s.scrollTop, scrolled: 'frame ' + describeEl(frameOf(el)) };
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

