import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/core-harness';

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
});
