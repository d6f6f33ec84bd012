  // ---------------------------------------------------------------------------
  // 10b. record: drags
  // ---------------------------------------------------------------------------
  // A drag is reported once it ends, from the element lifted to the one it was let go on,
  // with where on that one (fractions of its box): an HTML drag and drop at its `drop`; a
  // drag the page follows with the pointer alone (a slider's handle, a sortable list) at the
  // button's release, when what was pressed looks like something to drag (its cursor says
  // grab or move, or it is a slider) and the pointer went more than a few pixels. The page
  // is snapshotted when the drag begins. A press that selects text is neither a drag nor
  // the click the browser then reports on what holds the text.
  const DRAG_CURSORS = makeSet('grab grabbing move all-scroll ew-resize ns-resize col-resize row-resize');
  const MIN_DRAG_DISTANCE = 10;

  function listenForDrags(win) {
    ET_add(win, 'dragstart', onDragStart, true);
    ET_add(win, 'drop', onDrop, true);
    ET_add(win, 'pointerdown', onPointerDown, true);
    ET_add(win, 'pointerup', onPointerUp, true);
  }

  function began(el) {
    flushScroll();
    flushTyping();
    return { el: el, page: snapshot(20000), loc: located(el) };
  }

  /** Where in `to` the pointer was, as fractions of its box (both in `to`'s document). */
  function placeIn(to, x, y) {
    const r = El_getBCR(to);
    const f = function (v, from, size) { return size > 0 ? M_round(M_min(1, M_max(0, (v - from) / size)) * 100) / 100 : 0.5; };
    return { x: f(x, r.left, r.width), y: f(y, r.top, r.height) };
  }

  function reportDrag(d, to, e) {
    const msg = { kind: 'drag', page: d.page, target: d.loc.target, alternatives: d.loc.alternatives,
      description: d.loc.description, to: located(to).target, position: placeIn(to, e.clientX, e.clientY) };
    if (d.loc.dialog) msg.dialog = d.loc.dialog;
    report(msg);
    recorder.dragged = d.el;
    later(function () { recorder.dragged = null; }, 0);
  }

  function onDragStart(e) {
    recorder.pressing = null; // the browser's drag, heard at its drop
    const el = e.isTrusted ? eventTarget(e) : null;
    if (el) recorder.dragging = began(el);
  }

  /** The drop of a drag begun in the page, or of files dragged in from the desktop: those
   *  are an upload through the element they were dropped on, by name (as a chooser's are). */
  function onDrop(e) {
    const d = recorder.dragging;
    recorder.dragging = null;
    const to = e.isTrusted ? eventTarget(e) : null;
    if (!to) return;
    if (d) return reportDrag(d, to, e);
    const names = fileNames(e.dataTransfer ? e.dataTransfer.files : null);
    if (names.length) act('upload', to, { files: names });
  }

  /** The element a press on `el` would drag, if it looks draggable: it or an ancestor near it. */
  function dragHandle(el) {
    let a = el;
    for (let i = 0; a && i < 4; i++, a = a.parentElement) {
      if (a.localName === 'input' && inputType(a) === 'range') return a;
      if (roleOf(a) === 'slider') return a;
      const st = styleOf(a);
      if (st && DRAG_CURSORS[st.cursor] === true) return a;
    }
    return null;
  }

  function onPointerDown(e) {
    recorder.pressing = null;
    if (!e.isTrusted || e.button !== 0 || !e.isPrimary) return;
    const raw = eventTarget(e);
    recorder.pressedAt = { x: e.clientX, y: e.clientY, doc: raw ? raw.ownerDocument : null };
    const handle = raw && !isTextField(raw) ? dragHandle(raw) : null;
    if (!handle) return;
    const d = began(handle);
    d.x = e.clientX;
    d.y = e.clientY;
    recorder.pressing = d;
  }

  function onPointerUp(e) {
    const d = recorder.pressing;
    recorder.pressing = null;
    if (!d || !e.isTrusted || M_hypot(e.clientX - d.x, e.clientY - d.y) < MIN_DRAG_DISTANCE) return;
    reportDrag(d, dropTargetAt(d.el, e.clientX, e.clientY), e);
  }

  /** What the pointer was let go over: the topmost element there that is not the one carried
   *  (it follows the pointer); for a slider, its track, wherever the pointer strayed (a range
   *  input is its own track; an ARIA slider's handle sits in it). */
  function dropTargetAt(carried, x, y) {
    if (carried.localName === 'input') return carried;
    if (roleOf(carried) === 'slider' && carried.parentElement) return carried.parentElement;
    const d = carried.ownerDocument || doc();
    let stack = [];
    try { stack = Doc_elementsFromPoint(d, x, y); } catch (_) { stack = []; }
    for (let i = 0; i < stack.length; i++) {
      if (!isInclusiveDescendant(stack[i], carried)) return stack[i];
    }
    return carried.parentElement || carried;
  }

  /** A click the browser reports after the pointer went from one place to another while
   *  selecting text, or after a drag just reported: not a person's click. (A click from the
   *  keyboard has no pointer, and `detail` 0.) */
  function afterDragOrSelection(e) {
    if (recorder.dragged) return true;
    const at = recorder.pressedAt;
    if (!at || e.detail === 0 || M_hypot(e.clientX - at.x, e.clientY - at.y) < MIN_DRAG_DISTANCE) return false;
    const sel = at.doc ? Doc_getSelection(at.doc) : null;
    return !!sel && !sel.isCollapsed;
  }
