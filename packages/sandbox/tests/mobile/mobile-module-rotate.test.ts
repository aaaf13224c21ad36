import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPoolAddress } from '../../src/mobile/ip-pool';
import { findPlan } from '../../src/orders/plan-catalog';
import { provisionPortPlan } from '../../src/mobile/port-provisioning';
import { TestSandbox } from '../../src/testing';
import { fullHistory, getPort, manualPort, ms, portByLabel, SEEDED_PORT_LABELS } from './mobile-test-support';

let sandbox: TestSandbox;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
});

afterEach(async () => {
  await sandbox.close();
});

const rotateByLink = (id: string, query: string) =>
  sandbox.request('GET', `/v1/mobile/${id}/rotate?${query}`, { key: null });

describe('POST /v1/mobile/{portId}/rotate', () => {
  it('rotates now: the result, the port and the history agree', async () => {
    const port = await manualPort(sandbox);
    const now = await sandbox.now();
    const answer = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      ip: expect.any(String),
      previousIp: port.currentIp,
      rotatedAt: now,
      nextRotationAvailableAt: new Date(ms(now) + 30_000).toISOString(),
    });
    expect(isPoolAddress(port.country, port.carrier, answer.json.ip)).toBe(true);
    const after = await getPort(sandbox, port.id);
    expect(after).toMatchObject({ currentIp: answer.json.ip, ipChangedAt: now });
    const [current, previous] = await fullHistory(sandbox, port.id);
    expect(current).toEqual({ ip: answer.json.ip, assignedAt: now, releasedAt: null, trigger: 'manual' });
    expect(previous).toMatchObject({ ip: port.currentIp, assignedAt: port.ipChangedAt, releasedAt: now });
  });

  it('refuses a second rotation within 30 s: 429 rotation_too_soon with Retry-After until the next slot', async () => {
    const port = await manualPort(sandbox);
    const first = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
    expect(first.status).toBe(200);
    await sandbox.advance(10);
    const tooSoon = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.json.error).toMatchObject({ code: 'rotation_too_soon', message: expect.any(String) });
    expect(tooSoon.headers.get('retry-after')).toBe('20');
    await sandbox.advance(19);
    const stillTooSoon = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
    expect(stillTooSoon.headers.get('retry-after')).toBe('1');
    expect((await getPort(sandbox, port.id)).currentIp).toBe(first.json.ip);
    expect((await fullHistory(sandbox, port.id))[0].assignedAt).toBe(first.json.rotatedAt);
    await sandbox.advance(1);
    const onTime = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
    expect(onTime.status).toBe(200);
    expect(onTime.json.rotatedAt).toBe(first.json.nextRotationAvailableAt);
  });

  it('rounds Retry-After up to whole seconds', async () => {
    const world = sandbox.sandbox.world;
    const plan = findPlan('mobile-port-7d');
    if (!plan) throw new Error('plan missing');
    // A port whose IP was assigned 10.5 s ago: 19.5 s remain, announced as 20.
    const result = provisionPortPlan(world, {
      plan,
      quantity: 1,
      country: 'US',
      carrier: 'verizon',
      now: world.clock.now() - 10_500,
    });
    if (!result.ok) throw new Error(result.reason);
    const answer = await sandbox.request('POST', `/v1/mobile/${result.portIds[0]}/rotate`);
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('20');
  });

  it('counts the 30 s from the last IP change, whatever caused it (here an interval rotation)', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.interval);
    const [last] = await fullHistory(sandbox, port.id);
    const secondsToNext = (ms(last.assignedAt) + 30 * 60_000 - ms(await sandbox.now())) / 1000;
    await sandbox.advance(secondsToNext + 5);
    expect((await fullHistory(sandbox, port.id))[0].trigger).toBe('interval');
    const tooSoon = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.headers.get('retry-after')).toBe('25');
  });

  it('draws from the carrier pool and sometimes hands back the same IP (CGNAT), still recorded', async () => {
    const port = await manualPort(sandbox);
    const results: any[] = [];
    for (let i = 0; i < 40; i += 1) {
      const answer = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
      expect(answer.status).toBe(200);
      results.push(answer.json);
      await sandbox.advance(30);
    }
    const same = results.filter((r) => r.ip === r.previousIp);
    expect(same.length).toBeGreaterThan(0);
    expect(same.length).toBeLessThan(results.length / 2);
    for (const r of results) expect(isPoolAddress('DE', 'telekom_de', r.ip)).toBe(true);
    for (let i = 1; i < results.length; i += 1) expect(results[i].previousIp).toBe(results[i - 1].ip);
    const history = await fullHistory(sandbox, port.id);
    expect(history.slice(0, 40).map((e) => e.ip)).toEqual(results.map((r) => r.ip).reverse());
  });

  it('needs the proxies scope (403) and a known port (404)', async () => {
    const port = await manualPort(sandbox);
    const readonly = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`, { key: 'readonly-key' });
    expect(readonly.status).toBe(403);
    expect(readonly.json.error.code).toBe('insufficient_scope');
    expect((await getPort(sandbox, port.id)).currentIp).toBe(port.currentIp);
    expect((await sandbox.request('POST', '/v1/mobile/port_nope/rotate')).status).toBe(404);
  });

  it('is 409 port_provisioning while the port moves to a new modem', async () => {
    const port = await manualPort(sandbox);
    await sandbox.request('POST', `/v1/mobile/${port.id}/relocate`, {
      body: { country: 'DE', carrier: 'telekom_de' },
    });
    const answer = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
    expect(answer.status).toBe(409);
    expect(answer.json.error.code).toBe('port_provisioning');
  });

  it('is 409 port_expired once the port has expired', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.expiringSoon);
    await sandbox.advance((ms(port.expiresAt) - ms(await sandbox.now())) / 1000);
    const answer = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
    expect(answer.status).toBe(409);
    expect(answer.json.error.code).toBe('port_expired');
  });
});

describe('GET /v1/mobile/{portId}/rotate', () => {
  it('rotates with the key in the query, answers JSON by default and records the trigger link', async () => {
    const port = await manualPort(sandbox);
    const now = await sandbox.now();
    const answer = await rotateByLink(port.id, 'key=sandbox-demo-key');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.json).toMatchObject({ previousIp: port.currentIp, rotatedAt: now });
    const [current] = await fullHistory(sandbox, port.id);
    expect(current).toMatchObject({ ip: answer.json.ip, trigger: 'link' });
    await sandbox.advance(30);
    expect((await rotateByLink(port.id, 'key=sandbox-demo-key&format=json')).status).toBe(200);
  });

  it('answers the new IP as text/plain with format=text', async () => {
    const port = await manualPort(sandbox);
    const answer = await rotateByLink(port.id, 'key=sandbox-demo-key&format=text');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
    const after = await getPort(sandbox, port.id);
    expect(answer.text).toBe(after.currentIp);
  });

  it('refuses an unknown format (422 on format) without rotating', async () => {
    const port = await manualPort(sandbox);
    const answer = await rotateByLink(port.id, 'key=sandbox-demo-key&format=xml');
    expect(answer.status).toBe(422);
    expect(answer.json.error.fields).toEqual([
      { field: 'format', code: 'invalid_value', message: expect.any(String) },
    ]);
    expect((await getPort(sandbox, port.id)).ipChangedAt).toBe(port.ipChangedAt);
  });

  it('is 401 without a key, with an unknown key, and with the key only in the Authorization header', async () => {
    const port = await manualPort(sandbox);
    const missing = await rotateByLink(port.id, '');
    expect(missing.status).toBe(401);
    expect(missing.json.error.code).toBe('unauthorized');
    expect((await rotateByLink(port.id, 'key=wrong-key')).status).toBe(401);
    const headerOnly = await sandbox.request('GET', `/v1/mobile/${port.id}/rotate`);
    expect(headerOnly.status).toBe(401);
    expect((await getPort(sandbox, port.id)).ipChangedAt).toBe(port.ipChangedAt);
  });

  it('is 403 insufficient_scope with a key that lacks proxies', async () => {
    const port = await manualPort(sandbox);
    const answer = await rotateByLink(port.id, 'key=readonly-key');
    expect(answer.status).toBe(403);
    expect(answer.json.error.code).toBe('insufficient_scope');
    expect((await getPort(sandbox, port.id)).ipChangedAt).toBe(port.ipChangedAt);
  });

  it('shares the 30 s limit with POST rotate (429 with Retry-After)', async () => {
    const port = await manualPort(sandbox);
    expect((await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`)).status).toBe(200);
    await sandbox.advance(12);
    const answer = await rotateByLink(port.id, 'key=sandbox-demo-key&format=text');
    expect(answer.status).toBe(429);
    expect(answer.json.error.code).toBe('rotation_too_soon');
    expect(answer.headers.get('retry-after')).toBe('18');
  });

  it('is 409 port_provisioning while relocating, and 404 for an unknown port', async () => {
    const port = await manualPort(sandbox);
    await sandbox.request('POST', `/v1/mobile/${port.id}/relocate`, {
      body: { country: 'US', carrier: 'verizon' },
    });
    const answer = await rotateByLink(port.id, 'key=sandbox-demo-key');
    expect(answer.status).toBe(409);
    expect(answer.json.error.code).toBe('port_provisioning');
    expect((await rotateByLink('port_nope', 'key=sandbox-demo-key')).status).toBe(404);
  });
});

