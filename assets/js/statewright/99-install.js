  // ---------------------------------------------------------------------------
  // Install
  // ---------------------------------------------------------------------------
  const api = O_freeze({
    version: 1,
    signals: signals,
    waitForChange: waitForChange,
    actionable: actionable,
    extract: extract,
    prepareTyping: prepareTyping,
    setValue: setValue,
    selectOption: selectOption,
    checkState: checkState,
    watch: watch,
    watched: watched,
    fileInput: fileInput,
    scrollBy: scrollBy,
    scrollIntoView: scrollIntoView,
    snapshot: snapshot,
    locate: locate,
    describe: describe,
    record: record,
    recorded: recorded,
  });
  O_defineProperty(W, '__statewright', { value: api, writable: false, enumerable: false, configurable: true });
})();
