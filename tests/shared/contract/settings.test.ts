import { describe, expect, it } from 'vitest';
import { ipcCalls } from '../../../src-shared/contract';

const update = ipcCalls['settings:update'].input;

describe('settings:update for notifications and the global shortcut', () => {
  it('turns single notification kinds off', () => {
    expect(update.safeParse({ notifications: { 'rotation-same-ip': false } }).success).toBe(true);
    expect(update.safeParse({ notifications: { 'top-up-credited': false } }).success).toBe(false);
  });

  it('takes an accelerator with at least one modifier', () => {
    for (const accelerator of ['CommandOrControl+Alt+R', 'Ctrl+Shift+F12', 'Alt+Space']) {
      expect(update.safeParse({ shortcut: { enabled: true, accelerator } }).success, accelerator).toBe(true);
    }
    for (const accelerator of ['R', 'F5', 'Ctrl+', 'Ctrl+Alt+RR', 'Hyper+R', `Ctrl+${'A'.repeat(70)}`]) {
      const parsed = update.safeParse({ shortcut: { accelerator } });
      expect(parsed.success, accelerator).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['shortcut', 'accelerator']);
    }
  });
});

describe('settings:update for polling, alerts and the proxy test', () => {
  const issues = (input: unknown) =>
    (update.safeParse(input).error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]);

  it('takes the window and tray paces of the usage poller, in whole minutes within bounds', () => {
    expect(update.safeParse({ polling: { usageVisibleMinutes: 1, usageMinutes: 1440 } }).success).toBe(true);
    expect(issues({ polling: { usageVisibleMinutes: 0 } })).toEqual([
      ['polling.usageVisibleMinutes', 'At least 1 minutes'],
    ]);
    expect(issues({ polling: { usageVisibleMinutes: 1.5 } })).toEqual([
      ['polling.usageVisibleMinutes', 'Enter a whole number'],
    ]);
  });

  it('takes GB thresholds only as decimal strings, never as floats', () => {
    for (const gb of ['0', '1.5', '250', '0.000000001', '999999.999999999']) {
      expect(update.safeParse({ alerts: { trafficRemainingGb: gb } }).success, gb).toBe(true);
    }
    expect(update.safeParse({ alerts: { trafficRemainingGb: null } }).success).toBe(true);
    for (const gb of [1.5, '1,5', '-1', '1e3', '.5', '1.', '0.0000000001', '1234567', ' 1']) {
      const found = issues({ alerts: { trafficRemainingGb: gb } });
      expect(found, String(gb)).toHaveLength(1);
      expect(found[0]?.[0]).toBe('alerts.trafficRemainingGb');
      expect(found[0]?.[1]).toMatch(/decimal number, e\.g\. 1\.5/);
    }
  });

  it('takes per-subscription thresholds with a percent, GB or both, and names the bad field', () => {
    expect(
      update.safeParse({
        alerts: { trafficBySubscription: { sub_1: { gb: '2.5' }, sub_2: { percent: 20, gb: '1' } } },
      }).success,
    ).toBe(true);
    expect(issues({ alerts: { trafficBySubscription: { sub_1: {} } } })).toEqual([
      ['alerts.trafficBySubscription.sub_1', 'Give a percent, GB, or both'],
    ]);
    expect(issues({ alerts: { trafficBySubscription: { sub_1: { percent: 101 } } } })).toEqual([
      ['alerts.trafficBySubscription.sub_1.percent', 'At most 100%'],
    ]);
    expect(issues({ alerts: { trafficBySubscription: { sub_1: { gb: 2 } } } })[0]?.[0]).toBe(
      'alerts.trafficBySubscription.sub_1.gb',
    );
    const many = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`sub_${i}`, { percent: 5 }]));
    expect(issues({ alerts: { trafficBySubscription: many } })).toEqual([
      ['alerts.trafficBySubscription', 'At most 500 subscriptions with their own threshold'],
    ]);
  });

  it('takes the runs-out and expiry days within bounds', () => {
    expect(update.safeParse({ alerts: { runsOutWithinDays: 14, expiryWarningDays: 0 } }).success).toBe(true);
    expect(issues({ alerts: { runsOutWithinDays: 0 } })).toEqual([
      ['alerts.runsOutWithinDays', 'At least 1 days'],
    ]);
    expect(issues({ alerts: { expiryWarningDays: 400 } })).toEqual([
      ['alerts.expiryWarningDays', 'At most 365 days'],
    ]);
  });

  it('turns off only known alert kinds, each once', () => {
    const parsed = update.parse({
      alerts: { disabledKinds: ['port_expiring', 'traffic_low', 'port_expiring'] },
    });
    expect(parsed.alerts?.disabledKinds).toEqual(['port_expiring', 'traffic_low']);
    expect(issues({ alerts: { disabledKinds: ['traffic_high'] } })).toEqual([
      ['alerts.disabledKinds.0', 'Not an alert kind'],
    ]);
  });

  it('takes the subscriptions for sub-user cap alerts, each once', () => {
    expect(update.parse({ alerts: { subUserAlertSubscriptions: ['a', 'b', 'a'] } }).alerts).toEqual({
      subUserAlertSubscriptions: ['a', 'b'],
    });
    expect(issues({ alerts: { subUserAlertSubscriptions: [''] } })[0]?.[0]).toBe(
      'alerts.subUserAlertSubscriptions.0',
    );
  });

  it('takes an https IP-echo URL, or http only to this computer', () => {
    for (const url of [
      'https://api.ipify.org?format=json',
      'http://127.0.0.1:8080/ip',
      'http://localhost/echo',
      'http://[::1]:9000/',
    ]) {
      expect(update.safeParse({ proxyTest: { ipEchoUrl: url } }).success, url).toBe(true);
    }
    for (const url of [
      'http://api.ipify.org',
      'http://127.0.0.1.evil.example/',
      'ftp://example.com/',
      'nope',
    ]) {
      const found = issues({ proxyTest: { ipEchoUrl: url } });
      expect(found[0]?.[0], url).toBe('proxyTest.ipEchoUrl');
    }
    expect(issues({ proxyTest: { ipEchoUrl: 'http://example.com/ip' } })).toEqual([
      ['proxyTest.ipEchoUrl', 'Use https:// (http:// only for this computer: localhost or 127.0.0.1)'],
    ]);
  });
});
