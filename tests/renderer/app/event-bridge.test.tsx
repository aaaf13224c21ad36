import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ConnectedListener } from '../../../src-renderer/src/api/transport-events';
import { watchAccountScope } from '../../../src-renderer/src/app/account-scope';
import { connectEventBridge } from '../../../src-renderer/src/app/event-bridge';
import { useAppStore } from '../../../src-renderer/src/features/app/app-store';
import { usePortsStore } from '../../../src-renderer/src/features/ports/ports-store';
import { useSettingsStore } from '../../../src-renderer/src/features/settings/settings-store';
import { useSubscriptionsStore } from '../../../src-renderer/src/features/subscriptions/subscriptions-store';
import { TopUpsScreen } from '../../../src-renderer/src/features/topups/TopUpsScreen';
import { useTopUpsStore } from '../../../src-renderer/src/features/topups/topups-store';
import type { RendererApi } from '../../../src-shared/contract';
import { ok } from '../support/fake-api';
import {
  portsAnswer,
  appState,
  port,
  profile,
  settingsView,
  subscription,
  topUp,
  topUpPage,
} from '../support/fixtures';
import { settle, useFakeApi } from '../support/renderer-test-kit';

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The transport's connection hook, driven by the test. */
function fakeConnections() {
  const listeners = new Set<ConnectedListener>();
  return {
    onConnected: (listener: ConnectedListener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    open: (reconnect: boolean) => listeners.forEach((listener) => listener({ reconnect })),
    count: () => listeners.size,
  };
}

const portIds = () => usePortsStore.getState().ports.data?.map((p) => `${p.id}:${p.currentIp}`);

describe('event bridge', () => {
  const fake = useFakeApi(() => ({
    'app:getState': () => ok(appState()),
    'ports:list': () => ok(portsAnswer([port(), port({ id: 'port_2', currentIp: '10.0.0.2' })])),
    'subscriptions:list': (input) =>
      ok(
        [
          subscription(),
          subscription({ id: 'sub_gb', productId: 'mobile-gb', label: 'Mobile GB one' }),
        ].filter((s) => !input?.productId || s.productId === input.productId),
      ),
    'topups:list': () => ok(topUpPage([topUp({ id: 'topup_1', status: 'verifying', final: false })])),
    'settings:get': () => ok(settingsView()),
  }));

  /** Connects with the app state read, as the app does at start. */
  async function connected(options: Parameters<typeof connectEventBridge>[0] = {}) {
    const disconnect = connectEventBridge({ onConnected: null, ...options });
    await flush();
    return disconnect;
  }

  it('listens to app:stateChanged, reads the state once, and disconnects every listener', async () => {
    const disconnect = await connected();
    expect(fake.current.callsTo('app:getState')).toHaveLength(1);
    expect(useAppStore.getState().state?.activeProfile?.name).toBe('Work');

    const pushed = appState({ connection: { status: 'offline', message: 'No route', checkedAt: null } });
    fake.current.emitState(pushed);
    expect(useAppStore.getState().state).toBe(pushed);

    expect(fake.current.listenerCount('*')).toBe(14);
    disconnect();
    expect(fake.current.listenerCount('*')).toBe(0);
  });

  it('merges ports:changed into the loaded ports of the active profile: replaced in place, new ones added', async () => {
    await connected();
    await usePortsStore.getState().load();
    fake.current.emit('ports:changed', {
      profileId: 'prof_work',
      changed: [port({ id: 'port_2', currentIp: '10.9.9.9' }), port({ id: 'port_3', currentIp: '10.0.0.3' })],
    });
    expect(portIds()).toEqual(['port_1:100.85.1.2', 'port_2:10.9.9.9', 'port_3:10.0.0.3']);
    expect(usePortsStore.getState().ports.status).toBe('ready');
  });

  it('ignores changes for another profile (background jobs run for every profile)', async () => {
    await connected();
    await usePortsStore.getState().load();
    await useSubscriptionsStore.getState().load('all');
    await useTopUpsStore.getState().load();
    const before = {
      ports: usePortsStore.getState().ports,
      subscriptions: useSubscriptionsStore.getState().lists,
      topUps: useTopUpsStore.getState().page,
    };
    fake.current.emit('ports:changed', { profileId: 'prof_home', changed: [port({ currentIp: '1.1.1.1' })] });
    fake.current.emit('subscriptions:changed', {
      profileId: 'prof_home',
      changed: [subscription({ label: 'Other' })],
    });
    fake.current.emit('topups:changed', { profileId: 'prof_home', changed: [topUp({ status: 'credited' })] });
    expect(usePortsStore.getState().ports).toBe(before.ports);
    expect(useSubscriptionsStore.getState().lists).toBe(before.subscriptions);
    expect(useTopUpsStore.getState().page).toBe(before.topUps);
  });

  it('ignores payloads of another shape instead of breaking the lists', async () => {
    await connected();
    await usePortsStore.getState().load();
    const before = usePortsStore.getState().ports;
    fake.current.emit('ports:changed', { profileId: 'prof_work', changed: 'port_1' });
    fake.current.emit('ports:changed', { profileId: 'prof_work', changed: [{ label: 'no id' }] });
    fake.current.emit('ports:changed', null);
    fake.current.emit('settings:changed', 'dark');
    expect(usePortsStore.getState().ports).toBe(before);
    expect(useSettingsStore.getState().settings.status).toBe('idle');
  });

  it('merges subscriptions:changed into every loaded list, adding a new one only where its product fits', async () => {
    await connected();
    await useSubscriptionsStore.getState().load('all');
    await useSubscriptionsStore.getState().load('residential');
    fake.current.emit('subscriptions:changed', {
      profileId: 'prof_work',
      changed: [
        subscription({ id: 'sub_1', label: 'Renamed' }),
        subscription({ id: 'sub_new', productId: 'mobile-gb', label: 'New GB' }),
      ],
    });
    const labels = (filter: 'all' | 'residential') =>
      useSubscriptionsStore.getState().lists[filter]?.data?.map((s) => s.label);
    expect(labels('all')).toEqual(['Renamed', 'Mobile GB one', 'New GB']);
    expect(labels('residential')).toEqual(['Renamed']);
    expect(useSubscriptionsStore.getState().lists['mobile-gb']).toBeUndefined();
  });

  it('shows a top-up whose status changed in the list at once, without Refresh', async () => {
    await connected();
    render(<TopUpsScreen />);
    const table = await screen.findByRole('table', { name: 'Top-ups' });
    const row = () => within(table).getAllByRole('row')[1]!;
    expect(within(row()).getByText('Verifying')).toBeTruthy();
    act(() =>
      fake.current.emit('topups:changed', {
        profileId: 'prof_work',
        changed: [topUp({ id: 'topup_1', status: 'credited', final: true })],
      }),
    );
    expect(within(row()).getByText('Credited')).toBeTruthy();
    expect(within(table).queryByText('Verifying')).toBeNull();
    expect(fake.current.callsTo('topups:list')).toHaveLength(1);
  });

  it('puts a new top-up first on page 1 when it fits the filter, and counts it', async () => {
    await connected();
    await useTopUpsStore.getState().load();
    fake.current.emit('topups:changed', {
      profileId: 'prof_work',
      changed: [topUp({ id: 'topup_new', status: 'awaiting_payment', final: false })],
    });
    const page = useTopUpsStore.getState().page.data;
    expect(page?.data.map((t) => t.id)).toEqual(['topup_new', 'topup_1']);
    expect(page?.pagination.total).toBe(2);

    await useTopUpsStore.getState().setStatus('credited');
    const credited = useTopUpsStore.getState().page.data;
    fake.current.emit('topups:changed', {
      profileId: 'prof_work',
      changed: [topUp({ id: 'topup_other', status: 'awaiting_payment', final: false })],
    });
    expect(useTopUpsStore.getState().page.data).toBe(credited);
  });

  it('replaces the settings with settings:changed', async () => {
    await connected();
    await useSettingsStore.getState().load();
    const changed = settingsView({ theme: 'dark' });
    fake.current.emit('settings:changed', changed);
    expect(useSettingsStore.getState().settings).toEqual({ status: 'ready', data: changed, error: null });
  });

  it('after a reconnect reads the state again and reloads the lists that were loaded, and only those', async () => {
    const connections = fakeConnections();
    await connected({ onConnected: connections.onConnected });
    await usePortsStore.getState().load();
    await useSubscriptionsStore.getState().load('residential');
    await useSettingsStore.getState().load();
    const callsBefore = fake.current.calls.length;

    // The first opening of the socket: events may have been sent between the first read and it.
    connections.open(false);
    await flush();
    expect(fake.current.calls.slice(callsBefore).map((c) => c.channel)).toEqual(['app:getState']);

    fake.current.handle('ports:list', () => ok(portsAnswer([port({ currentIp: '10.1.1.1' })])));
    connections.open(true);
    await flush();
    await flush();
    const after = fake.current.calls.slice(callsBefore + 1);
    expect(after.map((c) => c.channel).sort()).toEqual(
      ['app:getState', 'ports:list', 'ports:relocations', 'settings:get', 'subscriptions:list'].sort(),
    );
    expect(fake.current.callsTo('subscriptions:list').at(-1)).toEqual({ productId: 'residential' });
    expect(portIds()).toEqual(['port_1:10.1.1.1']);
    expect(fake.current.callsTo('topups:list')).toEqual([]);
  });

  it('reloads nothing of the previous account when the account changed while disconnected', async () => {
    const connections = fakeConnections();
    const stopScope = watchAccountScope();
    await connected({ onConnected: connections.onConnected });
    await usePortsStore.getState().load();
    fake.current.handle('app:getState', () =>
      ok(appState({ activeProfile: profile({ id: 'prof_home', name: 'Home' }) })),
    );
    connections.open(true);
    await flush();
    await flush();
    expect(fake.current.callsTo('ports:list')).toHaveLength(1);
    expect(usePortsStore.getState().ports.status).toBe('idle');
    stopScope();
  });

  it('stops following reconnects once disconnected', async () => {
    const connections = fakeConnections();
    const disconnect = await connected({ onConnected: connections.onConnected });
    expect(connections.count()).toBe(1);
    disconnect();
    expect(connections.count()).toBe(0);
  });

  it('still follows the app state when window.api has none of the new events yet (an older preload)', async () => {
    const older = { app: fake.current.api.app } as unknown as RendererApi;
    const disconnect = await connected({ api: older });
    expect(useAppStore.getState().state?.activeProfile?.name).toBe('Work');
    expect(useAppStore.getState().loadError).toBeNull();
    disconnect();
  });

  it('reports a transport that cannot subscribe, instead of a silent app', async () => {
    const broken = {
      app: {
        ...fake.current.api.app,
        onStateChanged: () => {
          throw new Error('no events');
        },
        getState: () => Promise.resolve(ok(appState())),
      },
    } as unknown as RendererApi;
    connectEventBridge({ api: broken, onConnected: null });
    await settle();
    expect(useAppStore.getState().actionError?.message).toMatch(/no events/);
    // It still reads: the app works, it only cannot follow changes made elsewhere.
    expect(useAppStore.getState().state?.activeProfile?.name).toBe('Work');
  });
});
