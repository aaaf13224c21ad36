import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlertCenter, type RaisedAlert } from '../../../src-main/core/alerts/alert-center';
import { ALERT_KINDS } from '../../../src-main/core/alerts/alert-rules';
import { PortsService } from '../../../src-main/core/ports/ports-service';
import { MemoryJobSection } from '../../../src-main/core/storage/job-section';
import {
  type PollerPolicy,
  UsagePoller,
  type UsagePollerState,
} from '../../../src-main/core/subscriptions/usage-poller';
import { subUserRowsOf } from '../../../src-shared/contract/subscriptions';
import { TestSandbox } from '@proxy-manager/sandbox/testing';
import { PROFILE, subscriptionsKit } from './subscriptions-kit';

const MIN = 60_000;

describe('UsagePoller on the FakeClock against the sandbox', () => {
  let sandbox: TestSandbox;
  let kit: ReturnType<typeof subscriptionsKit>;
  let ports: PortsService;
  let store: MemoryJobSection<UsagePollerState>;
  let crossings: string[];
  let published: RaisedAlert[];
  let profiles: string[];
  let policy: PollerPolicy;
  let pollers: UsagePoller[];
  let priceMonitoring: string;

  const center = () =>
    new AlertCenter({
      crossings: {
        read: () => crossings,
        write: (keys) => {
          crossings = [...keys];
          return Promise.resolve();
        },
      },
      now: () => new Date(kit.clock.now()),
      publish: (alert) => published.push(alert),
    });

  const newPoller = (overrides: Partial<ConstructorParameters<typeof UsagePoller>[0]> = {}) => {
    const poller = new UsagePoller({
      clock: kit.clock,
      profiles: () => profiles,
      subscriptions: kit.subscriptions,
      ports,
      store,
      alerts: center(),
      policy: () => policy,
      log: () => undefined,
      ...overrides,
    });
    pollers.push(poller);
    return poller;
  };

  /** API requests the sandbox logged since the last call. */
  const takeRequests = async () => {
    const log = await sandbox.requests();
    await sandbox.control('DELETE', '/requests');
    return log.map((r) => `${r.method} ${r.path.replace(/\?.*$/, '').replace(/^\/api\/v1/, '')}`);
  };

  /** Moves time and waits for the cycle it starts (if any) to end in the next sleep. */
  const advance = async (ms: number, expectCycle = true) => {
    const sleeps = kit.clock.sleeps.length;
    await kit.clock.advance(ms);
    if (expectCycle) await kit.clock.whenSleepCalls(sleeps + 1);
    await kit.clock.settle();
  };

  const startAndFirstCycle = async (poller: UsagePoller) => {
    const sleeps = kit.clock.sleeps.length;
    poller.start('test');
    await kit.clock.whenSleepCalls(sleeps + 1);
    await kit.clock.settle();
  };

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    kit = subscriptionsKit(sandbox);
    ports = new PortsService({ api: kit.caller.api, events: kit.events, now: () => kit.clock.now() });
    store = new MemoryJobSection();
    crossings = [];
    published = [];
    profiles = [PROFILE];
    pollers = [];
    const subs = await kit.handlers['subscriptions:list'](undefined);
    priceMonitoring = subs.find((s) => s.label === 'Price monitoring')?.id as string;
    policy = {
      enabled: Object.fromEntries(ALERT_KINDS.map((k) => [k, false])) as PollerPolicy['enabled'],
      traffic: { percent: 10 },
      runsOutWithinDays: 3,
      expiryWarningDays: 3,
      subUserAlertSubscriptions: [priceMonitoring],
      visibleIntervalMs: 5 * MIN,
      trayIntervalMs: 30 * MIN,
    };
    policy.enabled.sub_user_cap_80 = true;
    await sandbox.control('DELETE', '/requests');
  });

  afterEach(async () => {
    for (const poller of pollers) await poller.stop('test end');
    await kit.caller.close();
    await sandbox.close();
  });

  it('sends one request per list per cycle, and nothing between cycles', async () => {
    const poller = newPoller();
    await startAndFirstCycle(poller);
    const expected = [
      'GET /v1/residential/subscriptions',
      `GET /v1/residential/subscriptions/${priceMonitoring}/sub-users`,
      'GET /v1/mobile',
    ];
    expect((await takeRequests()).sort()).toEqual([...expected].sort());
    await advance(5 * MIN - 1, false);
    expect(await takeRequests()).toEqual([]);
    await advance(1);
    expect((await takeRequests()).sort()).toEqual([...expected].sort());
  });

  it('polls on the slower tray interval while no window shows, and at once faster when one shows', async () => {
    const poller = newPoller({ windowVisible: false });
    await startAndFirstCycle(poller);
    await takeRequests();
    await advance(10 * MIN, false);
    expect(await takeRequests()).toEqual([]);
    await advance(20 * MIN);
    expect(await takeRequests()).toHaveLength(3);
    // Shown: the next read comes within the window's interval, not the tray's.
    poller.setWindowVisible(true);
    await kit.clock.settle();
    await advance(5 * MIN);
    expect(await takeRequests()).toHaveLength(3);
  });

  it('pauses a profile after a network error with backoff, sends nothing meanwhile, and resumes on success', async () => {
    // Every attempt of the cycle's first read fails (the client's own retries of a read included).
    await sandbox.fault({ match: '/residential/subscriptions', dropConnection: true, times: 5 });
    const poller = newPoller();
    await startAndFirstCycle(poller);
    // Nothing after the failed list: the sub-users and ports are not read for an offline profile.
    expect(new Set(await takeRequests())).toEqual(new Set(['GET /v1/residential/subscriptions']));
    await sandbox.control('DELETE', '/faults');
    expect(poller.status(PROFILE)).toMatchObject({ offline: true, failures: 1 });
    await advance(30_000 - 1, false);
    expect(await takeRequests()).toEqual([]);
    await advance(1);
    expect(await takeRequests()).toHaveLength(3);
    expect(poller.status(PROFILE)).toMatchObject({ offline: false, failures: 0 });
  });

  it('honours Retry-After on a 429 (longer than the backoff)', async () => {
    await sandbox.fault({
      match: '/residential/subscriptions',
      status: 429,
      headers: { 'Retry-After': '300' },
      times: 1,
    });
    const poller = newPoller();
    await startAndFirstCycle(poller);
    await takeRequests();
    await advance(300_000 - 1, false);
    expect(await takeRequests()).toEqual([]);
    await advance(1);
    expect(await takeRequests()).toHaveLength(3);
  });

  it('raises an alert once per crossing, re-arms when it recovers, and a restarted poller does not repeat it', async () => {
    policy.enabled.traffic_low = true;
    policy.traffic = { percent: 100 };
    const first = newPoller();
    await startAndFirstCycle(first);
    const lowKeys = () => published.filter((a) => a.kind === 'traffic_low').map((a) => a.subjectId);
    const firstRound = lowKeys();
    expect(firstRound).toContain(priceMonitoring);
    await advance(5 * MIN);
    expect(lowKeys()).toEqual(firstRound);
    // Restart: a new poller with the same job store and crossings raises nothing again.
    await first.stop('restart');
    const second = newPoller();
    await startAndFirstCycle(second);
    expect(lowKeys()).toEqual(firstRound);
    // Recovers (threshold lowered), then crosses again: one new alert per subscription.
    policy.traffic = { percent: 0 };
    await advance(5 * MIN);
    policy.traffic = { percent: 100 };
    await advance(5 * MIN);
    expect(lowKeys()).toEqual([...firstRound, ...firstRound]);
  });

  it('fires a sub-user cap alert once when a cap is crossed', async () => {
    const subUsers = subUserRowsOf(
      await kit.handlers['subscriptions:subUsers']({ subscriptionId: priceMonitoring }),
    );
    const target = subUsers.find((s) => s.trafficUsedBytes > 0) ?? subUsers[0];
    const cap = Math.ceil((target?.trafficUsedBytes ?? 0) / 0.9);
    await kit.handlers['subscriptions:updateSubUser']({
      subscriptionId: priceMonitoring,
      subUserId: target?.id as string,
      trafficLimit: cap,
    });
    const poller = newPoller();
    await startAndFirstCycle(poller);
    await advance(5 * MIN);
    const caps = published.filter((a) => a.kind === 'sub_user_cap_80');
    expect(caps.map((a) => a.subjectId)).toEqual([`${priceMonitoring}/${target?.id}`]);
  });

  it('drops answers for a profile switched away or deleted while its poll ran', async () => {
    policy.enabled.traffic_low = true;
    policy.traffic = { percent: 100 };
    let markRefreshed = () => undefined as void;
    const refreshed = new Promise<void>((resolve) => {
      markRefreshed = resolve;
    });
    const poller = newPoller({
      subscriptions: {
        refresh: async (profileId) => {
          const answer = await kit.subscriptions.refresh(profileId);
          profiles = []; // the profile went away while the request was out
          markRefreshed();
          return answer;
        },
        refreshSubUsers: (profileId, id) => kit.subscriptions.refreshSubUsers(profileId, id),
      },
    });
    poller.start('test');
    await refreshed;
    for (let i = 0; i < 5; i += 1) await kit.clock.settle();
    expect(published).toEqual([]);
    expect(await store.read()).toBeUndefined();
    expect((await takeRequests()).filter((r) => r.includes('/mobile'))).toEqual([]);
  });

  it('keeps samples of used traffic in the job store and forecasts from them once they span a day', async () => {
    policy.enabled.traffic_runs_out = true;
    policy.runsOutWithinDays = 10_000;
    const poller = newPoller();
    await startAndFirstCycle(poller);
    expect(published.filter((a) => a.kind === 'traffic_runs_out')).toEqual([]);
    for (let i = 0; i < 5; i += 1) {
      await sandbox.advance(6 * 3600);
      await advance(6 * 3600_000);
    }
    const samples = (await store.read())?.samples[PROFILE]?.[priceMonitoring] ?? [];
    expect(samples.length).toBeGreaterThanOrEqual(5);
    expect(published.filter((a) => a.kind === 'traffic_runs_out').map((a) => a.subjectId)).toContain(
      priceMonitoring,
    );
  });
});
