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

  /** Fields whose value is given whole, as their picker gives it (see setValue). */
  const VALUE_INPUT = makeSet('date time datetime-local month week color range');

  function isEditable(el) {
    const tag = el.localName;
    if (tag === 'input') {
      const t = inputType(el);
      if (NON_TEXT_INPUT[t] === true && VALUE_INPUT[t] !== true) return false;
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
    for (;;) {
      if (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
      else if (a && isFrame(a) && frameDocument(a) && frameDocument(a).activeElement) a = frameDocument(a).activeElement;
      else return a;
    }
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
    if (t.exact === false) s += ' (loosely)';
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
      const raw = target.exact === false ? findTextWithin(v, newCtx()) : findTextMatches(v, newCtx(), true);
      // Keep the deepest matches only.
      const deepest = [];
      for (let i = 0; i < raw.length; i++) {
        let hasInner = false;
        for (let j = 0; j < raw.length; j++) {
          if (i !== j && raw[i] !== raw[j] && composedContains(raw[i], raw[j])) { hasInner = true; break; }
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
      const sorted = docOrderSort(list);
      return { invalid: false, list: target.exact === false ? byLikeness(sorted, v) : sorted, visibleOnly: true };
    }
    // role
    if (typeof target.role !== 'string' || !S_trim(target.role)) {
      return { invalid: true, message: 'role must be a non-empty string', list: [] };
    }
    if (target.name !== undefined && target.name !== null && typeof target.name !== 'string') {
      return { invalid: true, message: 'name must be a string', list: [] };
    }
    const role = lower(S_trim(target.role));
    const loose = target.exact === false;
    const wantName = typeof target.name === 'string' ? (loose ? lower(norm(target.name)) : norm(target.name)) : null;
    const base = ROLE_SELECTORS[role];
    const sel = base ? base + ',[role]' : '[role]';
    const all = queryCss(sel);
    const list = [];
    for (let i = 0; i < all.length; i++) {
      const el = all[i];
      if (roleOf(el) !== role) continue;
      if (!isVisible(el) || isAriaHidden(el)) continue;
      if (wantName !== null && (loose ? S_indexOf(lower(accName(el)), wantName) < 0 : !nameEquals(el, wantName))) continue;
      push(list, el);
    }
    if (wantName === null) return { invalid: false, list: list, visibleOnly: true };
    // Loosely, an element whose whole name it is first ("Sign up" before "Sign up to get…");
    // exactly, one whose name is written so before one a text-transform shows so.
    const first = loose
      ? function (el) { return lower(accName(el)) === wantName ? 0 : 1; }
      : function (el) { return accName(el) === wantName ? 0 : 1; };
    return { invalid: false, list: ranked(list, 2, first), visibleOnly: true };
  }

  /** Loose matches, in document order within each rank: those whose whole text is `v` in
   *  another case, then those a person acts on, then the rest (a sentence that mentions the
   *  words comes after the button that says them). */
  function byLikeness(list, v) {
    const lv = lower(v);
    return ranked(list, 3, function (el) {
      const text = lower(norm(el.localName === 'input' ? el.value || '' : innerTextOf(el)));
      return text === lv ? 0 : El_matches(el, STRONG_INTERACTIVE + ',' + WEAK_INTERACTIVE) ? 1 : 2;
    });
  }

  /** `list` in `n` ranks (`rankOf` an element), in order within each. */
  function ranked(list, n, rankOf) {
    const ranks = [];
    for (let r = 0; r < n; r++) push(ranks, []);
    for (let i = 0; i < list.length; i++) push(ranks[rankOf(list[i])], list[i]);
    const out = [];
    for (let r = 0; r < n; r++) for (let i = 0; i < ranks[r].length; i++) push(out, ranks[r][i]);
    return out;
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

