import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { SETTINGS_FOLLOW_MS } from '../../../src-main/core/settings/settings-follower';
import { createHarness, type Harness } from '../support/core-harness';

// The desktop app and web mode share one data folder: what one saves reaches the other.

const cores: Harness[] = [];

afterEach(async () => {
  for (const harness of cores.splice(0)) await harness.core.dispose();
});

async function processOn(dataDir: string, clock: FakeClock): Promise<Harness> {
  const harness = await createHarness(null, { dataDir, clock });
  cores.push(harness);
  await harness.core.start({});
  return harness;
}

describe('settings saved by another process', () => {
  it('show in settings:get at once and reach the owner’s jobs within a second', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pm-settings-'));
    const ownerClock = new FakeClock(Date.parse('2026-03-10T12:00:00Z'));
    const owner = await processOn(dataDir, ownerClock);
    const other = await processOn(dataDir, new FakeClock(Date.parse('2026-03-10T12:00:00Z')));

    await other.call('settings:update', {
      theme: 'dark',
      polling: { usageMinutes: 7 },
      alerts: { trafficRemainingPercent: 35 },
    });

    // Nothing asked yet: the owner's follower finds the change on its next beat and tells its
    // subscribers (the usage poller, the alerts) and its windows.
    expect(owner.allEvents.some((event) => event.channel === 'settings:changed')).toBe(false);
    await ownerClock.advance(SETTINGS_FOLLOW_MS);
    await vi.waitFor(() => {
      const changed = owner.allEvents.filter((event) => event.channel === 'settings:changed');
      expect(changed.at(-1)?.payload).toMatchObject({
        theme: 'dark',
        polling: { usageMinutes: 7 },
        alerts: { trafficRemainingPercent: 35 },
      });
    });
  });

  it('answer settings:get and app:getState with what the other process saved, without waiting', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pm-settings-'));
    const owner = await processOn(dataDir, new FakeClock());
    const other = await processOn(dataDir, new FakeClock());

    await other.call('settings:update', { theme: 'light' });
    expect((await owner.call('settings:get')).theme).toBe('light');

    await other.call('profiles:create', {
      name: 'Made elsewhere',
      baseUrl: 'https://api.example.com/api/v1',
      apiKey: 'k-123',
      storage: 'session',
    });
    const state = await owner.call('app:getState');
    expect(state.profiles.map((profile) => profile.name)).toContain('Made elsewhere');
  });
});
