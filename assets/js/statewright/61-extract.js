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

  /** What a form field shows as its text, which innerText leaves out: a <textarea> or an
   *  input shows its value (a script's .value = … is no child text), a drop-down its chosen
   *  option. A password shows dots, a box or a radio no text, a file or hidden input nothing
   *  readable: those, and other elements, are null (read as elements are). */
  const SHOWS_NO_VALUE = makeSet('password checkbox radio file hidden image');
  function fieldText(el) {
    const tag = el.localName;
    if (tag === 'textarea') return TA_value(el);
    if (tag === 'select') return selectText(el);
    if (tag !== 'input') return null;
    const type = El_getAttribute(el, 'type');
    return SHOWS_NO_VALUE[S_toLowerCase(type || 'text')] === true ? null : In_value(el);
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
    const field = fieldText(el);
    if (read === 'lines') return { ok: true, value: linesOf(el, field), description: description };
    return { ok: true, value: norm(field === null ? innerTextOf(el) : field), description: description };
  }

  // NBSP, the CR of a CRLF and the other spaces; tabs stay (they part a row's cells).
  const ODD_SPACE_RE = /[^\S\n\t]/g;
  const LINE_END_SPACE_RE = /[ \t]+$/gm;
  const OUTER_BLANK_LINES_RE = /^\n+|\n+$/g;

  /** The text `el` shows with its line breaks, as innerText lays it out (<br>, blocks, table
   *  rows with tabs between cells, <pre> as written): without the characters that show
   *  nothing, odd spaces as plain ones, no space at a line's end nor blank lines at the
   *  ends. The `text` read stays one line, as the workflows written for it expect. */
  function linesOf(el, field) {
    const t = RE_replace(ODD_SPACE_RE, shown(field === null ? innerTextOf(el) : field), ' ');
    return RE_replace(OUTER_BLANK_LINES_RE, RE_replace(LINE_END_SPACE_RE, t, ''), '');
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

