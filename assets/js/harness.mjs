// What the in-page library's tests share: Chromium as they drive it, and a page server on
// loopback.
import http from 'node:http';
import { chromium } from 'playwright-core';

/** Debian's Chromium (or the one STATEWRIGHT_CHROMIUM names), headless. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.STATEWRIGHT_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run'],
  });
}

/** An HTTP server on 127.0.0.1 answering with `handler`: `{port, base, close()}`. */
export async function serve(handler) {
  const server = http.createServer(handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  return { port, base: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}
