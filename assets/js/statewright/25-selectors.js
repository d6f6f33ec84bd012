  // ---------------------------------------------------------------------------
  // Selectors
  // ---------------------------------------------------------------------------
  /** Matches in the top document, then in each same-origin frame (see "Frames"); in each
   *  document, its own elements, then those inside each of its open shadow roots (a web
   *  component's button is on the page for a person), in that root's order. A descendant
   *  combinator crosses into shadow roots, as in Playwright: `x-form button.save` finds the
   *  button inside `x-form`'s root, which the browser's own matching never does. */
  function queryCss(sel) {
    const docs = documents();
    const out = [];
    let splits = null;
    const known = O_create(null);
    for (let j = 0; j < docs.length; j++) {
      const list = Doc_qsa(docs[j], sel); // throws SyntaxError on invalid selectors
      for (let i = 0; i < list.length; i++) push(out, list[i]);
      const roots = shadowRootsOf(docs[j]);
      if (roots.length && splits === null) splits = descendantSplits(sel);
      for (let k = 0; k < roots.length; k++) {
        const inner = Frag_qsa(roots[k], sel);
        if (!splits.length) {
          for (let i = 0; i < inner.length; i++) push(out, inner[i]);
          continue;
        }
        const found = new _Set();
        const here = [];
        const take = function (el) { if (!Set_has(found, el)) { Set_add(found, el); push(here, el); } };
        for (let i = 0; i < inner.length; i++) take(inner[i]);
        for (let s = 0; s < splits.length; s++) {
          const below = Frag_qsa(roots[k], splits[s].below);
          if (below.length && inAncestry(roots[k].host, splits[s].above, known)) {
            for (let i = 0; i < below.length; i++) take(below[i]);
          }
        }
        A_sort(here, function (a, b) { return a === b ? 0 : (Node_compare(a, b) & DOC_POS_FOLLOWING) ? -1 : 1; });
        for (let i = 0; i < here.length; i++) push(out, here[i]);
      }
    }
    return out;
  }

  /** Whether `node`, or an element it is inside (across shadow roots), matches `sel` with
   *  descendant combinators crossing shadow roots. Each (host, selector) is answered once
   *  per query (`known`): a page nesting components deep, and a long selector, would
   *  otherwise try every way to cut it at every level. */
  function inAncestry(node, sel, known) {
    let answers = known[sel];
    if (!answers) answers = known[sel] = new _WeakMap();
    const answer = WM_get(answers, node);
    if (answer !== undefined) return answer;
    WM_set(answers, node, false);
    const splits = descendantSplits(sel);
    let found = false;
    for (let el = node; el && !found; ) {
      if (El_closest(el, sel)) found = true;
      // A match whose upper part is outside the tree `el` is in.
      const host = hostOf(el);
      for (let s = 0; s < splits.length && !found && host; s++) {
        found = !!El_closest(el, splits[s].below) && inAncestry(host, splits[s].above, known);
      }
      el = host;
    }
    WM_set(answers, node, found);
    return found;
  }

  /** The element whose shadow root holds `el`, or null in a document's own tree. */
  function hostOf(el) {
    const root = Node_getRootNode(el);
    return root && root.nodeType === 11 && root.host ? root.host : null;
  }

  /** Each way to cut `sel` at a descendant combinator: `above` is what must match an element
   *  outside the shadow root that `below` is matched in. Only a selector that is one complex
   *  selector (no top-level comma) is cut; a list is taken item by item. */
  function descendantSplits(sel) {
    const items = topLevel(sel, ',');
    const out = [];
    for (let i = 0; i < items.length; i++) {
      const item = S_trim(items[i]);
      const cuts = topLevel(item, ' ');
      for (let c = 1; c < cuts.length; c++) {
        const above = S_trim(cutJoin(cuts, 0, c));
        const below = S_trim(cutJoin(cuts, c, cuts.length));
        if (above && below) push(out, { above: above, below: below });
      }
    }
    return out;
  }

  function cutJoin(parts, from, to) {
    let s = '';
    for (let i = from; i < to; i++) s += (i > from ? ' ' : '') + parts[i];
    return s;
  }

  /** `sel` cut where `sep` stands outside brackets, parentheses, strings and escapes. For
   *  `' '`, a run of white space is one cut, and white space beside a `>`, `+` or `~`
   *  combinator is no cut (it is that combinator's). */
  function topLevel(sel, sep) {
    const parts = [];
    let depth = 0;
    let quote = '';
    let from = 0;
    const n = sel.length;
    for (let i = 0; i < n; i++) {
      const c = sel[i];
      if (c === '\\') { i++; continue; }
      if (quote) { if (c === quote) quote = ''; continue; }
      if (c === '"' || c === "'") { quote = c; continue; }
      if (c === '(' || c === '[') { depth++; continue; }
      if (c === ')' || c === ']') { depth--; continue; }
      if (depth !== 0) continue;
      if (sep === ',' && c === ',') { push(parts, S_slice(sel, from, i)); from = i + 1; continue; }
      if (sep !== ' ' || !isBlank(c)) continue;
      let j = i;
      while (j < n && isBlank(sel[j])) j++;
      const before = S_trim(S_slice(sel, from, i));
      if (before && j < n && !isCombinator(before[before.length - 1]) && !isCombinator(sel[j])) {
        push(parts, before);
        from = j;
      }
      i = j - 1;
    }
    push(parts, S_slice(sel, from));
    return parts;
  }

  function isBlank(c) { return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f'; }
  function isCombinator(c) { return c === '>' || c === '+' || c === '~'; }

  /** The open shadow roots in `d`, each followed by those inside it. */
  function shadowRootsOf(d) {
    if (memo !== null) {
      const known = WM_get(memo.roots, d);
      if (known !== undefined) return known;
    }
    const out = [];
    const walk = function (root) {
      const w = Doc_createTreeWalker(d, root, SHOW_ELEMENT);
      let n;
      while ((n = TW_nextNode(w)) !== null) {
        const sr = n.shadowRoot;
        if (sr) { push(out, sr); walk(sr); }
      }
    };
    if (d.documentElement) walk(d.documentElement);
    if (memo !== null) WM_set(memo.roots, d, out);
    return out;
  }

  /** Matches of the expression evaluated in each document, as queryCss orders them. */
  function queryXPath(expr) {
    const docs = documents();
    const out = [];
    const seen = new _Set();
    for (let j = 0; j < docs.length; j++) {
      const d = docs[j];
      const res = Doc_evaluate(d, expr, d, null, XPATH_ORDERED_SNAPSHOT, null);
      const n = XR_snapshotLength(res);
      for (let i = 0; i < n; i++) {
        let node = XR_snapshotItem(res, i);
        if (!node) continue;
        if (node.nodeType === 2) node = node.ownerElement;
        else if (node.nodeType !== 1) node = node.parentElement;
        if (!node || node.nodeType !== 1 || Set_has(seen, node)) continue;
        Set_add(seen, node);
        push(out, node);
      }
    }
    return out;
  }

