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
      walked: false, preferWalk: false, docs: null, texts: null, norms: null, shadowRoots: null, buttons: null,
      innerText: null, pageText: null,
    };
  }

  /** The documents whose text is on screen: the top one and its visible same-origin frames;
   *  none when this document itself is not shown (a hidden frame's, see documentShown). */
  function shownDocuments(ctx) {
    if (ctx.docs === null && !documentShown()) ctx.docs = [];
    if (ctx.docs === null) {
      const all = documents();
      const out = [all[0]];
      for (let i = 1; i < all.length; i++) {
        const f = frameOf(all[i].documentElement);
        if (f && isVisible(f)) push(out, all[i]);
      }
      ctx.docs = out;
    }
    return ctx.docs;
  }

  /** One walk over each shown document's body (and open shadow roots): text nodes and shadow
   *  roots, in document order. */
  function walkPage(ctx) {
    if (ctx.walked) return;
    ctx.walked = true;
    const texts = [];
    const shadowRoots = [];
    ctx.texts = texts;
    ctx.norms = [];
    ctx.shadowRoots = shadowRoots;
    const walk = function (d, r) {
      const w = Doc_createTreeWalker(d, r, SHOW_ELEMENT | SHOW_TEXT);
      let n;
      while ((n = TW_nextNode(w)) !== null) {
        if (n.nodeType === 3) {
          texts[texts.length] = n;
        } else {
          const sr = n.shadowRoot;
          if (sr) { push(shadowRoots, sr); walk(d, sr); }
        }
      }
    };
    const docs = shownDocuments(ctx);
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i];
      const root = d.body || d.documentElement;
      if (!root) continue;
      if (root.shadowRoot) { push(shadowRoots, root.shadowRoot); walk(d, root.shadowRoot); }
      walk(d, root);
    }
  }

  function inputButtons(ctx) {
    if (ctx.buttons !== null) return ctx.buttons;
    walkPage(ctx);
    const out = [];
    const docs = shownDocuments(ctx);
    for (let j = 0; j < docs.length; j++) {
      const l = Doc_qsa(docs[j], INPUT_BUTTON_SELECTOR);
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

  /** The bodies' innerText, the top document's first, then each shown frame's, without the
   *  characters that show nothing (see norm). */
  function bodyInnerText(ctx) {
    if (ctx.innerText === null) {
      const docs = shownDocuments(ctx);
      let t = '';
      for (let i = 0; i < docs.length; i++) {
        const root = docs[i].body || docs[i].documentElement;
        if (root) t += (i ? '\n' : '') + innerTextOf(root);
      }
      ctx.innerText = shown(t);
    }
    return ctx.innerText;
  }

  /** Visible text of the open shadow roots (not part of body.innerText): each outermost
   *  rendered host's, as rendered (slotted nodes where their slot is; inner roots within). */
  function shadowText(ctx) {
    walkPage(ctx);
    const srs = ctx.shadowRoots;
    let t = '';
    for (let i = 0; i < srs.length; i++) {
      const host = srs[i].host;
      const r = Node_getRootNode(host);
      if (r && r.nodeType === 11) continue; // inside another root: read with its host
      t += '\n' + renderedText(host);
    }
    return shown(t);
  }

  /** Is `el` rendered (has a box, or shows its children's with display: contents)? */
  function isRendered(el) {
    for (let e = el; e && e.nodeType === 1; e = composedParent(e)) {
      const st = styleOf(e);
      if (!st || st.display === 'none') return false;
      if (st.display === 'contents') continue;
      if (El_checkVisibility) return El_checkVisibility(e);
      return true;
    }
    return true;
  }

  /**
   * The text `el` shows, read over the composed tree as innerText reads a document's own:
   * what is not rendered (display: none, `hidden`, a closed <details>) is left out, and so is
   * text that is not visible; a slot shows the nodes assigned to it; a drop-down <select>
   * shows its selected option; white space is laid out as CSS lays it out, and lines break
   * where innerText breaks them (<br>, blocks, a blank line around a <p>, a tab between a
   * row's cells), so that a `lines` read is the same in a shadow tree as outside one.
   */
  function renderedText(el) {
    if (!isRendered(el)) return '';
    if (el.localName === 'select') return selectText(el);
    return renderInto(el, styleOf(el), { last: ' ', started: false, breaks: '' });
  }

  /** Replaced elements: shown as a box, not as text, they end a word as a block does. */
  const REPLACED = makeSet('img video audio canvas iframe embed object svg math input textarea select br');

  /** `el`'s text as rendered (see renderedText). `line` is where the text shown so far ends:
   *  `last`, the character shown last in the current line (for capitalize, see transformText,
   *  and for white space, see laidOut); `breaks`, what the edges of the blocks just passed ask
   *  to put before the next text; `started`, whether any text was shown. */
  function renderInto(el, st, line) {
    let t = '';
    const visible = st.visibility === 'visible';
    const tt = st.textTransform;
    const closed = el.localName === 'details' && !el.open;
    const kids = composedChildren(el);
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (c.nodeType === 3) {
        if (closed || !c.data) continue;
        const d = laidOut(c.data, st, line.last);
        if (!d) continue;
        // Hidden text still takes its place in the line (a word it starts goes on after it).
        if (visible) t += shownNext(line, tt === 'none' ? d : transformText(d, tt, el, line.last));
        line.last = d[d.length - 1];
        continue;
      }
      if (c.nodeType !== 1) continue;
      const name = c.localName;
      if (REPLACED[name] === true) line.last = ' ';
      if (SKIP_TEXT_PARENT[name] === true || name === 'textarea' || name === 'input') continue;
      if (closed && name !== 'summary') continue;
      const cs = styleOf(c);
      if (!cs || cs.display === 'none') continue;
      if (name === 'br') { t += shownNext(line, '\n'); continue; }
      const cell = cs.display === 'table-cell';
      const block = !cell && cs.display !== 'contents' && S_indexOf(cs.display, 'inline') !== 0;
      const breaks = name === 'p' ? '\n\n' : '\n';
      // A box that is not inline (a block, an inline-block) starts a new run of words.
      if (cs.display !== 'inline' && cs.display !== 'contents') line.last = ' ';
      if (block) breakLine(line, breaks);
      if (name === 'select') {
        if (cs.visibility === 'visible') t += shownNext(line, selectText(c) + ' ');
        line.last = ' ';
      } else {
        t += renderInto(c, cs, line);
      }
      if (block) { breakLine(line, breaks); line.last = ' '; }
      if (cell) { breakLine(line, '\t'); line.last = ' '; }
    }
    return t;
  }

  /** `s`, shown next, after the line breaks that the blocks passed since the last text ask
   *  for: none before the first text, as innerText has none there (nor after the last). */
  function shownNext(line, s) {
    const before = line.started ? line.breaks : '';
    line.started = true;
    line.breaks = '';
    return before + s;
  }

  /** A block's edge asks for a line break, a <p>'s for a blank line; edges met together give
   *  the most any of them asks for, as in innerText. A cell's end asks for a tab, which a
   *  line break replaces (the row ends there). */
  function breakLine(line, breaks) {
    if (breaks === '\t') { if (!line.breaks) line.breaks = breaks; return; }
    if (line.breaks === '\t' || line.breaks.length < breaks.length) line.breaks = breaks;
  }

  const COLLAPSIBLE_RUN_RE = /[ \t\n\r\f]+/g;
  const SPACE_RUN_RE = /[ \t\r\f]+/g;
  const SPACES_AROUND_BREAK_RE = /[ \t\r\f]*\n[ \t\r\f]*/g;
  const KEEPS_SPACES = makeSet('pre pre-wrap break-spaces preserve preserve-spaces');

  /** Text data as CSS lays it out in a line that ends with `last`: where white space
   *  collapses, a run of it is one space, and none after a space or at a line's start;
   *  <pre> and pre-wrap keep theirs; pre-line keeps line breaks. */
  function laidOut(d, st, last) {
    const ws = st.whiteSpaceCollapse || st.whiteSpace;
    if (KEEPS_SPACES[ws] === true) return d;
    const s = ws === 'pre-line' || ws === 'preserve-breaks'
      ? RE_replace(SPACE_RUN_RE, RE_replace(SPACES_AROUND_BREAK_RE, d, '\n'), ' ')
      : RE_replace(COLLAPSIBLE_RUN_RE, d, ' ');
    return s[0] === ' ' && (last === ' ' || last === '\n') ? S_slice(s, 1) : s;
  }

  /** What a <select> shows: a drop-down its selected option, a list box its options. */
  function selectText(sel) {
    const opts = sel.options;
    if (!sel.multiple && !(sel.size > 1)) {
      const o = opts[sel.selectedIndex];
      return o ? o.label || o.text : '';
    }
    let t = '';
    for (let i = 0; i < opts.length; i++) t += (i ? '\n' : '') + (opts[i].label || opts[i].text);
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
   * Visible elements whose normalised visible text equals `v` (already normalised): as
   * shown (a style's capitals included), or as written in the page's source.
   * Walks text nodes; for every text node whose normalised text is a substring of v, climbs
   * ancestors while their text is short enough and tests innerText-based equality.
   * With all=false returns after the first match.
   */
  function findTextMatches(v, ctx, all) {
    const out = [];
    if (!v) return out;
    walkPage(ctx);
    const vl = v.length;
    const lv = lower(v);
    const vSquash = squash(lv);
    const rawCap = 8 * vl + 400;
    const extCap = 3 * vl + 50;
    const texts = ctx.texts;
    let seen = null;
    for (let i = 0; i < texts.length; i++) {
      const t = textAt(ctx, i);
      // In any case here: a style may show the text in capitals (visibleTextEquals decides).
      if (!t || t.length > vl || (S_indexOf(v, t) < 0 && S_indexOf(lv, lower(t)) < 0)) continue;
      const tn = texts[i];
      let el = composedParent(tn);
      if (!el || el.nodeType !== 1 || SKIP_TEXT_PARENT[el.localName] === true) continue;
      if (seen === null) seen = new _Set();
      while (el && el.nodeType === 1) {
        if (Set_has(seen, el)) break;
        Set_add(seen, el);
        const raw = textContentOf(el);
        if (raw.length > rawCap) break;
        const nt = norm(raw);
        let candidate = false;
        if (nt === v || lower(nt) === lv) candidate = true;
        else if (nt.length <= vl) candidate = lower(squash(nt)) === vSquash; // block boundaries add spaces in innerText
        else if (nt.length <= extCap) candidate = el.firstElementChild !== null; // hidden children
        else break;
        if (candidate && visibleTextEquals(el, v) && isVisible(el)) {
          push(out, el);
          if (!all) return out;
        }
        el = composedParent(el);
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

  /**
   * Visible elements whose visible text holds `v` (already normalised) in any case: for each
   * text node, the nearest element whose text holds it, which is the deepest such element
   * (its text is the most of it about `v`). Input buttons by their value.
   */
  function findTextWithin(v, ctx) {
    const out = [];
    const lv = lower(v);
    walkPage(ctx);
    const texts = ctx.texts;
    const seen = new _Set();
    const cap = 4 * v.length + 2000;
    for (let i = 0; i < texts.length; i++) {
      if (!textAt(ctx, i)) continue;
      for (let el = composedParent(texts[i]); el && el.nodeType === 1; el = composedParent(el)) {
        if (Set_has(seen, el) || SKIP_TEXT_PARENT[el.localName] === true) break;
        Set_add(seen, el);
        const raw = textContentOf(el);
        if (raw.length > cap) break;
        if (S_indexOf(lower(norm(raw)), lv) < 0) continue;
        if (isVisible(el) && S_indexOf(lower(norm(innerTextOf(el))), lv) >= 0) push(out, el);
        break;
      }
    }
    const buttons = inputButtons(ctx);
    for (let i = 0; i < buttons.length; i++) {
      if (S_indexOf(lower(norm(buttons[i].value)), lv) >= 0 && isVisible(buttons[i])) push(out, buttons[i]);
    }
    return out;
  }

  function docOrderSort(arr) {
    const rank = documentRank(documents());
    return A_sort(arr, function (a, b) {
      if (a === b) return 0;
      const ra = rank(a);
      const rb = rank(b);
      if (ra !== rb) return ra - rb;
      return (Node_compare(a, b) & DOC_POS_FOLLOWING) ? -1 : 1;
    });
  }

