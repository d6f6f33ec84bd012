/*
 * Statewright in-page library.
 *
 * Injected by the Rust engine into every document (Page.addScriptToEvaluateOnNewDocument)
 * and evaluated directly in already-loaded pages, then driven with Runtime.evaluate
 * (awaitPromise: true, returnByValue: true). Every argument and return value is plain JSON.
 * The engine runs it in an isolated world (crates/chrome/src/page.rs, WORLD): it shares the
 * page's DOM, not the page's globals, so the page can neither see it nor patch what it uses.
 *
 * Install contract:
 *   - one IIFE defining window.__statewright once (a second evaluation is a no-op);
 *   - never modifies the page's DOM and defines no global besides __statewright;
 *   - captures the builtins it relies on at install time, so prototype patching by scripts
 *     sharing its world (the in-page tests run it in the page's own) doesn't break it;
 *   - no eval / Function / string-executing APIs.
 *
 * Plain ES2020, no modules, no dependencies. The library is one function: this file opens it
 * and 99-install.js closes it; the files of this folder are its sections, joined in file-name
 * order (crates/chrome/build.rs for the engine, ../library.mjs for the tests), and none of
 * them is a script alone.
 *
 * API (window.__statewright):
 *   signals(probes)                        -> {url, title, results: bool[], errors: [{index, message}]}
 *   waitForChange(probes, since, timeoutMs) -> Promise<signals>  (first difference from `since`, or timeout)
 *   actionable(target, opts)               -> Promise<{ok:true, x, y, rect, tag, description, alternatives?}
 *                                                     | {ok:false, reason, message}>
 *       opts.alternatives === true adds alternatives: Target[], other targets that designate the
 *       element found, most stable first (see "alternatives" below).
 *   extract(target, read, attribute, opts) -> Promise<{ok:true, value, description, element?, alternatives?}
 *                                                     | {ok:false, reason, message}>
 *       read: 'text' | 'attribute' | 'value' | 'count' | 'list' | 'table'; opts.timeoutMs as actionable
 *   prepareTyping(target, clear)           -> {ok, message?, description?}
 *   typedValue()                           -> {ok, value}: what the focused field holds, null without one
 *   selectOption(target, {value?, label?}) -> {ok, message?, selected?, label?}
 *       value or label: one string, or a list of them (a <select multiple>'s options), then
 *       selected and label are lists
 *   scrollBy(target|null, dx, dy)          -> {ok, message?, ...scroll position}
 *   scrollIntoView(target)                 -> {ok, message?, rect?}
 *   snapshot(maxTextChars, opts?)          -> {url, title, text, elements: [...], truncated?, unexamined?}
 *       at most 500 elements, listed for at most 1.5 s (opts.budgetMs)
 *   html()                                 -> string: the document's markup (its root's outerHTML, '' without one)
 *   locate(probes)                         -> Target[][]: per element probe, the alternatives of
 *                                             the first visible element it finds
 *   describe(target)                       -> {ok, count, visibleCount, description?, message?}
 *   record(binding)                        -> true; reports what a person does to window[binding] (see "record")
 *   recorded()                             -> {doc, seq}: this document's time origin and how many acts it reported
 *
 * Probe:  {kind:'text', value, mode:'equals'|'contains'} | {kind:'element', by:'css'|'xpath', selector}
 * Target: exactly one of {css|xpath|text|role} (+ name with role) (+ nth, 0-based, negative from the end)
 */
