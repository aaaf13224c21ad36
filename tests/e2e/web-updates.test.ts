import { afterAll, describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../src-shared/contract';
import { FeedServer, makeKey, signFeed } from '../core/updates/support/feed-fixtures';
import { callApi, openApp, openScreen, useWebSession } from './support/app-page';
import { requireBrowser, screenshot, seriousAxeViolations } from './support/browser';

/**
 * Updates in web mode, end to end: the page, the web transport, the dispatcher and the core's
 * updates service against a feed server on 127.0.0.1. The app trusts only its built-in keys (their
 * private halves are not here), so a feed signed by a key made here must be refused, and the window
 * must say so. Web mode under npm is not an installed copy and the demo runs: no check on its own.
 */

const feeds = new FeedServer();
await feeds.start();
// Inherited by the web-mode process the session starts.
process.env.PROXY_MANAGER_UPDATE_FEED_URL = feeds.url('/feed.json');

describe('web mode in a browser: updates', () => {
  const session = useWebSession({ demo: true });
  afterAll(async () => {
    delete process.env.PROXY_MANAGER_UPDATE_FEED_URL;
    await feeds.stop();
  });

  it('Check for updates in Settings refuses a feed signed by an unknown key, and the window says why', async (context) => {
    requireBrowser(context);
    feeds.set('/feed.json', {
      kind: 'body',
      body: signFeed(
        {
          product: 'proxy-manager',
          format: 1,
          version: '99.0.0',
          counter: 1,
          expires: '2099-01-01T00:00:00Z',
          releasedAt: '2026-05-30T12:00:00Z',
          notes: 'Not from the maintainers.',
          artefacts: [],
        },
        [makeKey()],
      ),
    });
    const { page } = await openApp(session, { waitOnline: true });
    await openScreen(page, 'Settings');
    await page.getByRole('heading', { level: 2, name: 'Updates' }).waitFor();
    expect(feeds.hits.get('/feed.json')).toBeUndefined();

    await page.getByRole('button', { name: 'Check for updates' }).click();
    const refused = page.getByTestId('update-refused');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('signed by a key this app does not trust');
    expect(await page.getByText('Update available').count()).toBe(0);
    expect(feeds.hits.get('/feed.json')).toBe(1);
    const status = await callApi<UpdateStatus>(page, 'updates', 'status');
    expect(status.problem?.reason).toBe('unknown_key');
    await screenshot(page, 'demo-updates-refused');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
