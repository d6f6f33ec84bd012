  // ---------------------------------------------------------------------------
  // Install
  // ---------------------------------------------------------------------------
  // A lone UTF-16 surrogate (an emoji a page's slice() cut in half, in its title, its text, a
  // name) goes over DevTools as an escape that the engine's JSON parser refuses: the whole
  // answer was dropped, and the call never answered. Answers carry such a half as U+FFFD.
  const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

  function wellFormed(value) {
    if (typeof value === 'string') {
      return S_toWellFormed ? S_toWellFormed(value) : RE_replace(LONE_SURROGATE, value, '\uFFFD');
    }
    if (value === null || typeof value !== 'object') return value;
    if (A_isArray(value)) {
      const out = [];
      for (let i = 0; i < value.length; i++) push(out, wellFormed(value[i]));
      return out;
    }
    // A table's rows are keyed by its header's text.
    const out = {};
    const keys = O_keys(value);
    for (let i = 0; i < keys.length; i++) out[wellFormed(keys[i])] = wellFormed(value[keys[i]]);
    return out;
  }

  /** `f`, answering well-formed, whether at once or by a promise. */
  function answering(f) {
    return function () {
      const answer = R_apply(f, this, arguments);
      return answer instanceof _Promise ? P_then(answer, wellFormed) : wellFormed(answer);
    };
  }

  const api = O_freeze({
    version: 1,
    signals: answering(signals),
    waitForChange: answering(waitForChange),
    actionable: answering(actionable),
    extract: answering(extract),
    prepareTyping: answering(prepareTyping),
    typedValue: answering(typedValue),
    setValue: answering(setValue),
    selectOption: answering(selectOption),
    checkState: answering(checkState),
    watch: answering(watch),
    watched: answering(watched),
    fileInput: fileInput,
    scrollBy: answering(scrollBy),
    scrollIntoView: answering(scrollIntoView),
    snapshot: answering(snapshot),
    html: answering(html),
    locate: answering(locate),
    describe: answering(describe),
    record: record,
    recorded: answering(recorded),
  });
  O_defineProperty(W, '__statewright', { value: api, writable: false, enumerable: false, configurable: true });
})();
