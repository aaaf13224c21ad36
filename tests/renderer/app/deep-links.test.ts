import { beforeEach, describe, expect, it } from 'vitest';
import { watchAccountScope } from '../../../src-renderer/src/app/account-scope';
import { connectEventBridge } from '../../../src-renderer/src/app/event-bridge';
import { parseDeepLink } from '../../../src-renderer/src/app/deep-links';
import { useAppStore } from '../../../src-renderer/src/features/app/app-store';
import { useTopUpWizardStore } from '../../../src-renderer/src/features/topups/topup-wizard-store';
import { fail, ok } from '../support/fake-api';
import { appState, topUp } from '../support/fixtures';
import { settle, useFakeApi } from '../support/renderer-test-kit';

describe('a clicked notification opens what it is about (app:navigate)', () => {
  const fake = useFakeApi(() => ({
    'app:getState': () => ok(appState()),
    'topups:get': (input) => ok(topUp({ id: input.topUpId, status: 'verifying', final: false })),
    'topups:paymentDetails': () => fail('not_found', 'no details'),
  }));
  beforeEach(() => {
    window.location.hash = '#/catalog';
    useTopUpWizardStore.getState().reset();
  });

  async function connected() {
    const stopScope = watchAccountScope();
    const disconnect = connectEventBridge({ onConnected: null });
    await settle();
    return () => {
      disconnect();
      stopScope();
    };
  }

  it('a port: its detail, at its own address (#/ports/<id>)', async () => {
    const disconnect = await connected();
    fake.current.emit('app:navigate', { route: '/ports/port%202' });
    await settle();
    expect(window.location.hash).toBe('#/ports/port%202');
    disconnect();
  });

  it('the overview (the tray’s Open)', async () => {
    const disconnect = await connected();
    fake.current.emit('app:navigate', { route: '/overview' });
    await settle();
    expect(window.location.hash).toBe('#/overview');
    disconnect();
  });

  it('a subscription: its detail, the id decoded once and encoded again in the fragment', async () => {
    const disconnect = await connected();
    fake.current.emit('app:navigate', { route: '/subscriptions/sub%201' });
    await settle();
    expect(window.location.hash).toBe('#/subscriptions/sub%201');
    disconnect();
  });

  it('a top-up: read by its id and shown in the wizard’s live view; a failed read is said', async () => {
    const disconnect = await connected();
    fake.current.emit('app:navigate', { route: '/topups/topup_9' });
    await settle();
    expect(window.location.hash).toBe('#/topups');
    expect(fake.current.callsTo('topups:get')).toEqual([{ topUpId: 'topup_9' }]);
    expect(useTopUpWizardStore.getState()).toMatchObject({ open: true, topUp: { id: 'topup_9' } });
    useTopUpWizardStore.getState().reset();
    fake.current.handle('topups:get', () => fail('not_found', 'No such top-up.'));
    fake.current.emit('app:navigate', { route: '/topups/topup_gone' });
    await settle();
    expect(useTopUpWizardStore.getState().open).toBe(false);
    expect(useAppStore.getState().actionError?.message).toBe('Cannot open the top-up: No such top-up.');
    disconnect();
  });

  it('ignores a route of any other shape', async () => {
    const disconnect = await connected();
    for (const payload of [
      { route: '/settings/x' },
      { route: 'javascript:alert(1)' },
      { route: '/ports/a/b' },
      { route: '/ports/%E0%A4%A' },
      { route: 42 },
      '/ports/port_2',
      null,
    ]) {
      fake.current.emit('app:navigate', payload);
    }
    await settle();
    expect(window.location.hash).toBe('#/catalog');
    expect(fake.current.callsTo('topups:get')).toEqual([]);
    disconnect();
  });

  it('a window opened by the click starts at the route in its URL, followed after the account is known', async () => {
    window.location.hash = '#/ports/port_2';
    const disconnect = await connected();
    expect(window.location.hash).toBe('#/ports/port_2');
    disconnect();
  });
});

describe('parseDeepLink', () => {
  it('reads main’s route shape, with or without the fragment’s #', () => {
    expect(parseDeepLink('/ports/mp_1')).toEqual({ screen: 'ports', portId: 'mp_1' });
    expect(parseDeepLink('/overview')).toEqual({ screen: 'overview' });
    expect(parseDeepLink('/overview/x')).toBeNull();
    expect(parseDeepLink('/local-proxies')).toEqual({ screen: 'local-proxies' });
    expect(parseDeepLink('/local-proxies/lp-1')).toBeNull();
    expect(parseDeepLink('#/topups/tu%2F1')).toEqual({ screen: 'topups', topUpId: 'tu/1' });
    expect(parseDeepLink('#/subscriptions')).toBeNull();
    expect(parseDeepLink('#token=abc')).toBeNull();
  });
});