(function () {
  'use strict';

  var W = typeof window === 'object' && window ? window : null;
  if (!W || W.__statewright) return;

  // ---------------------------------------------------------------------------
  // Captured builtins
  // ---------------------------------------------------------------------------
  const FnProto = Function.prototype;
  // uncurry(f)(thisArg, ...args) === f.call(thisArg, ...args), immune to later patching of call/bind.
  const uncurry = FnProto.bind.bind(FnProto.call);

  const O_create = Object.create;
  const O_defineProperty = Object.defineProperty;
  const O_freeze = Object.freeze;
  const O_getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const A_isArray = Array.isArray;
  const JSON_stringify = JSON.stringify;
  const A_sort = uncurry(Array.prototype.sort);
  const N_isFinite = Number.isFinite;
  const _parseInt = parseInt;
  const _parseFloat = parseFloat;
  const _String = String;
  const M_min = Math.min;
  const M_max = Math.max;
  const M_round = Math.round;
  const M_hypot = Math.hypot;

  const S_trim = uncurry(String.prototype.trim);
  const S_toLowerCase = uncurry(String.prototype.toLowerCase);
  const S_toUpperCase = uncurry(String.prototype.toUpperCase);
  const S_toLocaleUpperCase = uncurry(String.prototype.toLocaleUpperCase);
  const S_toLocaleLowerCase = uncurry(String.prototype.toLocaleLowerCase);
  const S_indexOf = uncurry(String.prototype.indexOf);
  const S_charCodeAt = uncurry(String.prototype.charCodeAt);
  const S_slice = uncurry(String.prototype.slice);
  const RE_replace = uncurry(RegExp.prototype[Symbol.replace]);
  const RE_exec = uncurry(RegExp.prototype.exec);

  const _Promise = Promise;
  const P_then = uncurry(Promise.prototype.then);
  const R_apply = Reflect.apply;
  const O_keys = Object.keys;
  const S_toWellFormed = typeof String.prototype.toWellFormed === 'function' ? uncurry(String.prototype.toWellFormed) : null;
  const _RegExp = RegExp;
  const _MO = W.MutationObserver;
  const _WeakMap = WeakMap;
  const _Set = Set;
  const WM_get = uncurry(WeakMap.prototype.get);
  const WM_set = uncurry(WeakMap.prototype.set);
  const Set_add = uncurry(Set.prototype.add);
  const Set_has = uncurry(Set.prototype.has);

  const DocP = Document.prototype;
  const ElP = Element.prototype;
  const NodeP = Node.prototype;
  const FragP = DocumentFragment.prototype;

  const Doc_qsa = uncurry(DocP.querySelectorAll);
  const Doc_qs = uncurry(DocP.querySelector);
  const Frag_qs = uncurry(FragP.querySelector);
  const Frag_qsa = uncurry(FragP.querySelectorAll);
  const Doc_getElementById = uncurry(DocP.getElementById);
  const Frag_getElementById = uncurry(FragP.getElementById);
  const Doc_evaluate = uncurry(DocP.evaluate);
  const Doc_createTreeWalker = uncurry(DocP.createTreeWalker);
  const Doc_createRange = uncurry(DocP.createRange);
  const Doc_elementFromPoint = uncurry(DocP.elementFromPoint);
  const Doc_elementsFromPoint = uncurry(DocP.elementsFromPoint);
  const Doc_getAnimations = typeof DocP.getAnimations === 'function' ? uncurry(DocP.getAnimations) : null;
  const SR_elementFromPoint = typeof ShadowRoot === 'function' && ShadowRoot.prototype.elementFromPoint
    ? uncurry(ShadowRoot.prototype.elementFromPoint) : null;
  // Word boundaries as Chromium's text-transform: capitalize finds them (both are ICU's).
  const WORDS = typeof Intl === 'object' && typeof Intl.Segmenter === 'function'
    ? new Intl.Segmenter(undefined, { granularity: 'word' }) : null;
  const Seg_segment = WORDS ? uncurry(Intl.Segmenter.prototype.segment) : null;
  const Segments_containing = WORDS ? uncurry(Object.getPrototypeOf(WORDS.segment('')).containing) : null;
  const Slot_assignedNodes = typeof HTMLSlotElement === 'function' ? uncurry(HTMLSlotElement.prototype.assignedNodes) : null;
  const El_getBCR = uncurry(ElP.getBoundingClientRect);
  const El_getClientRects = uncurry(ElP.getClientRects);
  const El_matches = uncurry(ElP.matches);
  const El_closest = uncurry(ElP.closest);
  const El_qsa = uncurry(ElP.querySelectorAll);
  const El_getAttribute = uncurry(ElP.getAttribute);
  const El_hasAttribute = uncurry(ElP.hasAttribute);
  const El_scrollIntoView = uncurry(ElP.scrollIntoView);
  const El_scrollBy = uncurry(ElP.scrollBy);
  const El_checkVisibility = typeof ElP.checkVisibility === 'function' ? uncurry(ElP.checkVisibility) : null;
  const Node_contains = uncurry(NodeP.contains);
  const Node_compare = uncurry(NodeP.compareDocumentPosition);
  const Node_getRootNode = uncurry(NodeP.getRootNode);
  const HEl_focus = uncurry(HTMLElement.prototype.focus);
  const TW_nextNode = uncurry(TreeWalker.prototype.nextNode);
  const XR_snapshotItem = uncurry(XPathResult.prototype.snapshotItem);
  const XR_snapshotLength = uncurry(O_getOwnPropertyDescriptor(XPathResult.prototype, 'snapshotLength').get);
  const Range_selectNodeContents = uncurry(Range.prototype.selectNodeContents);
  const Range_collapse = uncurry(Range.prototype.collapse);
  const Range_getBCR = uncurry(Range.prototype.getBoundingClientRect);
  const Sel_removeAllRanges = uncurry(Selection.prototype.removeAllRanges);
  const Sel_addRange = uncurry(Selection.prototype.addRange);
  const In_select = uncurry(HTMLInputElement.prototype.select);
  const In_setSelectionRange = uncurry(HTMLInputElement.prototype.setSelectionRange);
  const In_setValue = uncurry(O_getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set);
  const TA_select = uncurry(HTMLTextAreaElement.prototype.select);
  const TA_setSelectionRange = uncurry(HTMLTextAreaElement.prototype.setSelectionRange);
  const ET_add = uncurry(EventTarget.prototype.addEventListener);
  const ET_remove = uncurry(EventTarget.prototype.removeEventListener);
  const ET_dispatch = uncurry(EventTarget.prototype.dispatchEvent);
  const MO_observe = uncurry(_MO.prototype.observe);
  const MO_disconnect = uncurry(_MO.prototype.disconnect);
  const _Event = Event;

  const Win_getComputedStyle = uncurry(W.getComputedStyle);
  const Win_setTimeout = uncurry(W.setTimeout);
  const Win_clearTimeout = uncurry(W.clearTimeout);
  const Win_raf = uncurry(W.requestAnimationFrame);
  const Win_caf = uncurry(W.cancelAnimationFrame);
  const Win_scrollBy = uncurry(W.scrollBy);
  const Doc_getSelection = uncurry(DocP.getSelection);
  const _perf = W.performance;
  const Perf_now = uncurry(Performance.prototype.now);
  /** This document's time origin: with an element id, an identity no other page reuses. */
  const TIME_ORIGIN = _perf && typeof _perf.timeOrigin === 'number' ? _perf.timeOrigin : 0;
  const CSS_escape = W.CSS && typeof W.CSS.escape === 'function' ? W.CSS.escape : cssEscapeFallback;

  const SHOW_ELEMENT = 1;
  const SHOW_TEXT = 4;
  const XPATH_ORDERED_SNAPSHOT = 7;
  const DOC_POS_FOLLOWING = 4;
  const MO_OPTIONS = { childList: true, subtree: true, attributes: true, characterData: true };

