import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import { proxyGet } from '../gateway/gateway-clients';
import { earlierIp } from '../../src/mobile/port-lifecycle';
import type { MobilePortRecord } from '../../src/mobile/port-record';
import { manualPort } from './mobile-test-support';

let sandbox: TestSandbox;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
  await sandbox.advance(60);
});

afterEach(async () => {
  await sandbox.close();
});

const echo = (port: { username: string; password: string }) =>
  proxyGet(
    sandbox.sandbox.gateway,
    { username: port.username, password: port.password },
    'http://example.com/',
  );

const rotate = async (portId: string): Promise<string> => {
  const answer = await sandbox.request('POST', `/v1/mobile/${portId}/rotate`);
  expect(answer.status).toBe(200);
  await sandbox.advance(30);
  return answer.json.ip;
};

describe('the echo of a mobile port', () => {
  it('names the exit IP, the carrier ASN (private-use range) and the country', async () => {
    const port = await manualPort(sandbox);
    const answer = await echo(port);
    expect(answer.status).toBe(200);
    expect(answer.json.exit.ip).toBe(port.currentIp);
    expect(answer.json.exit.country).toBe(port.country);
    expect(answer.json.exit.asn).toBeGreaterThanOrEqual(64512);
    expect(answer.json.exit.asn).toBeLessThanOrEqual(65534);
    expect(answer.json.exit.asnName).toBe(port.carrierName);
  });
});

describe('POST /__sandbox/mobile/offline', () => {
  it('makes the gateway refuse the port (503 unavailable) until the time passes, and 0 ends it', async () => {
    const port = await manualPort(sandbox);
    const armed = await sandbox.control('POST', '/mobile/offline', { portId: port.id, seconds: 90 });
    expect(armed.status).toBe(200);
    expect(Date.parse(armed.json.offlineUntil) - Date.parse(await sandbox.now())).toBe(90_000);
    const refused = await echo(port);
    expect(refused.status).toBe(503);
    expect(refused.headers['x-sandbox-gateway-error']).toBe('unavailable');
    expect(refused.body).toContain('Modem offline');
    await sandbox.advance(89);
    expect((await echo(port)).status).toBe(503);
    await sandbox.advance(1);
    expect((await echo(port)).status).toBe(200);
    await sandbox.control('POST', '/mobile/offline', { portId: port.id, seconds: 600 });
    expect((await echo(port)).status).toBe(503);
    expect((await sandbox.control('POST', '/mobile/offline', { portId: port.id, seconds: 0 })).json).toEqual({
      portId: port.id,
      offlineUntil: null,
    });
    expect((await echo(port)).status).toBe(200);
  });

  it('refuses bad input and unknown ports', async () => {
    const port = await manualPort(sandbox);
    expect((await sandbox.control('POST', '/mobile/offline', { portId: port.id })).status).toBe(422);
    expect((await sandbox.control('POST', '/mobile/offline', { portId: port.id, seconds: -1 })).status).toBe(
      422,
    );
    expect((await sandbox.control('POST', '/mobile/offline', { portId: 'mp_nope', seconds: 5 })).status).toBe(
      404,
    );
  });
});

describe('POST /__sandbox/mobile/repeat-ip', () => {
  it('makes the next rotation hand back the IP the port had before its current one', async () => {
    const port = await manualPort(sandbox);
    const second = await rotate(port.id);
    expect(second).not.toBe(port.currentIp);
    const armed = await sandbox.control('POST', '/mobile/repeat-ip', { portId: port.id });
    expect(armed.json).toEqual({ portId: port.id, remaining: 1, ip: port.currentIp });
    expect(await rotate(port.id)).toBe(port.currentIp);
    // Used up: the next one draws again.
    const next = await rotate(port.id);
    expect([port.currentIp, second]).not.toContain(next);
  });

  it('is 404 for an unknown port and disarms with times 0', async () => {
    const port = await manualPort(sandbox);
    await sandbox.control('POST', '/mobile/repeat-ip', { portId: port.id });
    expect((await sandbox.control('POST', '/mobile/repeat-ip', { portId: port.id, times: 0 })).status).toBe(
      200,
    );
    expect(await rotate(port.id)).not.toBe(port.currentIp);
    expect((await sandbox.control('POST', '/mobile/repeat-ip', { portId: 'mp_nope' })).status).toBe(404);
  });
});

describe('earlierIp', () => {
  const record = (ips: string[]) =>
    ({
      ipHistory: ips.map((ip, i) => ({ ip, assignedAt: i, releasedAt: null, trigger: 'manual' })),
    }) as unknown as MobilePortRecord;

  it('is the newest IP before the current one that differs from it, or null when there is none', () => {
    expect(earlierIp(record(['1.1.1.1', '2.2.2.2', '3.3.3.3', '3.3.3.3']))).toBe('2.2.2.2');
    expect(earlierIp(record(['1.1.1.1', '1.1.1.1']))).toBeNull();
    expect(earlierIp(record(['1.1.1.1']))).toBeNull();
  });
});

describe('POST /__sandbox/mobile/network', () => {
  it('moves the exit to another ASN and country, and asn null moves it back', async () => {
    const port = await manualPort(sandbox);
    const before = (await echo(port)).json.exit;
    const moved = await sandbox.control('POST', '/mobile/network', {
      portId: port.id,
      asn: 65001,
      asnName: 'Other Mobile',
      country: 'FR',
    });
    expect(moved.status).toBe(200);
    expect(moved.json.exitNetwork).toEqual({ asn: 65001, asnName: 'Other Mobile', country: 'FR' });
    const after = (await echo(port)).json.exit;
    expect(after).toMatchObject({ ip: before.ip, asn: 65001, asnName: 'Other Mobile', country: 'FR' });
    await sandbox.control('POST', '/mobile/network', { portId: port.id, asn: null });
    expect((await echo(port)).json.exit).toMatchObject({ asn: before.asn, country: before.country });
    expect(
      (await sandbox.control('POST', '/mobile/network', { portId: port.id, asn: 1, country: 'fr' })).status,
    ).toBe(422);
  });
});

describe('the offline modem and the moved network with --data', () => {
  it('survive a restart; a relocation gives the port a new modem on its carrier’s network', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-health-'));
    const file = join(dir, 'state.json');
    const first = await TestSandbox.start({ dataFile: file });
    const port = await manualPort(first);
    await first.control('POST', '/mobile/offline', { portId: port.id, seconds: 600 });
    await first.control('POST', '/mobile/network', { portId: port.id, asn: 65010, country: 'FR' });
    await first.close();
    const again = await TestSandbox.start({ dataFile: file });
    try {
      const credentials = { username: port.username, password: port.password };
      const refused = await proxyGet(again.sandbox.gateway, credentials, 'http://example.com/');
      expect(refused.status).toBe(503);
      await again.control('POST', '/mobile/offline', { portId: port.id, seconds: 0 });
      const moved = await proxyGet(again.sandbox.gateway, credentials, 'http://example.com/');
      expect(moved.json.exit).toMatchObject({ asn: 65010, country: 'FR' });
      const relocated = await again.request('POST', `/v1/mobile/${port.id}/relocate`, {
        body: { country: 'DE', carrier: 'telekom_de', city: 'munich' },
      });
      expect(relocated.status).toBe(202);
      await again.advance(120);
      const fresh = await proxyGet(again.sandbox.gateway, credentials, 'http://example.com/');
      expect(fresh.json.exit.country).toBe('DE');
      expect(fresh.json.exit.asn).not.toBe(65010);
    } finally {
      await again.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
