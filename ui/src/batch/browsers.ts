//! Where a batch's rows get their browsers, as the dialog's fields say it (the CLI's
//! `--shared-browsers`, `--cdp-url` × N with `--per-endpoint`, `--pool`), and endpoint URLs
//! as they may be shown. The shell checks the settings (URLs, bounds of at least 1) and
//! masks what it reports; `maskUrl` is `statewright_chrome::mask_url`, for what the UI
//! itself shows of a URL and for the fake backend.

import type { BatchBrowsers } from '../bindings';

export type BrowsersMode = BatchBrowsers['kind'];

/** The dialog's fields, as typed. */
export interface BrowserFields {
  mode: BrowsersMode;
  /** Shared browsers to launch. */
  shared: string;
  /** Runs at a time in each shared browser. */
  perBrowser: string;
  /** DevTools URLs, one per line. */
  urls: string;
  /** Runs at a time on each URL's endpoint. */
  perEndpoint: string;
  /** A pool file (`{"endpoints": [{"cdp_url", "max_runs"}]}`), optional. */
  poolFile: string;
}

export const defaultBrowserFields: BrowserFields = { mode: 'launch', shared: '2', perBrowser: '1', urls: '', perEndpoint: '1', poolFile: '' };

/** A count as typed: blank is the default; anything else goes as a whole number for the
 * shell to accept or refuse (0 is refused there, with the reason). */
function count(text: string, fallback: number): number {
  const n = Number(text);
  return text.trim() && Number.isFinite(n) ? Math.max(0, Math.floor(n)) : fallback;
}

/** The URL lines, blank ones skipped. */
export const endpointUrls = (urls: string) =>
  urls
    .split(/\r?\n/)
    .map((u) => u.trim())
    .filter(Boolean);

export function browsersFrom(f: BrowserFields): BatchBrowsers {
  switch (f.mode) {
    case 'launch':
      return { kind: 'launch' };
    case 'shared':
      return { kind: 'shared', browsers: count(f.shared, 2), per_browser: count(f.perBrowser, 1) };
    case 'endpoints':
      return { kind: 'endpoints', cdp_urls: endpointUrls(f.urls), per_endpoint: count(f.perEndpoint, 1), pool_file: f.poolFile.trim() || null };
  }
}

const MASK = '***';

/** `url` with its credentials masked: each query value and the userinfo's password (or a
 * bare userinfo, which is a token) become `***`; scheme, host, port and path stay. */
export function maskUrl(url: string): string {
  const [scheme, rest] = url.includes('://') ? [url.slice(0, url.indexOf('://')), url.slice(url.indexOf('://') + 3)] : [null, url];
  const q = rest.indexOf('?');
  const [beforeQuery, query] = q >= 0 ? [rest.slice(0, q), rest.slice(q + 1)] : [rest, null];
  const slash = beforeQuery.indexOf('/');
  const [authority, path] = slash >= 0 ? [beforeQuery.slice(0, slash), beforeQuery.slice(slash)] : [beforeQuery, ''];
  const at = authority.lastIndexOf('@');
  let shown = authority;
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(':');
    shown = `${colon >= 0 ? `${userinfo.slice(0, colon)}:${MASK}` : MASK}@${authority.slice(at + 1)}`;
  }
  let masked = `${scheme != null ? `${scheme}://` : ''}${shown}${path}`;
  if (query != null) {
    const hash = query.indexOf('#');
    const [pairs, fragment] = hash >= 0 ? [query.slice(0, hash), query.slice(hash + 1)] : [query, null];
    const parts = pairs.split('&').map((pair) => (pair.includes('=') ? `${pair.slice(0, pair.indexOf('='))}=${MASK}` : pair === '' ? '' : MASK));
    masked += `?${parts.join('&')}${fragment != null ? `#${fragment}` : ''}`;
  }
  return masked;
}
