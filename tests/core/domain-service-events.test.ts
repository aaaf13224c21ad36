import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PortsChanged, SubscriptionsChanged, TopUpsChanged } from '../../src-shared/contract';
import { portRowsOf } from '../../src-shared/contract/ports';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from './support/core-harness';

describe('domain services: background reads reach the UI as events', () => {
  let sandbox: TestSandbox;
  let h: Harness;
  let profileId: string;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    h = await createHarness(sandbox);
    const state = await h.call('profiles:create', {
      name: 'Main',
      baseUrl: sandbox.baseUrl,
      apiKey: DEMO_KEY,
      storage: 'session',
    });
    profileId = state.activeProfile?.id ?? '';
    h.allEvents.length = 0;
  });

  afterEach(async () => {
    await h.core.dispose();
    await sandbox.close();
  });

  const eventsOn = <T>(channel: string) =>
    h.allEvents.filter((e) => e.channel === channel).map((e) => e.payload as T);

  it('ports: a UI list answers its caller only; a background refresh emits ports:changed for its profile', async () => {
    const listed = await h.call('ports:list');
    expect(eventsOn('ports:changed')).toEqual([]);
    const refreshed = await h.core.services.ports.refresh(profileId);
    // The list kept its snapshot: the refresh announces only what differs from it (nothing here)
    // and the list's new age.
    expect(eventsOn<PortsChanged>('ports:changed')).toEqual([
      expect.objectContaining({ profileId, changed: [], asOf: expect.any(String) }),
    ]);
    expect(refreshed.map((port) => port.id)).toEqual(portRowsOf(listed).map((port) => port.id));
    expect(JSON.stringify(h.allEvents)).not.toContain(DEMO_KEY);
    for (const port of refreshed) expect(port).not.toHaveProperty('rotationLink');
  });

  it('subscriptions: a background refresh emits subscriptions:changed', async () => {
    const refreshed = await h.core.services.subscriptions.refresh(profileId);
    expect(refreshed.length).toBeGreaterThan(0);
    // No snapshot before: a background read announces the whole list, with its age.
    expect(eventsOn<SubscriptionsChanged>('subscriptions:changed')).toEqual([
      expect.objectContaining({ profileId, changed: refreshed, asOf: expect.any(String) }),
    ]);
  });

  it('topups: a background read of one top-up emits topups:changed', async () => {
    const page = await h.call('topups:list', { perPage: 1 });
    const id = page.data[0]?.id ?? '';
    const topUp = await h.core.services.topups.refreshOne(profileId, id);
    expect(eventsOn<TopUpsChanged>('topups:changed')).toEqual([{ profileId, changed: [topUp] }]);
  });
});
