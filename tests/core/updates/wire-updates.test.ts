import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import type { JobsOwnership } from '../../../src-main/core/runtime/background-jobs';
import type { UpdatesWiring } from '../../../src-main/core/updates/wire-updates';
import { createHarness, type Harness, type HarnessOptions } from '../support/core-harness';
import { FeedServer, makeKey, signFeed } from './support/feed-fixtures';

/** `updates:*` through the guarded dispatcher, on the core as the app builds it (settings in the data folder). */
describe('updates:* in the core', () => {
  let harness: Harness;

  afterEach(async () => {
    await harness.core.dispose();
  });

  it('keeps the preferences in settings.json and refuses a proxy address with credentials, on its field', async () => {
    harness = await createHarness(null);
    await harness.core.start({});
    const before = await harness.call('updates:status');
    expect(before.preferences).toEqual({ checkAutomatically: true, checkInDemo: false, proxyUrl: null });
    expect(before.installKind).toBe('unpackaged');

    const after = await harness.call('updates:setPreferences', {
      checkAutomatically: false,
      proxyUrl: 'http://127.0.0.1:3128',
    });
    expect(after.preferences).toEqual({
      checkAutomatically: false,
      checkInDemo: false,
      proxyUrl: 'http://127.0.0.1:3128',
    });
    const onDisk = JSON.parse(readFileSync(join(harness.dataDir, 'settings.json'), 'utf8')) as {
      updates: unknown;
    };
    expect(onDisk.updates).toEqual(after.preferences);
    expect(harness.allEvents.some((e) => e.channel === 'updates:changed')).toBe(true);

    const refused = await harness.dispatch('updates:setPreferences', {
      proxyUrl: 'http://user:secret@proxy:3128',
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', fields: [{ field: 'proxyUrl' }] },
    });
    expect(JSON.stringify(refused)).not.toContain('secret@');
  });

  it('refuses a restart or an installer to open before anything was downloaded and verified', async () => {
    harness = await createHarness(null);
    await harness.core.start({});
    // Neither call reaches the feed: there is no verified download to restart into or to open.
    expect(await harness.dispatch('updates:restart', undefined)).toMatchObject({
      ok: false,
      error: { code: 'update_refused' },
    });
    expect(await harness.dispatch('updates:openInstaller', undefined)).toMatchObject({
      ok: false,
      error: { code: 'update_refused' },
    });
  });

  it('checks at start in an app process of an installed copy, owner of the jobs or not, and never in a one-shot command', async () => {
    const feeds = new FeedServer();
    await feeds.start();
    const key = makeKey();
    const signed = {
      product: 'proxy-manager',
      format: 1,
      version: '0.2.0',
      counter: 3,
      expires: '2026-12-01T00:00:00Z',
      releasedAt: '2026-03-01T00:00:00Z',
      notes: 'n',
      artefacts: [],
    };
    feeds.set('/feed.json', { kind: 'body', body: signFeed(signed, [key]) });
    const updates: UpdatesWiring = {
      currentVersion: '0.1.0',
      installation: { kind: 'deb', platform: 'linux-x64-deb', appImagePath: null },
      downloadsDir: '/nonexistent',
      feedUrl: feeds.url('/feed.json'),
      trustedKeys: [key.publicHex],
    };
    const notOwner: JobsOwnership = {
      status: () => ({ owner: false, message: 'elsewhere' }),
      onChange: () => () => undefined,
    };
    const oneShot: JobsOwnership = { ...notOwner, oneShot: true };
    // The check reads a real socket: wait for its outcome, not for time.
    const waitForOffer = async () => {
      for (let i = 0; i < 500 && !(await harness.call('updates:status')).available; i += 1)
        await new Promise((resolve) => setTimeout(resolve, 5));
    };
    try {
      // The harness hands any dependency on to the core; `updates` is the shell's own.
      const withUpdates = (ownership: JobsOwnership) =>
        ({
          clock: new FakeClock(Date.parse('2026-03-10T12:00:00Z')),
          jobsOwnership: ownership,
          updates,
        }) as HarnessOptions;
      harness = await createHarness(null, withUpdates(notOwner));
      await harness.core.start({});
      expect(harness.allEvents.some((e) => e.channel === 'updates:changed')).toBe(true);
      await waitForOffer();
      expect(feeds.hits.get('/feed.json')).toBe(1);
      expect((await harness.call('updates:status')).available?.version).toBe('0.2.0');
      await harness.core.dispose();

      harness = await createHarness(null, withUpdates(oneShot));
      await harness.core.start({});
      // A started check says "checking" before its first await: nothing was said here, nothing started.
      expect(harness.allEvents.filter((e) => e.channel === 'updates:changed')).toEqual([]);
      expect(feeds.hits.get('/feed.json')).toBe(1);
    } finally {
      await feeds.stop();
    }
  });
});
