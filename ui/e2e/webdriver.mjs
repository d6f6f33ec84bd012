// The few WebDriver commands the end-to-end test needs, over fetch: a session on
// tauri-driver, scripts run in the app window, polling until a condition holds.

export class Session {
  constructor(base, id) {
    this.base = base;
    this.id = id;
  }

  static async create(base, application, timeoutMs = 60000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const res = await fetch(`${base}/session`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          // No browserName: tauri-driver picks WebKitWebDriver from tauri:options.
          body: JSON.stringify({ capabilities: { alwaysMatch: { 'tauri:options': { application } } } }),
        });
        const body = await res.json();
        if (!res.ok) throw new Error(JSON.stringify(body.value));
        return new Session(base, body.value.sessionId);
      } catch (e) {
        if (Date.now() > deadline) throw new Error(`no WebDriver session: ${e.message}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  async command(method, path, body) {
    const res = await fetch(`${this.base}/session/${this.id}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json.value)}`);
    return json.value;
  }

  /** Runs `fn` (a function's source, applied to `args`) in the window and returns its value. */
  run(fn, ...args) {
    return this.command('POST', '/execute/sync', { script: `return (${fn}).apply(null, arguments)`, args });
  }

  async waitFor(what, fn, args = [], timeoutMs = 30000) {
    const deadline = Date.now() + timeoutMs;
    let last;
    while (Date.now() < deadline) {
      last = await this.run(fn, ...args).catch((e) => e.message);
      if (last === true) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
  }

  close() {
    return this.command('DELETE', '');
  }
}
