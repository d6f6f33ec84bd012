import { describe, expect, it } from 'vitest';
import { browsersFrom, defaultBrowserFields, maskUrl } from './browsers';

describe('batch browsers', () => {
  it('turns the dialog’s fields into the settings the CLI flags make', () => {
    expect(browsersFrom(defaultBrowserFields)).toEqual({ kind: 'launch' });
    expect(browsersFrom({ ...defaultBrowserFields, mode: 'shared', shared: '3', perBrowser: '' })).toEqual({ kind: 'shared', browsers: 3, per_browser: 1 });
    const urls = ' http://127.0.0.1:9301\n\nws://grid:4444/session/1/se/cdp?token=t \r\n';
    expect(browsersFrom({ ...defaultBrowserFields, mode: 'endpoints', urls, perEndpoint: '2', poolFile: ' ' })).toEqual({
      kind: 'endpoints',
      cdp_urls: ['http://127.0.0.1:9301', 'ws://grid:4444/session/1/se/cdp?token=t'],
      per_endpoint: 2,
      pool_file: null,
    });
    expect(browsersFrom({ ...defaultBrowserFields, mode: 'endpoints', poolFile: '/etc/pool.json', perEndpoint: '0' })).toMatchObject({ cdp_urls: [], per_endpoint: 0, pool_file: '/etc/pool.json' });
  });

  // The cases of statewright_chrome's own test: the UI shows URLs as the CLI prints them.
  it('masks credentials as the CLI does', () => {
    for (const [url, shown] of [
      ['ws://127.0.0.1:9222/devtools/browser/ab-12', 'ws://127.0.0.1:9222/devtools/browser/ab-12'],
      ['wss://chrome.browserless.io?token=s3cret', 'wss://chrome.browserless.io?token=***'],
      ['ws://grid:4444/session/42/se/cdp?a=1&b=two&flag', 'ws://grid:4444/session/42/se/cdp?a=***&b=***&***'],
      ['wss://user:hunter2@cloud.example/cdp', 'wss://user:***@cloud.example/cdp'],
      ['wss://tok3n@cloud.example', 'wss://***@cloud.example'],
      ['http://127.0.0.1:9222', 'http://127.0.0.1:9222'],
    ]) {
      expect(maskUrl(url), url).toBe(shown);
    }
  });
});
