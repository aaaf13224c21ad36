import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findCarrier } from '../../src/catalog/catalog-queries';
import { createPortRecord } from '../../src/mobile/port-factory';
import { settlePort } from '../../src/mobile/port-lifecycle';
import { createIdFactory } from '../../src/sandbox-world';
import { SeededRandom } from '../../src/seeded-random';
import { TestSandbox } from '../../src/testing';
import {
  advanceInSteps,
  fullHistory,
  getPort,
  listPorts,
  manualPort,
  ms,
  portByLabel,
  SEEDED_PORT_LABELS,
  setInterval,
} from './mobile-test-support';

let sandbox: TestSandbox;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
});

afterEach(async () => {
  await sandbox.close();
});

const setBalance = async (target: TestSandbox, balanceUsd: string) => {
  expect((await target.control('POST', '/account', { balanceUsd })).status).toBe(200);
};
/** Subscriptions renew from the same balance; the renewal tests keep it to the ports. */
const stopSubscriptionRenewals = async (target: TestSandbox) => {
  const subscriptions = await target.request('GET', '/v1/residential/subscriptions');
  expect(subscriptions.status).toBe(200);
  for (const sub of subscriptions.json.data) {
    const answer = await target.request('PATCH', `/v1/residential/subscriptions/${sub.id}`, {
      body: { autoRenew: false },
    });
    expect(answer.status).toBe(200);
  }
};
const balance = async (target: TestSandbox) => (await target.control('GET', '/account')).json.balanceUsd;

describe('interval rotation', () => {
  it('rotates every intervalMinutes on the sandbox clock, from the moment it was switched on', async () => {
    const port = await manualPort(sandbox);
    const switchedAt = ms(await sandbox.now());
    await setInterval(sandbox, port.id, 5);
    await sandbox.advance(5 * 60 - 1);
    expect((await fullHistory(sandbox, port.id))[0].ip).toBe(port.currentIp);
    await sandbox.advance(1 + 10 * 60);
    const history = await fullHistory(sandbox, port.id);
    expect(history.slice(0, 3).map((e) => [e.trigger, ms(e.assignedAt) - switchedAt])).toEqual([
      ['interval', 15 * 60_000],
      ['interval', 10 * 60_000],
      ['interval', 5 * 60_000],
    ]);
    expect(history[3]).toMatchObject({
      ip: port.currentIp,
      releasedAt: new Date(switchedAt + 5 * 60_000).toISOString(),
    });
    const after = await getPort(sandbox, port.id);
    expect(after).toMatchObject({ currentIp: history[0].ip, ipChangedAt: history[0].assignedAt });
  });

  it('gives the same history whether an hour passes at once or in 60 steps', async () => {
    const stepped = await TestSandbox.start();
    try {
      const port = await manualPort(sandbox);
      await setInterval(sandbox, port.id, 3);
      await setInterval(stepped, port.id, 3);
      await sandbox.advance(3600);
      await advanceInSteps(stepped, 3600, 60);
      const once = await fullHistory(sandbox, port.id);
      expect(once.filter((e) => e.trigger === 'interval')).toHaveLength(20);
      expect(await fullHistory(stepped, port.id)).toEqual(once);
      const withoutLink = ({ rotationLink: _link, endpoint: _endpoint, ...rest }: any) => rest;
      expect(withoutLink(await getPort(stepped, port.id))).toEqual(
        withoutLink(await getPort(sandbox, port.id)),
      );
    } finally {
      await stepped.close();
    }
  });

  it('keeps the newest 1,000 entries per port, the same at once or step by step', async () => {
    const stepped = await TestSandbox.start();
    try {
      const port = await manualPort(sandbox);
      await setInterval(sandbox, port.id, 1);
      await setInterval(stepped, port.id, 1);
      await sandbox.advance(2 * 86_400);
      await advanceInSteps(stepped, 2 * 86_400, 3600);
      const once = await fullHistory(sandbox, port.id);
      expect(once).toHaveLength(1000);
      expect(once.every((e) => e.trigger === 'interval')).toBe(true);
      expect(ms(once[0].assignedAt)).toBe(ms(await sandbox.now()));
      expect(ms(once[0].assignedAt) - ms(once[999].assignedAt)).toBe(999 * 60_000);
      expect(await fullHistory(stepped, port.id)).toEqual(once);
    } finally {
      await stepped.close();
    }
  });

  it('restarts the timer after a manual rotation', async () => {
    const port = await manualPort(sandbox);
    await setInterval(sandbox, port.id, 10);
    await sandbox.advance(6 * 60);
    const manual = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
    expect(manual.status).toBe(200);
    await sandbox.advance(9 * 60);
    expect((await fullHistory(sandbox, port.id))[0].trigger).toBe('manual');
    await sandbox.advance(60);
    const [latest] = await fullHistory(sandbox, port.id);
    expect(latest.trigger).toBe('interval');
    expect(ms(latest.assignedAt)).toBe(ms(manual.json.rotatedAt) + 10 * 60_000);
  });

  it('does not restart the timer when the same setting is sent again, and does when it changes', async () => {
    const port = await manualPort(sandbox);
    const switchedAt = ms(await sandbox.now());
    await setInterval(sandbox, port.id, 10);
    await sandbox.advance(5 * 60);
    await setInterval(sandbox, port.id, 10);
    await sandbox.advance(5 * 60);
    expect(ms((await fullHistory(sandbox, port.id))[0].assignedAt)).toBe(switchedAt + 10 * 60_000);
    await setInterval(sandbox, port.id, 20);
    await sandbox.advance(19 * 60);
    expect(ms((await fullHistory(sandbox, port.id))[0].assignedAt)).toBe(switchedAt + 10 * 60_000);
    await sandbox.advance(60);
    expect(ms((await fullHistory(sandbox, port.id))[0].assignedAt)).toBe(switchedAt + 30 * 60_000);
  });

  it('stops when switched back to manual', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.interval);
    const before = await fullHistory(sandbox, port.id);
    const answer = await sandbox.request('PATCH', `/v1/mobile/${port.id}`, {
      body: { rotation: { mode: 'manual', intervalMinutes: null } },
    });
    expect(answer.status).toBe(200);
    await sandbox.advance(3 * 3600);
    expect(await fullHistory(sandbox, port.id)).toEqual(before);
  });

  it('keeps rotating the seeded interval port on its 30-minute timer', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.interval);
    const [last] = await fullHistory(sandbox, port.id);
    await sandbox.advance(3600);
    const history = await fullHistory(sandbox, port.id);
    expect(history.slice(0, 2).map((e) => ms(e.assignedAt) - ms(last.assignedAt))).toEqual([
      60 * 60_000,
      30 * 60_000,
    ]);
  });
});

