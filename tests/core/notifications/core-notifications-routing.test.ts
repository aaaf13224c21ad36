import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../src-main/core/app-core';
import type { OsNotice } from '../../../src-main/core/notifications/notification-kinds';
import type { TrayStateService } from '../../../src-main/core/tray/tray-state';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import type { TopUpNotice } from '../../../src-main/core/topups/topup-watcher';
import { createIpcHandlers } from '../../../src-main/dispatch/handler-table';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness } from '../support/core-harness';

/**
 * The composition root routes the top-up watcher's outcomes and the usage poller's alerts to the
 * desktop's OS notifier, through the same controller as rotations (suppressed while a window has
 * focus), against the sandbox (whose demo ports include ones about to expire).
 */
describe('buildAppCore: top-up outcomes and usage alerts reach the OS notifier', () => {
  let sandbox: TestSandbox;
  let core: AppCore;
  let clock: FakeClock;
  let shown: OsNotice[];
  let told: TopUpNotice[];
  let focused: boolean;
  let tray: TrayStateService | null;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    clock = new FakeClock(Date.parse('2026-03-10T12:00:00.000Z'));
    shown = [];
    told = [];
    focused = false;
    ({ core } = await createHarness(sandbox, {
      mode: 'desktop',
      clock,
      notifications: { notifier: { show: (n) => shown.push(n) }, isWindowFocused: () => focused },
      notifyTopUp: (notice) => told.push(notice),
      onDesktopParts: (parts) => (tray = parts.tray),
    }));
    await core.start();
  });

  afterEach(async () => {
    await core.dispose();
    await sandbox.close();
  });

  const until = async (done: () => boolean): Promise<void> => {
    for (let i = 0; i < 2000 && !done(); i += 1) await new Promise((r) => setTimeout(r, 2));
    if (!done()) throw new Error('nothing arrived');
  };

  /** A BTC top-up paid in full and confirmed in the sandbox; the watcher's next read sees it credited. */
  async function creditedTopUp(): Promise<void> {
    const handlers = createIpcHandlers(core);
    await handlers['profiles:create']({
      name: 'Work',
      baseUrl: sandbox.baseUrl,
      pathStyle: 'literal',
      apiKey: DEMO_KEY,
      storage: 'session',
      duplicate: 'refuse',
    });
    const topUp = await handlers['topups:create']({
      amountUsd: '50.00',
      coin: 'BTC',
      network: 'bitcoin',
      attemptId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    });
    const paid = await sandbox.control('POST', '/chain/transactions', {
      network: 'bitcoin',
      amountCrypto: topUp.amountCrypto,
    });
    expect(paid.status).toBe(201);
    // The tray lists it as a pending payment (desktop), until the watcher sees it credited.
    await until(() => (tray?.current.payments.length ?? 0) > 0);
    expect(tray?.current.payments).toEqual([
      { topUpId: topUp.id, text: 'Top-up of 50.00 USD is waiting for your payment' },
    ]);
    await sandbox.advance(3 * 3600);
    await until(() => clock.pending.length > 0);
    await clock.advance(60_000);
    await until(() => told.length > 0);
    await until(() => tray?.current.payments.length === 0);
  }

  it('shows the credited top-up and the raised alerts while no window has focus', async () => {
    await creditedTopUp();
    expect(told.map((n) => n.kind)).toEqual(['credited']);
    expect(shown.filter((n) => n.kind === 'topup')).toMatchObject([
      { title: 'Top-up of 50.00 USD credited', route: expect.stringMatching(/^\/topups\/[^/]+$/) as string },
    ]);
    const raised = await core.services.alerts.handlers()['alerts:list'](undefined);
    const alertNotices = shown.filter((n) => n.kind === 'usage-alert');
    // Bursts are throttled (5 per 10 s): each notice is one of the raised alerts, once.
    expect(alertNotices.length).toBeGreaterThan(0);
    expect(alertNotices.length).toBeLessThanOrEqual(raised.length);
    for (const notice of alertNotices) {
      expect(raised.map((a) => `alert:${a.key}`)).toContain(notice.dedupeKey);
    }
  });

  it('keeps them out of the OS while a window has focus (the window shows them live)', async () => {
    focused = true;
    await creditedTopUp();
    expect(told.map((n) => n.kind)).toEqual(['credited']);
    expect((await core.services.alerts.handlers()['alerts:list'](undefined)).length).toBeGreaterThan(0);
    expect(shown).toEqual([]);
  });
});
