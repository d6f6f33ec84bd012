  // ---------------------------------------------------------------------------
  // text-transform, as Chromium applies it to what it shows
  // ---------------------------------------------------------------------------
  // innerText applies a document's own text-transform; text read over the composed tree
  // (renderedText) applies it here, the same way, so shadow text reads as a person sees it.

  /** `s` as `tt` (a computed text-transform) shows it in element `el`. `before` is the
   *  character shown just before `s` in its line (' ' at a line's start): capitalize starts a
   *  word only where one starts ("<b>he</b>llo" reads "Hello"). */
  function transformText(s, tt, el, before) {
    if (tt === 'uppercase' || tt === 'lowercase') {
      const lang = langOf(el);
      try {
        if (lang) return tt === 'uppercase' ? S_toLocaleUpperCase(s, lang) : S_toLocaleLowerCase(s, lang);
      } catch (_) { /* not a language tag: as without one */ }
      return tt === 'uppercase' ? S_toUpperCase(s) : S_toLowerCase(s);
    }
    if (tt === 'capitalize') return capitalize(s, before);
    return s;
  }

  /** The language `el` is in (its own or the nearest lang attribute, through slots and
   *  hosts): Turkish capitals dot the i ("istanbul" shows "İSTANBUL"). */
  function langOf(el) {
    for (let e = el; e; e = composedParent(e)) {
      const l = El_getAttribute(e, 'lang');
      if (l !== null) return S_trim(l);
    }
    return '';
  }

  const NBSP_RE = /\u00a0/g;

  /** Each word's first character in title case, the rest as written. Words are ICU's, as in
   *  Chromium, which reads a no-break space as a space between words. */
  function capitalize(s, before) {
    if (!WORDS || !s) return s;
    const t = before + s;
    const segs = Seg_segment(WORDS, RE_replace(NBSP_RE, t, ' '));
    let out = '';
    for (let i = 0; i < t.length;) {
      const g = Segments_containing(segs, i);
      const end = g.index + g.segment.length;
      // The segment holding `before` starts before `s`: only the rest of it is ours.
      out += g.index === 0 ? S_slice(t, 1, end) : titleCase(t[g.index]) + S_slice(t, g.index + 1, end);
      i = end;
    }
    return out;
  }

  /** One UTF-16 unit in Unicode's simple title case, as Chromium takes it: a digraph's title
   *  form (ǆ shows ǅ), otherwise its capital when that is one unit (ß stays ß; half of a
   *  surrogate pair stays as it is). */
  function titleCase(ch) {
    const c = S_charCodeAt(ch, 0);
    if (c >= 0x1C4 && c <= 0x1CC) return '\u01C5\u01C5\u01C5\u01C8\u01C8\u01C8\u01CB\u01CB\u01CB'[c - 0x1C4];
    if (c >= 0x1F1 && c <= 0x1F3) return '\u01F2';
    if (c >= 0xD800 && c <= 0xDFFF) return ch;
    const u = S_toUpperCase(ch);
    return u.length === 1 ? u : ch;
  }
