import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import { getPort, manualPort } from '../mobile/mobile-test-support';
import {
  getSubscription,
  SEEDED_SUBSCRIPTION_LABELS,
  SUBSCRIPTIONS,
  subscriptionByLabel,
  subUserByLabel,
  today,
  usage,
} from '../subscriptions/subscription-helpers';
import { connectTunnel, getInTunnel, proxyGet, socks5 } from './gateway-clients';

let sandbox: TestSandbox;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
});

afterEach(async () => {
  await sandbox.close();
});

const gateway = () => sandbox.sandbox.gateway;

/** Today's point of a usage report, and the sums the report must keep. */
function checkSums(report: any): void {
  expect(report.points.reduce((sum: number, p: any) => sum + p.bytes, 0)).toBe(report.totalBytes);
  expect(report.points.reduce((sum: number, p: any) => sum + p.requests, 0)).toBe(report.totalRequests);
  expect(report.byCountry.reduce((sum: number, c: any) => sum + c.bytes, 0)).toBe(report.totalBytes);
}

describe('sandbox gateway: a mobile port exits through its current IP', () => {
  it('shows the new IP in the echo after a rotation', async () => {
    const port = await manualPort(sandbox);
    expect((await proxyGet(gateway(), port, 'http://example.com/')).json.exit.ip).toBe(port.currentIp);
    // The carrier may hand back the same IP: rotate until it changes.
    let rotated = port.currentIp as string;
    for (let i = 0; i < 5 && rotated === port.currentIp; i += 1) {
      await sandbox.advance(30);
      const rotation = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
      expect(rotation.status).toBe(200);
      rotated = rotation.json.ip;
    }
    expect(rotated).not.toBe(port.currentIp);
    const answer = await proxyGet(gateway(), port, 'http://example.com/');
    expect(answer.json.exit.ip).toBe(rotated);
    expect(answer.headers['x-sandbox-exit-ip']).toBe(rotated);
    expect((await getPort(sandbox, port.id)).currentIp).toBe(rotated);
  });

  it('refuses a port while it moves to a new modem (503; SOCKS5 reply 0x03)', async () => {
    const port = await manualPort(sandbox);
    const moved = await sandbox.request('POST', `/v1/mobile/${port.id}/relocate`, {
      body: { country: 'US', carrier: 'tmobile_us', city: 'new_york' },
    });
    expect(moved.status).toBe(202);
    const answer = await proxyGet(gateway(), port, 'http://example.com/');
    expect(answer.status).toBe(503);
    expect(answer.body).toContain('Port provisioning');
    const socks = await socks5(gateway(), port, { host: 'example.com', port: 80 });
    expect(socks.reply).toBe(0x03);
    await sandbox.advance(120);
    const after = await proxyGet(gateway(), port, 'http://example.com/');
    expect(after.status).toBe(200);
    expect(after.json.exit).toMatchObject({ country: 'US', city: 'new_york', carrier: 'tmobile_us' });
  });
});

