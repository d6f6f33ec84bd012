import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HelpBadges } from './HelpBadges';
import type { RunEvent } from './events';
import { emptyRun, noHelp, reduceAll } from './reducer';

/** A step's badges as the timeline shows them: badge kind → text, and each one's hover text. */
function badges(help: Partial<typeof noHelp>, tabs: string[]): { texts: Record<string, string>; titles: Record<string, string> } {
  const html = renderToStaticMarkup(createElement(HelpBadges, { help, short: true, tabs }));
  const texts: Record<string, string> = {};
  const titles: Record<string, string> = {};
  for (const [, kind, title, text] of html.matchAll(/data-testid="help-([a-zA-Z]+)" title="([^"]*)">([^<]*)<\/span>/g)) {
    texts[kind] = text;
    titles[kind] = title;
  }
  return { texts, titles };
}

describe('a step’s tab badge', () => {
  const url = 'http://127.0.0.1:4000/account?session=***';
  const entered = (step: number, state: string): RunEvent => ({ event: 'state_entered', step, state, state_index: 0, visit: 1, elapsed_ms: step * 100, url: 'http://site/', checks: [] });

  it('shows on the step whose action opened a tab the run went on in, saying where on hover', () => {
    const view = reduceAll(emptyRun, [
      { event: 'run_started', workflow: 'shop', states: 2 },
      entered(1, 'Shop'),
      { event: 'tab_opened', step: 1, state: 'Shop', index: 0, url },
      entered(2, 'Account'),
    ]);
    const [shop, account] = view.steps;
    expect(shop.tabs).toEqual([url]);
    const { texts, titles } = badges(shop.help, shop.tabs);
    expect(texts).toEqual({ tabs: 'new tab' });
    expect(titles.tabs).toBe(`opened a tab; the run went on in it, at ${url}`);
    expect(badges(account.help, account.tabs).texts).toEqual({});
    // Not something the run needed help with: the run's own badges do not count it.
    expect(view.help).toEqual(noHelp);
    expect(view.notices).toEqual([]);
  });

  it('counts several, beside the step’s other badges', () => {
    const { texts } = badges({ ...noHelp, retries: 1 }, [url, 'http://127.0.0.1:4000/help']);
    expect(texts).toEqual({ tabs: 'new tab ×2', retries: 'retry' });
  });
});
