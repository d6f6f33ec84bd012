  // ---------------------------------------------------------------------------
  // Frames
  // ---------------------------------------------------------------------------
  // A login form in an iframe, a legacy application's frameset: to a person they are part of
  // the page, so targets, checks, snapshots and hit tests see into same-origin frames.
  // Cross-origin frames are closed to this script (contentDocument is null) and stay out
  // here: the engine calls the library in each of them through the frame's own session
  // (crates/chrome/src/frames.rs).
  const FRAME_SELECTOR = 'iframe, frame';
  const MAX_FRAME_DEPTH = 4;
  const MAX_FRAMES = 50;

  function isFrame(el) { return el.localName === 'iframe' || el.localName === 'frame'; }

  /** The document shown in `frame` when the page's script may read it, else null. */
  function frameDocument(frame) {
    try {
      const d = frame.contentDocument;
      return d && d.documentElement ? d : null;
    } catch (_) { return null; }
  }

  // The documents and each one's open shadow roots, kept while one synchronous reading of
  // the page lasts (`memoized`): a snapshot or the alternatives of an element ask queryCss
  // hundreds of times, and finding the roots walks the whole DOM. Nothing the page does runs
  // meanwhile, so the DOM cannot change under it (no event is dispatched in one).
  let memo = null;

  /** `fn()` with the documents and shadow roots found once for all its queries. */
  function memoized(fn) {
    if (memo !== null) return fn();
    memo = { docs: null, roots: new _WeakMap(), labels: new _WeakMap() };
    try { return fn(); } finally { memo = null; }
  }

  /** The top document, then each same-origin frame's document, depth first in document order. */
  function documents() {
    if (memo !== null && memo.docs !== null) return memo.docs;
    const top = doc();
    const out = [top];
    const visit = function (d, depth) {
      if (depth >= MAX_FRAME_DEPTH || !d.documentElement) return;
      const frames = Doc_qsa(d, FRAME_SELECTOR);
      for (let i = 0; i < frames.length && out.length <= MAX_FRAMES; i++) {
        const inner = frameDocument(frames[i]);
        if (inner) { push(out, inner); visit(inner, depth + 1); }
      }
    };
    visit(top, 0);
    if (memo !== null) memo.docs = out;
    return out;
  }

  /** The frame element showing the document of `node`, or null in the top document. */
  function frameOf(node) {
    const d = node.ownerDocument;
    if (!d || d === doc()) return null;
    try {
      const v = d.defaultView;
      return v ? v.frameElement : null;
    } catch (_) { return null; }
  }

  /** The box of `frame`'s viewport, in the viewport of the document holding `frame`. */
  function frameViewport(frame) {
    const r = El_getBCR(frame);
    const st = styleOf(frame);
    const px = function (name) { const n = st ? _parseFloat(st[name]) : 0; return N_isFinite(n) ? n : 0; };
    const x = r.left + frame.clientLeft + px('paddingLeft');
    const y = r.top + frame.clientTop + px('paddingTop');
    return {
      x: x,
      y: y,
      width: M_max(0, frame.clientWidth - px('paddingLeft') - px('paddingRight')),
      height: M_max(0, frame.clientHeight - px('paddingTop') - px('paddingBottom')),
    };
  }

  /** Where `el`'s document's viewport starts in the top viewport, and the part of the top
   *  viewport its frames leave visible (the whole viewport outside frames). */
  function frameView(el) {
    let x = 0;
    let y = 0;
    const top = viewport();
    let left = 0;
    let upper = 0;
    let right = top.width;
    let bottom = top.height;
    const chain = [];
    for (let f = frameOf(el); f; f = frameOf(f)) push(chain, f);
    // Outermost first: each frame's box is in the coordinates of the one around it.
    for (let i = chain.length - 1; i >= 0; i--) {
      const v = frameViewport(chain[i]);
      x += v.x;
      y += v.y;
      left = M_max(left, x);
      upper = M_max(upper, y);
      right = M_min(right, x + v.width);
      bottom = M_min(bottom, y + v.height);
    }
    return { x: x, y: y, area: { left: left, top: upper, right: right, bottom: bottom } };
  }

  /** The frames showing `el` are visible themselves. */
  function framesVisible(el) {
    for (let f = frameOf(el); f; f = frameOf(f)) if (!isVisible(f)) return false;
    return true;
  }

  /** Document order across frames: a frame's content comes after everything of the
   *  documents before it in `documents()`. */
  function documentRank(docs) {
    const rank = new _WeakMap();
    for (let i = 0; i < docs.length; i++) WM_set(rank, docs[i], i);
    return function (node) {
      const r = WM_get(rank, node.ownerDocument);
      return r === undefined ? docs.length : r;
    };
  }