describe('sandbox gateway: bytes counted into usage', () => {
  it('adds every byte of a plain request and its answer to trafficUsedBytes and to the report (one request, exit country)', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const day = await today(sandbox);
    const before = await usage(sandbox, sub.id, `?from=${day}&to=${day}`);
    const answer = await proxyGet(
      gateway(),
      { ...sub, username: `${sub.username}-country-jp` },
      'http://example.com/',
    );
    expect(answer.status).toBe(200);
    const bytes = answer.sent + answer.received;
    const after = await getSubscription(sandbox, sub.id);
    expect(after.trafficUsedBytes).toBe(sub.trafficUsedBytes + bytes);
    expect(after.trafficRemainingBytes).toBe(sub.trafficRemainingBytes - bytes);
    const report = await usage(sandbox, sub.id, `?from=${day}&to=${day}`);
    expect(report.totalBytes).toBe(before.totalBytes + bytes);
    expect(report.points[0]).toEqual({
      date: day,
      bytes: before.totalBytes + bytes,
      requests: before.totalRequests + 1,
    });
    const japan = (r: any) => r.byCountry.find((c: any) => c.country === 'JP')?.bytes ?? 0;
    expect(japan(report)).toBe(japan(before) + bytes);
    checkSums(report);
  });

  it('counts a CONNECT tunnel (the CONNECT exchange and each request inside) and a SOCKS5 tunnel (handshake too)', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const subUser = await subUserByLabel(sandbox, sub.id, 'Scraper US');
    const tunnel = await connectTunnel(gateway(), subUser, 'example.com:80');
    await getInTunnel(tunnel.reader, 'example.com', '/one');
    await getInTunnel(tunnel.reader, 'example.com', '/two');
    const tunnelBytes = tunnel.reader.sent + tunnel.reader.received;
    tunnel.reader.close();
    const socks = await socks5(gateway(), subUser, { host: 'example.com', port: 80 });
    await getInTunnel(socks.reader, 'example.com', '/three');
    const socksBytes = socks.reader.sent + socks.reader.received;
    socks.reader.close();

    const after = await subUserByLabel(sandbox, sub.id, 'Scraper US');
    expect(after.trafficUsedBytes).toBe(subUser.trafficUsedBytes + tunnelBytes + socksBytes);
    expect((await getSubscription(sandbox, sub.id)).trafficUsedBytes).toBe(
      sub.trafficUsedBytes + tunnelBytes + socksBytes,
    );
    const day = await today(sandbox);
    const report = await usage(sandbox, sub.id, `?from=${day}&to=${day}&subUserId=${subUser.id}`);
    checkSums(report);
  });

  it("adds a port's gateway traffic to its usage report (points and byCountry still add up)", async () => {
    const port = await manualPort(sandbox);
    const day = await today(sandbox);
    const before = (await sandbox.request('GET', `/v1/mobile/${port.id}/usage?from=${day}&to=${day}`)).json;
    const answer = await proxyGet(gateway(), port, 'http://example.com/');
    const report = (await sandbox.request('GET', `/v1/mobile/${port.id}/usage?from=${day}&to=${day}`)).json;
    expect(report.totalBytes).toBe(before.totalBytes + answer.sent + answer.received);
    expect(report.totalRequests).toBe(before.totalRequests + 1);
    checkSums(report);
  });

  it('does not count refused requests', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    await proxyGet(gateway(), { username: sub.username, password: 'wrong' }, 'http://example.com/');
    await proxyGet(gateway(), { ...sub, username: `${sub.username}-country-zz` }, 'http://example.com/');
    expect((await getSubscription(sandbox, sub.id)).trafficUsedBytes).toBe(sub.trafficUsedBytes);
  });
});

describe('sandbox gateway: persisted state', () => {
  it('keeps gateway bytes across a restart and shows the new run’s gateway, whatever an older file stored', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'sandbox-gateway-'));
    const dataFile = join(folder, 'state.json');
    try {
      const first = await TestSandbox.start({ dataFile });
      const sub = await subscriptionByLabel(first, SEEDED_SUBSCRIPTION_LABELS.neverExpires);
      const answer = await proxyGet(first.sandbox.gateway, sub, 'http://example.com/');
      expect(answer.status).toBe(200);
      const used = (await getSubscription(first, sub.id)).trafficUsedBytes;
      expect(used).toBe(sub.trafficUsedBytes + answer.sent + answer.received);
      await first.close();

      // A file written before the gateway existed stored made-up endpoints in every record.
      const state = JSON.parse(await readFile(dataFile, 'utf8'));
      for (const record of state.subscriptions.subscriptions) {
        record.endpoint = { host: 'residential.gw.sandbox.invalid', httpPort: 10000, socksPort: 10001 };
      }
      for (const record of state.mobile.ports) {
        record.endpoint = { host: 'us.mobile.sandbox.invalid', httpPort: 20000, socksPort: 30000 };
      }
      await writeFile(dataFile, JSON.stringify(state));

      const second = await TestSandbox.start({ dataFile });
      try {
        const restored = await getSubscription(second, sub.id);
        expect(restored.trafficUsedBytes).toBe(used);
        expect(restored.endpoint).toEqual(second.sandbox.gateway);
        const port = await manualPort(second);
        expect(port.endpoint).toEqual(second.sandbox.gateway);
        expect((await proxyGet(second.sandbox.gateway, sub, 'http://example.com/')).status).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('keeps the grace of a reset password across a restart (it is part of the state)', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'sandbox-gateway-'));
    const dataFile = join(folder, 'state.json');
    try {
      const first = await TestSandbox.start({ dataFile });
      const sub = await subscriptionByLabel(first, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
      expect((await first.request('POST', `${SUBSCRIPTIONS}/${sub.id}/reset-password`)).status).toBe(200);
      await first.close();
      const second = await TestSandbox.start({ dataFile });
      try {
        expect((await proxyGet(second.sandbox.gateway, sub, 'http://example.com/')).status).toBe(200);
        await second.advance(60);
        expect((await proxyGet(second.sandbox.gateway, sub, 'http://example.com/')).status).toBe(407);
      } finally {
        await second.close();
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