describe('expiry and renewal', () => {
  it('expires at expiresAt without autoRenew, keeps the port readable, and stops its timer', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.expiringSoon);
    await setInterval(sandbox, port.id, 60);
    const untilExpiry = (ms(port.expiresAt) - ms(await sandbox.now())) / 1000;
    await sandbox.advance(untilExpiry - 1);
    expect((await getPort(sandbox, port.id)).status).toBe('active');
    await sandbox.advance(1);
    const expired = await getPort(sandbox, port.id);
    expect(expired.status).toBe('expired');
    expect(expired.expiresAt).toBe(port.expiresAt);
    const historyAtExpiry = await fullHistory(sandbox, port.id);
    expect(ms(historyAtExpiry[0].assignedAt)).toBeLessThan(ms(port.expiresAt));
    await sandbox.advance(86_400);
    expect(await fullHistory(sandbox, port.id)).toEqual(historyAtExpiry);
    expect(await balance(sandbox)).toBe('0.00');
  });

  it('renews with autoRenew from the balance by the plan price, one period at a time', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.berlin);
    expect(port).toMatchObject({ autoRenew: true, planId: 'mobile-port-7d' });
    await stopSubscriptionRenewals(sandbox);
    await setBalance(sandbox, '60.00');
    await sandbox.advance((ms(port.expiresAt) - ms(await sandbox.now())) / 1000 - 1);
    expect(await balance(sandbox)).toBe('60.00');
    await sandbox.advance(1);
    const renewed = await getPort(sandbox, port.id);
    expect(renewed.status).toBe('active');
    expect(ms(renewed.expiresAt)).toBe(ms(port.expiresAt) + 7 * 86_400_000);
    expect(await balance(sandbox)).toBe('35.00');
    await sandbox.advance(7 * 86_400);
    expect(ms((await getPort(sandbox, port.id)).expiresAt)).toBe(ms(port.expiresAt) + 14 * 86_400_000);
    expect(await balance(sandbox)).toBe('10.00');
    await sandbox.advance(7 * 86_400);
    const third = await getPort(sandbox, port.id);
    expect(third).toMatchObject({ status: 'expired' });
    expect(ms(third.expiresAt)).toBe(ms(port.expiresAt) + 14 * 86_400_000);
    expect(await balance(sandbox)).toBe('10.00');
  });

  it('expires with autoRenew when the balance does not cover the plan, and takes nothing', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.berlin);
    await stopSubscriptionRenewals(sandbox);
    await setBalance(sandbox, '24.99');
    await sandbox.advance((ms(port.expiresAt) - ms(await sandbox.now())) / 1000);
    expect((await getPort(sandbox, port.id)).status).toBe('expired');
    expect(await balance(sandbox)).toBe('24.99');
  });

  it('does not renew when autoRenew was turned off', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.berlin);
    await stopSubscriptionRenewals(sandbox);
    await setBalance(sandbox, '100.00');
    await sandbox.request('PATCH', `/v1/mobile/${port.id}`, { body: { autoRenew: false } });
    await sandbox.advance((ms(port.expiresAt) - ms(await sandbox.now())) / 1000);
    expect((await getPort(sandbox, port.id)).status).toBe('expired');
    expect(await balance(sandbox)).toBe('100.00');
  });

  it('spends the balance on the earliest expiry first, however the clock is advanced', async () => {
    const stepped = await TestSandbox.start();
    try {
      // Money for one 7-day renewal; Berlin is listed first but Social QA expires first and gets it.
      const ports = await listPorts(sandbox);
      const berlin = ports.find((p) => p.label === SEEDED_PORT_LABELS.berlin);
      const social = ports.find((p) => p.label === SEEDED_PORT_LABELS.expiringSoon);
      expect(ports.indexOf(berlin)).toBeLessThan(ports.indexOf(social));
      expect(ms(social.expiresAt)).toBeLessThan(ms(berlin.expiresAt));
      for (const target of [sandbox, stepped]) {
        await stopSubscriptionRenewals(target);
        await setBalance(target, '25.00');
        for (const p of ports) {
          const autoRenew = p.id === berlin.id || p.id === social.id;
          await target.request('PATCH', `/v1/mobile/${p.id}`, { body: { autoRenew } });
        }
      }
      await sandbox.advance(6 * 86_400);
      await advanceInSteps(stepped, 6 * 86_400, 3600);
      for (const target of [sandbox, stepped]) {
        expect(await getPort(target, social.id)).toMatchObject({
          status: 'active',
          expiresAt: new Date(ms(social.expiresAt) + 7 * 86_400_000).toISOString(),
        });
        expect(await getPort(target, berlin.id)).toMatchObject({
          status: 'expired',
          expiresAt: berlin.expiresAt,
        });
        expect(await balance(target)).toBe('0.00');
      }
    } finally {
      await stepped.close();
    }
  });

  it('provisioning keeps the remaining time: a relocation does not move expiresAt', async () => {
    const port = await manualPort(sandbox);
    await sandbox.request('POST', `/v1/mobile/${port.id}/relocate`, {
      body: { country: 'US', carrier: 'verizon' },
    });
    await sandbox.advance(120);
    expect((await getPort(sandbox, port.id)).expiresAt).toBe(port.expiresAt);
  });
});

