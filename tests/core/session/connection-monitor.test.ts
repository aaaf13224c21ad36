import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NetworkError } from '../../../src-main/api';
import type { ProfileChange, ProfileView } from '../../../src-main/core/profiles/profiles-service';
import { ConnectionMonitor } from '../../../src-main/core/session/connection-monitor';
import type { AppState, TopUpsChanged } from '../../../src-shared/contract';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from '../support/core-harness';

describe('ConnectionMonitor: the status bar follows the active profile only', () => {
  let sandbox: TestSandbox;
  let other: TestSandbox;
  let h: Harness;
  let activeId: string;
  let otherId: string;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    other = await TestSandbox.start();
    h = await createHarness(sandbox);
    otherId =
      (
        await h.call('profiles:create', {
          name: 'Other account',
          baseUrl: other.baseUrl,
          apiKey: DEMO_KEY,
          storage: 'session',
        })
      ).activeProfile?.id ?? '';
    activeId =
      (
        await h.call('profiles:create', {
          name: 'Main',
          baseUrl: sandbox.baseUrl,
          apiKey: DEMO_KEY,
          storage: 'session',
        })
      ).activeProfile?.id ?? '';
    await sandbox.control('DELETE', '/requests');
  });

  afterEach(async () => {
    await h.core.dispose();
    await sandbox.close();
    await other.close();
  });

  const connection = async () => (await h.call('app:getState')).connection;

  it('checks with one small authenticated call (GET /v1/topups?perPage=1), not the port list', async () => {
    const state = await h.call('connection:check');
    expect(state.connection.status).toBe('online');
    expect((await sandbox.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/v1/v1/topups?perPage=1',
    ]);
    // Its answer is not thrown away: the newest top-up goes out to the UI.
    const changed = h.allEvents.filter((e) => e.channel === 'topups:changed').at(-1)
      ?.payload as TopUpsChanged;
    expect(changed.profileId).toBe(activeId);
    expect(changed.changed).toHaveLength(1);
  });

  it('a background failure for another profile leaves the active connection as it is', async () => {
    expect((await connection()).status).toBe('online');
    const pushesBefore = h.events.length;
    await other.fault({ match: '/v1/mobile', dropConnection: true, times: 5 });
    await expect(h.core.services.ports.refresh(otherId)).rejects.toMatchObject({ kind: 'network' });
    await other.fault({ match: '/v1/residential', status: 401, times: 5 });
    await expect(h.core.services.subscriptions.refresh(otherId)).rejects.toThrow();
    expect(await connection()).toMatchObject({ status: 'online', message: 'Connected to Main.' });
    expect(h.events.slice(pushesBefore).map((s: AppState) => s.connection.status)).not.toContain('offline');
    expect(h.events.slice(pushesBefore).map((s: AppState) => s.connection.status)).not.toContain(
      'key_rejected',
    );
  });

  it('a background success for another profile does not make an offline active profile online', async () => {
    await sandbox.fault({ match: '/v1/mobile', dropConnection: true, times: 5 });
    await expect(h.call('ports:list')).rejects.toMatchObject({ code: 'network_error' });
    expect((await connection()).status).toBe('offline');
    expect((await h.core.services.ports.refresh(otherId)).length).toBeGreaterThan(0);
    expect((await connection()).status).toBe('offline');
  });

  it('a background call for the active profile counts like a UI call', async () => {
    await sandbox.fault({ match: '/v1/mobile', dropConnection: true, times: 5 });
    await expect(h.core.services.ports.refresh(activeId)).rejects.toThrow();
    expect((await connection()).status).toBe('offline');
  });
});

describe('ConnectionMonitor: answers for a profile no longer active', () => {
  it('drops an outcome that arrives after the user switched profiles', () => {
    let active = { id: 'a', name: 'A' };
    const listeners: ((change: ProfileChange) => void)[] = [];
    let changes = 0;
    const monitor = new ConnectionMonitor({
      profiles: {
        active: () => active as ProfileView,
        onChange: (listener) => {
          listeners.push(listener);
          return () => undefined;
        },
      },
      pool: { clientFor: () => Promise.reject(new Error('not used')) },
      events: { emit: () => undefined },
      now: () => new Date('2026-03-10T12:00:00Z'),
    });
    monitor.subscribe(() => {
      changes += 1;
    });
    const startedForA = monitor.begin();
    active = { id: 'b', name: 'B' };
    for (const listener of listeners) listener({ profileId: 'b', kind: 'activated' });
    const offline = new NetworkError('connection reset', 'ECONNRESET', 'exchange', {
      endpoint: 'GET /v1/mobile',
      attempts: 1,
      outcomeUnknown: false,
      affects: null,
      idempotencyKey: null,
    });
    monitor.record('a', startedForA, 'authenticated', { ok: false, error: offline });
    // Even a late answer naming the profile that is active again does not count: it began before.
    active = { id: 'a', name: 'A' };
    monitor.record('a', startedForA, 'authenticated', { ok: false, error: offline });
    expect(monitor.state().status).toBe('not_configured');
    expect(changes).toBe(0);

    monitor.record('a', monitor.begin(), 'authenticated', { ok: false, error: offline });
    expect(monitor.state().status).toBe('offline');
    expect(changes).toBe(1);
  });
});
