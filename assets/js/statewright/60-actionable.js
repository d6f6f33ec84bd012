  // ---------------------------------------------------------------------------
  // 3. actionable
  // ---------------------------------------------------------------------------
  let frameNo = 0;

  /** Resolve after the next animation frame (or a mutation, when asked), 100 ms at most. */
  function tick(wakeOnMutation) {
    return new _Promise(function (resolve) {
      let done = false;
      let rafId = null;
      let timer = null;
      let mo = null;
      const fin = function (frame) {
        if (done) return;
        done = true;
        if (frame) frameNo++;
        if (rafId !== null) { try { Win_caf(W, rafId); } catch (_) { /* ignore */ } }
        cancel(timer);
        if (mo) { try { MO_disconnect(mo); } catch (_) { /* ignore */ } }
        resolve();
      };
      try { rafId = Win_raf(W, function () { rafId = null; fin(true); }); } catch (_) { rafId = null; }
      // Fallback when rAF is throttled (background tabs); counts as a frame.
      timer = later(function () { fin(true); }, 100);
      if (wakeOnMutation) {
        try {
          mo = new _MO(function () { fin(false); });
          MO_observe(mo, doc(), MO_OPTIONS);
        } catch (_) { mo = null; }
      }
    });
  }

  function timelineTime() {
    const tl = doc().timeline;
    const t = tl ? tl.currentTime : null;
    return typeof t === 'number' ? t : -1;
  }

  /**
   * Has an animation frame passed since `prev` was recorded? Frames are told apart by the
   * document timeline's time; when no frames are produced at all (throttled background
   * page) our fallback ticks count after 300 ms.
   */
  function newFrameSince(prev) {
    if (prev.frame >= frameNo) return false;
    const t = timelineTime();
    return t === -1 || t !== prev.time || now() - prev.at > 300;
  }

  /** An animation affecting `el` (on it or an ancestor) that hasn't started yet (its first
   *  frames keep the box still), or with `running`, one that is under way. */
  function animationOn(el, running) {
    if (!Doc_getAnimations) return false;
    let list;
    try { list = Doc_getAnimations(doc()); } catch (_) { return false; }
    for (let i = 0; i < list.length; i++) {
      const a = list[i];
      if (!a.pending && !(running && a.playState === 'running')) continue;
      const eff = a.effect;
      const t = eff ? eff.target : null;
      if (t && (t === el || Node_contains(t, el))) return true;
    }
    return false;
  }

  function hasPendingAnimation(el) { return animationOn(el, false); }

  /** The element's box in the top viewport, where the engine's input events land. */
  function rectOf(el) {
    const r = El_getBCR(el);
    const at = frameOf(el) ? frameView(el) : null;
    return at ? { x: r.left + at.x, y: r.top + at.y, width: r.width, height: r.height }
      : { x: r.left, y: r.top, width: r.width, height: r.height };
  }
  function rectEq(a, b) {
    return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
  }
  function viewport() {
    const d = doc();
    const de = d.documentElement;
    let w = W.innerWidth;
    let h = W.innerHeight;
    if (de && d.compatMode === 'CSS1Compat') {
      if (de.clientWidth > 0) w = de.clientWidth;
      if (de.clientHeight > 0) h = de.clientHeight;
    }
    return { width: w, height: h };
  }
  /** What of the top viewport can show `el`: all of it, less what its frames clip. */
  function viewArea(el) { return frameView(el).area; }
  function fullyInside(r, a) {
    return r.x >= a.left && r.y >= a.top && r.x + r.width <= a.right && r.y + r.height <= a.bottom;
  }
  function pointInside(p, a) { return p.x >= a.left && p.y >= a.top && p.x < a.right && p.y < a.bottom; }
  function fraction(v, dflt) {
    if (typeof v !== 'number' || !N_isFinite(v)) return dflt;
    return M_min(1, M_max(0, v));
  }
  function actionPoint(r, position) {
    const fx = fraction(position && position.x, 0.5);
    const fy = fraction(position && position.y, 0.5);
    const ex = M_min(0.5, r.width / 4);
    const ey = M_min(0.5, r.height / 4);
    return {
      x: M_min(r.x + r.width - ex, M_max(r.x + ex, r.x + r.width * fx)),
      y: M_min(r.y + r.height - ey, M_max(r.y + ey, r.y + r.height * fy)),
    };
  }

  /** Other points of an element to try when its centre is covered, nearest the centre
   *  first (fractions of its box). */
  const VISIBLE_POINTS = [
    [0.5, 0.3], [0.5, 0.7], [0.3, 0.5], [0.7, 0.5], [0.3, 0.3], [0.7, 0.3], [0.3, 0.7], [0.7, 0.7],
    [0.5, 0.1], [0.5, 0.9], [0.1, 0.5], [0.9, 0.5], [0.3, 0.1], [0.7, 0.1], [0.3, 0.9], [0.7, 0.9],
    [0.1, 0.3], [0.9, 0.3], [0.1, 0.7], [0.9, 0.7], [0.1, 0.1], [0.9, 0.1], [0.1, 0.9], [0.9, 0.9],
  ];
  /** A point of the box `r` inside the area `a` where the element itself takes the hit. */
  function visiblePoint(r, a, receives) {
    for (let i = 0; i < VISIBLE_POINTS.length; i++) {
      const p = actionPoint(r, { x: VISIBLE_POINTS[i][0], y: VISIBLE_POINTS[i][1] });
      if (!pointInside(p, a)) continue;
      if (receives(deepElementFromPoint(p.x, p.y))) return p;
    }
    return null;
  }

  /** Where a covered element is scrolled to next, in turn (Playwright cycles the same). */
  const REALIGNMENTS = ['center', 'end', 'start', 'nearest'];

  /** The element a click at (x, y) of the top viewport lands on, through open shadow roots
   *  and same-origin frames. */
  function deepElementFromPoint(x, y) {
    let el = Doc_elementFromPoint(doc(), x, y);
    for (;;) {
      while (el && el.shadowRoot && SR_elementFromPoint) {
        const inner = SR_elementFromPoint(el.shadowRoot, x, y);
        if (!inner || inner === el) break;
        el = inner;
      }
      const inner = el && isFrame(el) ? frameDocument(el) : null;
      if (!inner) return el;
      const v = frameViewport(el);
      x -= v.x;
      y -= v.y;
      const hit = Doc_elementFromPoint(inner, x, y);
      if (!hit) return el;
      el = hit;
    }
  }
  /** `node` is `root` or a (shadow-including) descendant of it. */
  function isInclusiveDescendant(node, root) {
    for (let n = node; n; ) {
      if (n === root) return true;
      if (n.parentNode) n = n.parentNode;
      else if (n.nodeType === 11 && n.host) n = n.host;
      else break;
    }
    return false;
  }

  /** The hit point is on a <label> of `el` (clicking it activates the control). */
  function labelFor(hit, el) {
    const l = hit.nodeType === 1 ? El_closest(hit, 'label') : null;
    return !!l && l.control === el;
  }

  function fail(reason, message) { return { ok: false, reason: reason, message: message }; }

  /** `actionable`'s answer for a file field (`fileInput` asked). */
  function fileField(input, target, opts) {
    const found = { ok: true, fileInput: true, multiple: !!input.multiple, description: describeEl(input) };
    found.element = elementId(input) + '@' + TIME_ORIGIN;
    if (opts.alternatives === true) found.alternatives = alternativesSafely(input, target);
    return found;
  }

  async function actionable(target, opts) {
    opts = opts && typeof opts === 'object' ? opts : {};
    const timeout = typeof opts.timeoutMs === 'number' && opts.timeoutMs >= 0 ? opts.timeoutMs : 5000;
    const needEnabled = opts.enabled === true;
    const needEditable = opts.editable === true;
    const hitTest = opts.hitTest === true;
    const allowScroll = opts.scroll !== false;
    const position = opts.position && typeof opts.position === 'object' ? opts.position : null;
    const deadline = now() + timeout;

    let last = fail('not_found', 'no element matches ' + describeTarget(target));
    let prev = null; // {el, rect, frame}
    let scrolledEl = null;
    let realigned = 0; // scrolls that moved a covered element elsewhere in the viewport
    let iterations = 0;

    for (;;) {
      iterations++;
      let wakeOnMutation = true;
      const res = resolveTarget(target);
      if (res.invalid) return fail('invalid_selector', res.message);
      let el = pickTarget(res, target);
      if (el && needEditable) el = controlOf(el);
      // What is clicked for `check`; the control it stands for must be enabled too.
      const control = el && opts.check === true ? checkableOf(el) : null;
      if (control) el = pressableFor(el);
      const file = el && opts.fileInput === true ? fileInputOf(el) : null;
      if (file) {
        // A file field is given its files, not clicked: shown or not (styled pages hide
        // it behind a button), it only has to be enabled.
        if (!isDisabled(file)) return fileField(file, target, opts);
        last = fail('disabled', describeEl(file) + ' is disabled');
      } else if (!el) {
        last = fail('not_found', notFoundMessage(target, res));
        prev = null;
      } else if (!isVisible(el)) {
        last = fail('not_visible', describeEl(el) + ' is not visible');
        prev = null;
      } else {
        const rect = rectOf(el);
        // Stable: the same box over two frames, as Playwright has it, except that an element
        // nothing animates is taken at once. Waiting for a frame is most of the time between
        // a button appearing and its click, and the hit test below still checks the point.
        const settled = !prev && !animationOn(el, true);
        if (!settled && (!prev || prev.el !== el || !rectEq(prev.rect, rect) || !newFrameSince(prev) || hasPendingAnimation(el))) {
          if (!prev || prev.el !== el || !rectEq(prev.rect, rect)) {
            prev = { el: el, rect: rect, frame: frameNo, time: timelineTime(), at: now() };
          }
          last = fail('not_stable', describeEl(el) + ' is not stable (moving or animating)');
          wakeOnMutation = false;
        } else if (needEnabled && (isDisabled(el) || (control && isDisabled(control)))) {
          last = fail('disabled', describeEl(control || el) + ' is disabled');
        } else if (needEditable && !isEditable(el)) {
          last = fail('not_editable', describeEl(el) + ' is not editable' +
            (el.readOnly ? ' (readonly)' : isDisabled(el) ? ' (disabled)' : ''));
        } else {
          const area = viewArea(el);
          let pt = actionPoint(rect, position);
          const ptInside = pointInside(pt, area);
          if (allowScroll && !fullyInside(rect, area) && (scrolledEl !== el || !ptInside)) {
            try { El_scrollIntoView(el, { block: 'center', inline: 'center', behavior: 'instant' }); } catch (_) { /* ignore */ }
            scrolledEl = el;
            prev = null;
            last = fail('not_stable', describeEl(el) + ' is being scrolled into view');
            wakeOnMutation = false;
          } else if (!ptInside) {
            last = fail('not_visible', describeEl(el) + ' is outside of the viewport');
            wakeOnMutation = false;
          } else {
            let hitOk = true;
            let note = null;
            if (hitTest) {
              const receives = function (h) { return !!h && (isInclusiveDescendant(h, el) || labelFor(h, el)); };
              const hit = deepElementFromPoint(pt.x, pt.y);
              // A person clicks the part of a button they can see; an explicit position is
              // kept as given.
              const seen = receives(hit) || position ? null : visiblePoint(rect, area, receives);
              if (seen) {
                note = 'at (' + round1(seen.x) + ', ' + round1(seen.y) + '): its centre is covered by ' +
                  (hit ? describeCover(hit, el) : 'nothing that takes pointer events');
                pt = seen;
              } else if (!hit) {
                hitOk = false;
                last = fail('obscured', describeEl(el) + ' does not receive pointer events at (' +
                  round1(pt.x) + ', ' + round1(pt.y) + ')');
              } else if (!receives(hit)) {
                hitOk = false;
                last = fail('obscured', 'obscured by ' + describeCover(hit, el));
              }
            }
            if (!hitOk && allowScroll && !position) {
              // Covered where it is (a sticky header over the section a link jumped to): show it
              // at another place of the viewport, trying each alignment in turn, as Playwright
              // does. An element nothing covers is never scrolled here.
              const align = REALIGNMENTS[realigned % REALIGNMENTS.length];
              realigned++;
              try { El_scrollIntoView(el, { block: align, inline: align, behavior: 'instant' }); } catch (_) { /* ignore */ }
              scrolledEl = el;
              prev = null;
            }
            if (hitOk) {
              const found = {
                ok: true,
                x: pt.x,
                y: pt.y,
                rect: rect,
                tag: el.localName,
                description: describeEl(el),
              };
              if (note) found.note = note;
              // This very node: a button made anew (or a new page) is another element.
              found.element = elementId(el) + '@' + TIME_ORIGIN;
              if (opts.alternatives === true) found.alternatives = alternativesSafely(el, target);
              return found;
            }
            wakeOnMutation = false;
          }
        }
      }
      if (now() >= deadline && iterations >= 3) return last;
      await tick(wakeOnMutation);
    }
  }

