import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PortsChanged, SubscriptionsChanged, TopUpsChanged } from '../../src-shared/contract';
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
    expect(eventsOn<PortsChanged>('ports:changed')).toEqual([{ profileId, changed: refreshed }]);
    expect(refreshed).toEqual(listed);
    expect(JSON.stringify(h.allEvents)).not.toContain(DEMO_KEY);
    for (const port of refreshed) expect(port).not.toHaveProperty('rotationLink');
  });

  it('subscriptions: a background refresh emits subscriptions:changed', async () => {
    const refreshed = await h.core.services.subscriptions.refresh(profileId);
    expect(refreshed.length).toBeGreaterThan(0);
    expect(eventsOn<SubscriptionsChanged>('subscriptions:changed')).toEqual([
      { profileId, changed: refreshed },
    ]);
  });

  it('topups: a background read of one top-up emits topups:changed', async () => {
    const page = await h.call('topups:list', { perPage: 1 });
    const id = page.data[0]?.id ?? '';
    const topUp = await h.core.services.topups.refreshOne(profileId, id);
    expect(eventsOn<TopUpsChanged>('topups:changed')).toEqual([{ profileId, changed: [topUp] }]);
  });
});