describe('settlePort (direct)', () => {
  const account = () => ({ balanceUsd: '0.00' });
  const newPort = (seed: number, startMs: number) => {
    const random = new SeededRandom(seed);
    const context = { now: startMs, random, newId: createIdFactory({}, random) };
    const carrier = findCarrier('US', 'verizon');
    if (!carrier) throw new Error('verizon missing');
    const port = createPortRecord(context, {
      country: 'US',
      carrier,
      city: null,
      planId: 'mobile-port-30d',
      durationDays: 30,
      now: startMs,
    });
    port.rotation = { mode: 'interval', intervalMinutes: 1 };
    port.nextIntervalRotationAt = startMs + 60_000;
    return port;
  };

  it('leaves the same capped history when thousands of interval rotations are settled at once', () => {
    const start = Date.parse('2026-03-10T12:00:00.000Z');
    const until = start + 86_400_000 + 17_000;
    for (let trial = 0; trial < 60; trial += 1) {
      const once = newPort(trial, start + trial * 1_000);
      settlePort(once, until, account());
      const stepped = newPort(trial, start + trial * 1_000);
      for (let t = start; t < until; t += 3_600_000) settlePort(stepped, t, account());
      settlePort(stepped, until, account());
      expect(once.ipHistory).toHaveLength(1000);
      expect(once).toEqual(stepped);
    }
  });
});
