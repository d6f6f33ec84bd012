  // ---------------------------------------------------------------------------
  // 10. record: what a person does, for `statewright record`
  // ---------------------------------------------------------------------------
  // Each report is one JSON string: the act (click, check, type, select, key, scroll,
  // upload, drag), the page as it was when the act began (snapshotted in the capture phase,
  // before the page's own handlers run), and the ways to find the element acted on, most
  // stable first. Typing is reported once per field, when the person leaves it or does
  // something else. A password field's value never leaves the page: only that it was typed
  // into. Only trusted events (a person's, or input sent over the DevTools protocol) are
  // reported.
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

  // Each report is numbered within its document (`doc`, the time origin, tells documents
  // apart), so the recorder can tell the acts a person did before it moved to another tab
  // from those done after they came back (see recorded()).
  function report(msg) {
    recorder.lastClick = null;
    recorder.told += 1;
    msg.doc = TIME_ORIGIN;
    msg.seq = recorder.told;
    // Well-formed, as every answer of the library (see Install): half an emoji in a name
    // would make the act one the recorder cannot read.
    try { recorder.send(JSON_stringify(wellFormed(msg))); } catch (_) { /* the recorder went away */ }
  }

  function recorded() {
    return { doc: TIME_ORIGIN, seq: recorder ? recorder.told : 0 };
  }

  function flushTyping() {
    const t = recorder.typing;
    if (!t) return;
    recorder.typing = null;
    if (t.el.localName === 'select') return reportChoices(t);
    const secret = t.el.localName === 'input' && inputType(t.el) === 'password';
    const value = t.el.isContentEditable ? norm(innerTextOf(t.el)) : _String(t.el.value || '');
    const msg = { kind: 'type', page: t.page, secret: secret, text: secret ? '' : value };
    const loc = t.loc;
    msg.target = loc.target; msg.alternatives = loc.alternatives; msg.description = loc.description;
    if (loc.dialog) msg.dialog = loc.dialog;
    report(msg);
  }

  /** A `<select multiple>`'s choice: the labels of every option selected when the person
   *  left it (none: nothing a `select_option` can say, so no act). */
  function reportChoices(t) {
    const labels = [];
    const options = t.el.options;
    for (let i = 0; i < options.length; i++) if (options[i].selected) push(labels, norm(options[i].text));
    if (!labels.length) return;
    const msg = { kind: 'select', page: t.page, label: labels };
    const loc = t.loc;
    msg.target = loc.target; msg.alternatives = loc.alternatives; msg.description = loc.description;
    if (loc.dialog) msg.dialog = loc.dialog;
    report(msg);
  }

  /** Reports an act on `el`, with the page as `page` shows it (default: as it is now). */
  function act(kind, el, extra, page) {
    flushScroll();
    flushTyping();
    const msg = { kind: kind, page: page || snapshot(20000) };
    if (el) {
      const loc = located(el);
      msg.target = loc.target; msg.alternatives = loc.alternatives; msg.description = loc.description;
      if (loc.dialog) msg.dialog = loc.dialog;
    }
    for (const k in extra) msg[k] = extra[k];
    report(msg);
    if (kind === 'click') recorder.lastClick = { el: el, page: msg.page };
  }

  function onClick(e) {
    if (!e.isTrusted) return noteChooser(e);
    const raw = eventTarget(e);
    if (!raw) return;
    if (afterDragOrSelection(e)) return;
    const el = retargetInteractive(raw, '');
    // Focusing a field is not an act: what is typed into it is (and the files chosen in a
    // file field's chooser). A label passes its click on to its control, reported then.
    if (isTextField(el) || el.localName === 'select' || fileInputOf(el)) return;
    if (el.localName === 'label' && el.control) return;
    // A box is recorded as the state it was set to, which a replay makes so however it
    // finds it, rather than as a click that would undo it on a second pass.
    const box = toggledBy(raw);
    if (box) return act('check', box, { checked: checkedAfterClick(box) });
    const choice = drawnChoice(el);
    if (choice) return act('select', choice.opener, { label: choice.label }, choice.page);
    // While the page handles the click, a hidden file field it opens is noted (below).
    recorder.clicking = el;
    later(function () { recorder.clicking = null; }, 0);
    act('click', el, { button: e.button === 2 ? 'right' : e.button === 1 ? 'middle' : 'left', count: e.detail >= 2 ? 2 : 1 });
  }

  /** The checkbox, radio button or switch a click on `el` sets, if any. */
  function toggledBy(el) {
    for (let a = el; a; a = a.parentElement) if (isCheckable(a)) return a;
    return null;
  }

  /** What the click sets the box to. This runs before the page's handlers: a native box has
   *  already changed (and changes back if the page cancels the click), an ARIA one has not. */
  function checkedAfterClick(box) {
    if (box.localName === 'input') return !!box.checked;
    const role = roleOf(box);
    return role === 'radio' || role === 'menuitemradio' || checkedOf(box) !== true;
  }

  /** A click on an option of a list that a page draws for its own select (a component
   *  library's listbox, a combobox's suggestions): the choice, made through the control that
   *  opened the list, which replays as `select_option` whether the list shows yet or not.
   *  When the previous act was the click that opened it, the page is as that click found it
   *  (the list closed), which is how a replay finds it. */
  function drawnChoice(el) {
    const option = El_closest(el, '[role=option]');
    if (!option || option.localName === 'option') return null;
    const label = accName(option);
    if (!label) return null;
    const list = El_closest(option, '[role=listbox]');
    const last = recorder.lastClick;
    const opener = (list && openerOf(list)) || (last && last.el.isConnected && opensList(last.el) ? last.el : null);
    if (!opener || Node_contains(opener, option)) return null;
    return { opener: opener, label: label, page: last && last.el === opener ? last.page : null };
  }

  /** The control that names `list` as what it controls or owns, else the combobox that holds
   *  it (ARIA 1.1's pattern). */
  function openerOf(list) {
    if (list.id) {
      const id = CSS_escape(list.id);
      const found = queryCss('[aria-controls~="' + id + '"],[aria-owns~="' + id + '"]');
      const root = Node_getRootNode(list);
      for (let i = 0; i < found.length; i++) {
        if (Node_getRootNode(found[i]) === root && !Node_contains(list, found[i])) return found[i];
      }
    }
    return El_closest(list, '[role=combobox]');
  }

  /** `el` says it opens a list of options when clicked. */
  function opensList(el) {
    const popup = lower(S_trim(El_getAttribute(el, 'aria-haspopup') || ''));
    return roleOf(el) === 'combobox' || popup === 'listbox' || popup === 'true';
  }

  /** A page's script clicking its hidden file field, in answer to the person's click on its
   *  own button: that button is what the files are given through (see onChange). */
  function noteChooser(e) {
    const el = eventTarget(e);
    if (recorder.clicking && el && fileInputOf(el) === el) WM_set(recorder.openers, el, recorder.clicking);
  }

  /** The files chosen, by name (a page never knows where they were). */
  function fileNames(files) {
    const names = [];
    files = files || [];
    for (let i = 0; i < files.length && i < 20; i++) push(names, _String(files[i].name));
    return names;
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
    const file = el && e.isTrusted ? fileInputOf(el) : null;
    if (file === el && file) {
      const names = fileNames(file.files);
      const opener = WM_get(recorder.openers, file);
      if (names.length) act('upload', opener && opener.isConnected ? opener : file, { files: names });
      return;
    }
    // A colour chosen in the browser's picker: `type` gives such a field its value whole.
    if (el && el.localName === 'input' && inputType(el) === 'color') return act('type', el, { text: el.value, secret: false });
    if (!el || el.localName !== 'select') return;
    // Each ctrl-click on a <select multiple> changes it: it is held as typing is, and the set
    // the person leaves it with is reported once.
    if (el.multiple) {
      if (recorder.typing && recorder.typing.el === el) return;
      flushScroll();
      flushTyping();
      recorder.typing = { el: el, page: snapshot(20000), loc: located(el) };
      return;
    }
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

  function onFocusOut(e) { if (recorder.typing && eventTarget(e) === recorder.typing.el) flushTyping(); }

  function readable(win) {
    try { return !!win.document; } catch (_) { return false; }
  }

  /** Listens to what a person does in `win`: the page's window, or a same-origin frame's,
   *  whose acts are reported with the whole page and targets found from the top. */
  function listen(win) {
    if (WM_get(recorder.windows, win) === true) return;
    WM_set(recorder.windows, win, true);
    ET_add(win, 'click', onClick, true);
    ET_add(win, 'input', onInput, true);
    ET_add(win, 'change', onChange, true);
    ET_add(win, 'keydown', onKeyDown, true);
    listenForDrags(win);
    ET_add(win, 'focusout', onFocusOut, true);
    ET_add(win, 'pagehide', function () { flushTyping(); flushScroll(); }, true);
    // A frame that loads (or loads another document: another window) is listened to as well.
    // A load event does not reach the window, only the document.
    ET_add(win.document, 'load', function (e) { if (e.target && e.target.nodeType === 1 && isFrame(e.target)) listenToFrames(); }, true);
  }

  function listenToFrames() {
    const docs = documents();
    for (let i = 1; i < docs.length; i++) if (docs[i].defaultView) listen(docs[i].defaultView);
  }

  function record(binding) {
    if (recorder) return true;
    // A frame its parent can read is recorded from above, through the parent (see listen):
    // recording it here too would report each act twice, with only the frame for a page.
    if (W.parent !== W && readable(W.parent)) return true;
    const send = W[binding];
    if (typeof send !== 'function') return false;
    recorder = { send: send, typing: null, scroll: null, lastY: W.scrollY, windows: new _WeakMap(), told: 0,
      clicking: null, openers: new _WeakMap(), lastClick: null, dragging: null, pressing: null, dragged: null, pressedAt: null };
    listen(W);
    ET_add(W, 'scroll', onScroll, true);
    listenToFrames();
    return true;
  }

