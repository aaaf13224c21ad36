import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALERT_KINDS } from '../../../src-main/core/alerts/alert-rules';
import { EventBus } from '../../../src-main/core/events';
import { SettingsService } from '../../../src-main/core/settings/settings-service';
import { SettingsStore } from '../../../src-main/core/settings/settings-store';
import { pollerPolicy } from '../../../src-main/core/subscriptions/poller-policy';
import { ipcCalls, type SettingsView } from '../../../src-shared/contract';
import { ALERT_KIND_NAMES } from '../../../src-shared/contract/alerts';

let dataDir: string;
let events: SettingsView[];
let service: SettingsService;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pm-settings-service-'));
  const bus = new EventBus();
  events = [];
  bus.on('settings:changed', (view) => events.push(view));
  service = new SettingsService(await SettingsStore.open({ dataDir }), bus);
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('SettingsService', () => {
  it('shows the desktop preferences with their defaults', async () => {
    expect((await service.handlers()['settings:get'](undefined)).desktop).toEqual({
      closeToTray: true,
      startAtLogin: false,
      startMinimized: false,
    });
  });

  it('updates only the members given, saves them, and announces the new view', async () => {
    const view = await service.handlers()['settings:update']({
      theme: 'dark',
      desktop: { startAtLogin: true },
      polling: { usageMinutes: 5 },
    });
    expect(view).toMatchObject({
      theme: 'dark',
      desktop: { closeToTray: true, startAtLogin: true, startMinimized: false },
      polling: { usageMinutes: 5, topUpVerifyingSeconds: 10 },
    });
    expect(events).toEqual([view]);
    const saved = JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'));
    expect(saved.desktop).toEqual({ closeToTray: true, startAtLogin: true, startMinimized: false });
  });

  it('keeps the row density: comfortable by default, compact on request, saved in the file', async () => {
    expect((await service.handlers()['settings:get'](undefined)).density).toBe('comfortable');
    const view = await service.handlers()['settings:update']({ density: 'compact' });
    expect(view.density).toBe('compact');
    const saved = JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'));
    expect(saved.ui.density).toBe('compact');
  });

  it('reads a file from before the density existed, or with a density it does not know, as comfortable', async () => {
    for (const ui of [{ theme: 'dark' }, { theme: 'dark', density: 'cozy-from-a-newer-version' }]) {
      await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, ui }));
      const store = await SettingsStore.open({ dataDir });
      expect(store.recovery).toBeNull();
      expect(new SettingsService(store, new EventBus()).view()).toMatchObject({
        theme: 'dark',
        density: 'comfortable',
      });
    }
  });

  it('keeps the IP-echo URL of the proxy test (https by default), and the contract takes only http(s) URLs', async () => {
    expect((await service.handlers()['settings:get'](undefined)).proxyTest).toEqual({
      ipEchoUrl: 'https://api.ipify.org?format=json',
    });
    const view = await service.handlers()['settings:update']({
      proxyTest: { ipEchoUrl: 'https://ipinfo.io/json' },
    });
    expect(view.proxyTest.ipEchoUrl).toBe('https://ipinfo.io/json');
    const saved = JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'));
    expect(saved.proxyTest).toEqual({ ipEchoUrl: 'https://ipinfo.io/json' });
    const input = ipcCalls['settings:update'].input;
    expect(input.safeParse({ proxyTest: { ipEchoUrl: 'file:///etc/passwd' } }).success).toBe(false);
    expect(input.safeParse({ proxyTest: { ipEchoUrl: 'not a url' } }).success).toBe(false);
  });
});

describe('SettingsService: alert and polling settings', () => {
  it('shows every alert setting with its default', async () => {
    const view = await service.handlers()['settings:get'](undefined);
    expect(view.polling).toEqual({
      usageMinutes: 15,
      usageVisibleMinutes: 5,
      topUpVerifyingSeconds: 10,
      topUpAwaitingPaymentSeconds: 30,
    });
    expect(view.alerts).toEqual({
      trafficRemainingPercent: 10,
      trafficRemainingGb: null,
      trafficBySubscription: {},
      runsOutWithinDays: 7,
      expiryWarningDays: 3,
      disabledKinds: [],
      subUserAlertSubscriptions: [],
    });
  });

  it('saves the alert settings the poller reads, replaces the per-subscription table whole, and clears GB with null', async () => {
    const input = ipcCalls['settings:update'].input;
    const update = (raw: unknown) => service.handlers()['settings:update'](input.parse(raw));
    await update({
      polling: { usageVisibleMinutes: 1 },
      alerts: {
        trafficRemainingGb: '1.5',
        trafficBySubscription: { sub_a: { gb: '0.25' }, sub_b: { percent: 30 } },
        runsOutWithinDays: 10,
        disabledKinds: ['port_expiring'],
        subUserAlertSubscriptions: ['sub_a'],
      },
    });
    const view = await update({
      alerts: { trafficRemainingGb: null, trafficBySubscription: { sub_b: { percent: 30, gb: '2' } } },
    });
    expect(view.polling.usageVisibleMinutes).toBe(1);
    expect(view.alerts).toEqual({
      trafficRemainingPercent: 10,
      trafficRemainingGb: null,
      trafficBySubscription: { sub_b: { percent: 30, gb: '2' } },
      runsOutWithinDays: 10,
      expiryWarningDays: 3,
      disabledKinds: ['port_expiring'],
      subUserAlertSubscriptions: ['sub_a'],
    });
    const saved = JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'));
    expect(saved.alerts.trafficBySubscription).toEqual({ sub_b: { percent: 30, gb: '2' } });
    expect(saved.alerts.trafficRemainingGb).toBeNull();
    expect(saved.polling.usageVisibleMinutes).toBe(1);
    // The poller's view of the same settings: GB as exact bytes, the turned-off kind off.
    const store = await SettingsStore.open({ dataDir });
    const policy = pollerPolicy(store.get());
    expect(policy.trafficBySubscription).toEqual({ sub_b: { percent: 30, bytes: 2_000_000_000 } });
    expect(policy.enabled.port_expiring).toBe(false);
    expect(policy.enabled.traffic_low).toBe(true);
    expect(policy.visibleIntervalMs).toBe(60_000);
    expect(policy.subUserAlertSubscriptions).toEqual(['sub_a']);
  });

  it("offers exactly the alert center's kinds", () => {
    expect([...ALERT_KIND_NAMES]).toEqual([...ALERT_KINDS]);
  });
});
