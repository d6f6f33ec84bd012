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

  /** `el` or an element it is shown in (through slots and shadow hosts, as the accessibility
   *  tree nests them) says aria-hidden="true". */
  function isAriaHidden(el) {
    for (let e = el; e; e = composedParent(e)) {
      if (lower(El_getAttribute(e, 'aria-hidden')) === 'true') return true;
    }
    return false;
  }

  function getById(el, id) {
    const root = Node_getRootNode(el);
    if (root && root.nodeType === 11) return Frag_getElementById(root, id);
    return Doc_getElementById(root && root.nodeType === 9 ? root : doc(), id);
  }

  /** Text alternative from content (subset of accname step 2F), over the flat tree as
   *  Chromium's accessibility tree and Playwright read it: a shadow host's content is its
   *  shadow root's, a slot's the nodes assigned to it, else its fallback content (see
   *  composedChildren). `textHidden`: `node`'s own text is not visible (visibility), though
   *  a visible descendant's is. */
  function contentText(node, depth, includeHidden, skipEl, budget, textHidden) {
    let out = '';
    if (depth > 20) return out;
    const kids = composedChildren(node);
    for (let i = 0; i < kids.length; i++) {
      if (out.length > budget) break;
      const c = kids[i];
      if (c.nodeType === 3) { if (!textHidden) out += c.data; continue; }
      if (c.nodeType !== 1 || c === skipEl) continue;
      const tag = c.localName;
      if (SKIP_CONTENT[tag] === true) continue;
      let pad = '';
      let invisible = false;
      if (!includeHidden) {
        if (lower(El_getAttribute(c, 'aria-hidden')) === 'true') continue;
        const st = styleOf(c);
        if (st) {
          if (st.display === 'none') continue;
          if (st.display !== 'inline' && st.display !== 'contents') pad = ' ';
          invisible = st.visibility !== 'visible';
        }
      } else {
        pad = ' ';
      }
      let part;
      const al = El_getAttribute(c, 'aria-label');
      // Not visible itself, `c` names nothing; a visible descendant still does.
      if (invisible) part = contentText(c, depth + 1, includeHidden, skipEl, budget, true);
      else if (al && norm(al)) part = al;
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
      else part = contentText(c, depth + 1, includeHidden, skipEl, budget, false);
      out += pad + part + pad;
    }
    return out;
  }

  /** The names of the elements `aria-labelledby` names, joined. `parts`, when given, gets
   *  what each name is read from (see shownName): the element whose text it is, or the text
   *  itself when it is an aria-label or a field's value. */
  function labelledByText(el, attr, parts) {
    const ids = tokens(attr);
    let s = '';
    for (let i = 0; i < ids.length; i++) {
      const ref = getById(el, ids[i]);
      if (!ref) continue;
      let part;
      let source = ref;
      const al = El_getAttribute(ref, 'aria-label');
      if (al && norm(al)) source = part = al;
      else if (ref.localName === 'input' || ref.localName === 'textarea') source = part = ref.value || '';
      else part = contentText(ref, 1, !isVisible(ref), null, 2000);
      s += ' ' + part;
      if (parts) push(parts, source);
    }
    return norm(s);
  }

  /** `el`'s <label>s, or null when it has none. One in a subtree whose content is not shown
   *  (content-visibility: hidden: a closed <details>, hidden=until-found) is no label of it to
   *  Chromium, whose accessibility tree leaves it out: the field's title names it then. */
  function labelsOf(el) {
    if (!mayHaveLabels(el)) return null;
    let labels = null;
    try { labels = el.labels; } catch (_) { labels = null; }
    if (!labels || !labels.length) return null;
    const out = [];
    for (let i = 0; i < labels.length; i++) if (!inUnshownContent(labels[i])) push(out, labels[i]);
    return out.length ? out : null;
  }

  /** `el` is inside content that is not shown, laid out or not: a closed <details>' (but for
   *  its summary) or a content-visibility: hidden element's. */
  function inUnshownContent(el) {
    for (let c = el, e = composedParent(el); e; c = e, e = composedParent(e)) {
      if (e.localName === 'details' && !e.open && c.localName !== 'summary') return true;
      const st = styleOf(e);
      if (st && st.contentVisibility === 'hidden') return true;
    }
    return false;
  }

  /** Whether `label`'s text names its field, as Chromium reads it: not when the label is not
   *  rendered (display: none on it or above it, `hidden`), not visible (a visible child does
   *  not make up for it), its content is hidden (content-visibility), or it says
   *  aria-hidden="true" itself (an aria-hidden element around it does not silence it). */
  function labelSpeaks(label) {
    if (lower(El_getAttribute(label, 'aria-hidden')) === 'true') return false;
    const st = styleOf(label);
    if (!st || st.visibility !== 'visible' || st.contentVisibility === 'hidden') return false;
    for (let e = label; e; e = composedParent(e)) {
      const s = e === label ? st : styleOf(e);
      if (!s || s.display === 'none') return false;
    }
    return true;
  }

  /** The texts of `labels`, `el`'s (labelsOf), that speak (see labelSpeaks), joined;
   *  `parts`, when given, gets each of them. */
  function labelsText(el, labels, parts) {
    let s = '';
    for (let i = 0; i < labels.length; i++) {
      if (!labelSpeaks(labels[i])) continue;
      s += ' ' + contentText(labels[i], 1, false, el, 2000);
      if (parts) push(parts, labels[i]);
    }
    return norm(s);
  }

  /** Whether `el`'s tree (its document or shadow root) may hold a <label>: `el.labels`
   *  searches the whole tree each time, so a snapshot asks once per tree (see memoized). */
  function mayHaveLabels(el) {
    if (memo === null) return true;
    const root = Node_getRootNode(el);
    if (!root) return true;
    let has = WM_get(memo.labels, root);
    if (has === undefined) {
      try {
        has = root.nodeType === 9 ? Doc_qs(root, 'label') !== null
          : root.nodeType === 11 ? Frag_qs(root, 'label') !== null : true;
      } catch (_) { has = true; }
      WM_set(memo.labels, root, has);
    }
    return has;
  }

  /** Simplified accessible name computation. Returns a normalised string. When `from` is
   *  given, `from.parts` is set to what the name was read from, in order (see shownName):
   *  `el`, its labels, legend or caption, or what aria-labelledby names; it stays null for a
   *  name from an attribute of `el`. */
  function accName(el, from) {
    const lb = El_getAttribute(el, 'aria-labelledby');
    if (lb) {
      const parts = from ? [] : null;
      const s = labelledByText(el, lb, parts);
      if (s) return nameFrom(from, parts, s);
    }
    const al = norm(El_getAttribute(el, 'aria-label') || '');
    if (al) return al;
    const tag = el.localName;
    // As Chromium names a labelable element: its labels, when it has any, name it even when
    // they say nothing (hidden or empty); its value, alt, content, title or placeholder are
    // then no name of it.
    const labels = LABELABLE[tag] === true ? labelsOf(el) : null;
    if (labels) {
      const parts = from ? [] : null;
      return nameFrom(from, parts, labelsText(el, labels, parts));
    }
    if (tag === 'input') {
      const t = inputType(el);
      if (t === 'button' || t === 'submit' || t === 'reset' || t === 'image') {
        // A value attribute, even an empty one, names a button input, and so does a blank
        // alt; only without them does the default ("Submit", "Reset") or the title name it.
        if (t === 'image') {
          const alt = El_getAttribute(el, 'alt');
          if (alt) return norm(alt);
          if (El_hasAttribute(el, 'value')) return norm(el.value || '');
          return norm(El_getAttribute(el, 'title') || '') || 'Submit';
        }
        if (El_hasAttribute(el, 'value')) return norm(el.value || '');
        if (t === 'submit') return 'Submit';
        if (t === 'reset') return 'Reset';
      }
    } else if (tag === 'img' || tag === 'area') {
      const a = norm(El_getAttribute(el, 'alt') || '');
      if (a) return a;
    } else if (tag === 'fieldset') {
      const lg = el.firstElementChild;
      if (lg && lg.localName === 'legend') { const s = norm(contentText(lg, 1, false, null, 2000)); if (s) return nameFrom(from, [lg], s); }
    } else if (tag === 'table') {
      const cap = el.caption;
      if (cap) { const s = norm(contentText(cap, 1, false, null, 2000)); if (s) return nameFrom(from, [cap], s); }
    }
    const role = roleOf(el);
    if (role && NAME_FROM_CONTENT[role] === true) {
      const s = norm(contentText(el, 0, false, null, 4000));
      if (s) return nameFrom(from, [el], s);
    }
    const title = norm(El_getAttribute(el, 'title') || '');
    if (title) return title;
    const ph = norm(El_getAttribute(el, 'placeholder') || El_getAttribute(el, 'aria-placeholder') || '');
    if (ph) return ph;
    return '';
  }

  function nameFrom(from, parts, name) {
    if (from) from.parts = parts;
    return name;
  }

  /** The name read from `parts` (see accName) as Chromium shows it: each element's text as
   *  shown (innerText, in its text-transform's capitals), an aria-label or value as written,
   *  joined with spaces as accName joins them (`BILLING address` where only the first of two
   *  references is uppercased). */
  function shownName(parts) {
    let s = '';
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      s += ' ' + (typeof p === 'string' ? p : innerTextOf(p));
    }
    return norm(s);
  }

  /** `el`'s accessible name is `v` (normalised). Chromium reads a name from text as the text
   *  is shown, in the capitals of its text-transform (`Add to cart` in a button styled
   *  uppercase is named `ADD TO CART`); a name matches as written and, when it is read from
   *  text, as shown. A name from an attribute (aria-label, alt, title, a value) only as written.
   *  The text is read as shown only when the names differ in case alone. */
  function nameEquals(el, v) {
    const from = { parts: null };
    const n = accName(el, from);
    if (n === v) return true;
    return from.parts !== null && transformedFrom(v, n) && shownName(from.parts) === v;
  }