describe('rotation latency', () => {
  it('answers after a 5-15 s delay when latency is realistic, with the rotation recorded at request time', async () => {
    const delays: number[] = [];
    let release: () => void = () => undefined;
    const sleep = (delayMs: number) =>
      new Promise<void>((resolve) => {
        delays.push(delayMs);
        release = resolve;
      });
    const realistic = await TestSandbox.start({ latency: 'realistic', sleep });
    try {
      const port = (await realistic.request('GET', '/v1/mobile')).json.data.find(
        (p: any) => p.label === SEEDED_PORT_LABELS.berlin,
      );
      expect(delays).toEqual([]);
      const pending = realistic.request('POST', `/v1/mobile/${port.id}/rotate`);
      await waitUntil(() => delays.length === 1);
      expect(delays[0]).toBeGreaterThanOrEqual(5_000);
      expect(delays[0]).toBeLessThanOrEqual(15_000);
      // While the modem reconnects the port already has its new IP, and a second rotation is too soon.
      const during = (await realistic.request('GET', `/v1/mobile/${port.id}`)).json;
      expect(during.ipChangedAt).toBe(await realistic.now());
      const second = await realistic.request('POST', `/v1/mobile/${port.id}/rotate`);
      expect(second.status).toBe(429);
      release();
      const answer = await pending;
      expect(answer.status).toBe(200);
      expect(answer.json.ip).toBe(during.currentIp);
    } finally {
      release();
      await realistic.close();
    }
  });

  it('adds no delay when latency is fast', async () => {
    const delays: number[] = [];
    const fast = await TestSandbox.start({
      latency: 'fast',
      sleep: (delayMs) => {
        delays.push(delayMs);
        return Promise.resolve();
      },
    });
    try {
      const port = (await fast.request('GET', '/v1/mobile')).json.data[2];
      expect((await fast.request('POST', `/v1/mobile/${port.id}/rotate`)).status).toBe(200);
      expect(delays).toEqual([]);
    } finally {
      await fast.close();
    }
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  // Polls the in-process server's progress; nothing here depends on the sandbox clock.
  for (let i = 0; i < 400 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error('condition never became true');
}
