import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, AuthError, isOutcomeUnknown } from '../../src-main/api/api-errors';
import { carrierCityIds, describeRejection, type MobilePort } from '../../src-shared/api-types';
import { type ProxyServiceClient } from '../../src-main/api/proxy-service-client';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { clearRequestLog, requestLog, sandboxClient } from './support/api-test-kit';

// Every method against the real sandbox: the schemas must accept what the sandbox sends (which also
// cross-checks the sandbox against the spec), and each call must reach the right route.

let sandbox: TestSandbox;
let client: ProxyServiceClient;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
  client = sandboxClient(sandbox);
});

afterEach(async () => {
  await client.close();
  await sandbox.close();
});

const BTC_TXID = 'ab'.repeat(32);

async function activeManualPort(): Promise<MobilePort> {
  const ports = await client.listMobilePorts();
  const port = ports.find((p) => p.status === 'active' && p.rotation.mode === 'manual');
  if (!port) throw new Error('the seeded account has no active port in manual rotation');
  return port;
}

describe('traffic subscriptions', () => {
  it('lists subscriptions, all of them or one product', async () => {
    const all = await client.listSubscriptions();
    expect(all.length).toBeGreaterThan(0);
    const residential = await client.listSubscriptions({ productId: 'residential' });
    const mobileGb = await client.listSubscriptions({ productId: 'mobile-gb' });
    expect(residential.every((s) => s.productId === 'residential')).toBe(true);
    expect(mobileGb.every((s) => s.productId === 'mobile-gb')).toBe(true);
    expect(residential.length + mobileGb.length).toBe(all.length);
    for (const subscription of all) {
      expect(subscription.trafficUsedBytes + subscription.trafficRemainingBytes).toBeLessThanOrEqual(
        subscription.trafficTotalBytes,
      );
      expect(typeof subscription.endpoint.httpPort).toBe('number');
    }
  });

  it('reads one subscription and changes its label and auto-renew', async () => {
    const [first] = await client.listSubscriptions();
    const read = await client.getSubscription(first!.id);
    expect(read.id).toBe(first!.id);
    const changed = await client.updateSubscription(first!.id, {
      label: 'Renamed by client',
      autoRenew: !read.autoRenew,
    });
    expect(changed.label).toBe('Renamed by client');
    expect(changed.autoRenew).toBe(!read.autoRenew);
    expect((await client.getSubscription(first!.id)).label).toBe('Renamed by client');
  });

  it('resets the main-user password', async () => {
    const [first] = await client.listSubscriptions();
    const reset = await client.resetSubscriptionPassword(first!.id);
    expect(reset.password).not.toBe(first!.password);
    expect(reset.password.length).toBeGreaterThan(0);
  });

  it('reads usage for a window, and for one sub-user', async () => {
    const [first] = await client.listSubscriptions();
    const report = await client.getSubscriptionUsage(first!.id, { from: '2026-03-01', to: '2026-03-10' });
    expect(report.from).toBe('2026-03-01');
    expect(report.to).toBe('2026-03-10');
    expect(report.points).toHaveLength(10);
    expect(report.totalBytes).toBe(report.points.reduce((sum, p) => sum + p.bytes, 0));
    const subUser = await client.createSubUser(first!.id, { label: 'usage probe' });
    const own = await client.getSubscriptionUsage(first!.id, { subUserId: subUser.id });
    expect(own.to).toBe('2026-03-10');
    expect(own.totalBytes).toBeLessThanOrEqual(
      (await client.getSubscriptionUsage(first!.id, { from: own.from, to: own.to })).totalBytes,
    );
  });

  it('creates, lists, changes and deletes a sub-user', async () => {
    const [first] = await client.listSubscriptions();
    const created = await client.createSubUser(first!.id, {
      label: 'Scraper A',
      password: 'S3cret-pass',
      trafficLimitBytes: 1_000_000_000,
    });
    expect(created).toMatchObject({
      label: 'Scraper A',
      password: 'S3cret-pass',
      trafficLimitBytes: 1_000_000_000,
    });
    const list = await client.listSubUsers(first!.id);
    expect(list.data.map((s) => s.id)).toContain(created.id);
    expect(list.limit === null || Number.isInteger(list.limit)).toBe(true);

    const disabled = await client.updateSubUser(first!.id, created.id, {
      enabled: false,
      trafficLimitBytes: null,
      regeneratePassword: true,
    });
    expect(disabled.enabled).toBe(false);
    expect(disabled.trafficLimitBytes).toBeNull();
    expect(disabled.password).not.toBe('S3cret-pass');

    await expect(client.deleteSubUser(first!.id, created.id)).resolves.toBeUndefined();
    expect((await client.listSubUsers(first!.id)).data.map((s) => s.id)).not.toContain(created.id);
  });
});

describe('mobile ports', () => {
  it('lists ports and reads one', async () => {
    const ports = await client.listMobilePorts();
    expect(ports.length).toBeGreaterThan(0);
    const port = await client.getMobilePort(ports[0]!.id);
    expect(port.id).toBe(ports[0]!.id);
    expect(port.minRotationIntervalSeconds).toBe(30);
    expect(port.rotationLink).toContain('key=');
  });

  it('switches rotation to an interval and back to manual, and renames', async () => {
    const port = await activeManualPort();
    const interval = await client.updateMobilePort(port.id, {
      rotation: { mode: 'interval', intervalMinutes: 15 },
    });
    expect(interval.rotation).toEqual({ mode: 'interval', intervalMinutes: 15 });
    const manual = await client.updateMobilePort(port.id, {
      label: 'Renamed port',
      autoRenew: false,
      rotation: { mode: 'manual', intervalMinutes: null },
    });
    expect(manual.rotation).toEqual({ mode: 'manual', intervalMinutes: null });
    expect(manual).toMatchObject({ label: 'Renamed port', autoRenew: false });
  });

  it('rotates now, and a second rotation within 30 s is a 429 with retryAfterMs, sent once', async () => {
    const port = await activeManualPort();
    const result = await client.rotateMobilePort(port.id);
    expect(result.previousIp).toBe(port.currentIp);
    expect(Date.parse(result.nextRotationAvailableAt) - Date.parse(result.rotatedAt)).toBe(30_000);
    await sandbox.advance(10);
    await clearRequestLog(sandbox);

    const error = await client.rotateMobilePort(port.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 429,
      code: 'rotation_too_soon',
      retryAfterMs: 20_000,
      outcomeUnknown: false,
    });
    expect((await requestLog(sandbox)).filter((r) => r.path.endsWith('/rotate'))).toHaveLength(1);
  });

  it('rotates through the GET link form, as JSON and as text', async () => {
    const port = await activeManualPort();
    const json = await client.rotateMobilePortViaLink(port.id);
    expect(json.previousIp).toBe(port.currentIp);
    await sandbox.advance(30);
    const text = await client.rotateMobilePortViaLink(port.id, { format: 'text' });
    expect(text.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect((await client.getMobilePort(port.id)).currentIp).toBe(text.ip);
    const history = await client.getMobileIpHistory(port.id, { perPage: 2 });
    expect(history.data.map((e) => e.trigger)).toEqual(['link', 'link']);
  });

  it("tests a port's own rotation link as given", async () => {
    const port = await activeManualPort();
    const result = await client.testRotationLink(port.rotationLink);
    expect(result.previousIp).toBe(port.currentIp);
    const log = await requestLog(sandbox);
    const rotate = log.filter((r) => r.method === 'GET' && r.path.includes('/rotate'));
    expect(rotate).toHaveLength(1);
    expect(rotate[0]!.path).not.toContain(DEMO_KEY);
  });

  it('relocates to a carrier with free modems: 202 and provisioning', async () => {
    const port = await activeManualPort();
    const countries = await client.listCountries({ product: 'mobile' });
    let target: { country: string; carrier: string } | null = null;
    for (const country of countries) {
      const carrier = (await client.listCarriers(country.code)).find(
        (c) => c.available && c.id !== port.carrier,
      );
      if (carrier) {
        target = { country: country.code, carrier: carrier.id };
        break;
      }
    }
    expect(target).not.toBeNull();
    const moved = await client.relocateMobilePort(port.id, { ...target!, city: null });
    expect(moved.status).toBe('provisioning');
    expect(moved.country).toBe(target!.country);
  });

  it('resets the port password', async () => {
    const port = await activeManualPort();
    const reset = await client.resetMobilePortPassword(port.id);
    expect(reset.password).not.toBe(port.password);
  });

  it('pages the IP history, newest first', async () => {
    const port = await activeManualPort();
    await client.rotateMobilePort(port.id);
    const page = await client.getMobileIpHistory(port.id, { page: 1, perPage: 1 });
    expect(page.pagination).toMatchObject({ page: 1, perPage: 1 });
    expect(page.pagination.total).toBeGreaterThanOrEqual(2);
    expect(page.data[0]).toMatchObject({ trigger: 'manual', releasedAt: null });
    const second = await client.getMobileIpHistory(port.id, { page: 2, perPage: 1 });
    expect(second.data[0]!.releasedAt).not.toBeNull();
  });

  it('reads port usage for a window', async () => {
    const port = await activeManualPort();
    const report = await client.getMobilePortUsage(port.id, { from: '2026-03-04', to: '2026-03-10' });
    expect(report.points).toHaveLength(7);
    expect(report.byCountry.reduce((sum, c) => sum + c.bytes, 0)).toBe(report.totalBytes);
  });
});

describe('catalog (public)', () => {
  it('lists countries, filtered by product, and the states, cities, ASNs and carriers of one', async () => {
    const all = await client.listCountries();
    expect(all.length).toBeGreaterThanOrEqual(40);
    const mobile = await client.listCountries({ product: 'mobile' });
    expect(mobile.every((c) => c.products.includes('mobile'))).toBe(true);
    expect(mobile.length).toBeLessThanOrEqual(all.length);

    const states = await client.listStates('us');
    expect(states.length).toBe(51);
    const cities = await client.listCities('US');
    expect(cities.length).toBeGreaterThan(0);
    const mobileCities = await client.listCities('US', { product: 'mobile' });
    expect(mobileCities.length).toBeLessThanOrEqual(cities.length);
    const asns = await client.listAsns('US');
    expect(asns.every((a) => Number.isInteger(a.asn))).toBe(true);
    const carriers = await client.listCarriers('US');
    expect(carriers.length).toBeGreaterThan(0);
    const cityIds = new Set(cities.map((c) => c.id));
    for (const carrier of carriers) {
      for (const id of carrierCityIds(carrier)) expect(cityIds.has(id)).toBe(true);
    }
  });

  it('works without any API key', async () => {
    const anonymous = sandboxClient(sandbox, { apiKey: null });
    try {
      expect((await anonymous.listCountries()).length).toBeGreaterThan(0);
      expect((await anonymous.listStates('US')).length).toBeGreaterThan(0);
      expect(anonymous.hasApiKey).toBe(false);
    } finally {
      await anonymous.close();
    }
  });

  it('lists coins with their networks and fixed deposit addresses', async () => {
    const coins = await client.listCoins();
    const pairs = coins.flatMap((coin) => coin.networks.map((n) => `${coin.code}/${n.id}`));
    expect(pairs).toEqual(
      expect.arrayContaining([
        'BTC/bitcoin',
        'LTC/litecoin',
        'ETH/ethereum',
        'SOL/solana',
        'USDT/tron',
        'USDT/ethereum',
        'USDC/ethereum',
        'USDC/solana',
      ]),
    );
    for (const network of coins.flatMap((c) => c.networks)) expect(network.address.length).toBeGreaterThan(0);
  });
});

describe('top-ups', () => {
  it('creates a top-up, declares its txid, reads it and lists it by status', async () => {
    const created = await client.createTopUp({ amountUsd: '25.00', coin: 'BTC', network: 'bitcoin' });
    expect(created).toMatchObject({
      status: 'awaiting_payment',
      final: false,
      amountUsd: '25.00',
      txid: null,
    });
    expect(Date.parse(created.expiresAt) - Date.parse(created.createdAt)).toBe(30 * 60_000);

    const declared = await client.declareTopUpTxid(created.id, { txid: BTC_TXID });
    expect(declared).toMatchObject({ status: 'verifying', txid: BTC_TXID });
    expect((await client.getTopUp(created.id)).status).toBe('verifying');

    const verifying = await client.listTopUps({ status: 'verifying', perPage: 100 });
    expect(verifying.data.map((t) => t.id)).toContain(created.id);
    expect(verifying.pagination.perPage).toBe(100);
  });

  it('declares without a txid (empty body)', async () => {
    const created = await client.createTopUp({ amountUsd: '30.00', coin: 'LTC', network: 'litecoin' });
    const declared = await client.declareTopUpTxid(created.id);
    expect(declared.status).toBe('verifying');
    expect(declared.txid).toBeNull();
  });

  it('reads a credited top-up with a completed purchase', async () => {
    const created = await client.createTopUp({
      amountUsd: '25.00',
      coin: 'USDT',
      network: 'tron',
      purchase: { planId: 'res-starter', quantity: 1 },
    });
    expect(created.purchase).toMatchObject({
      planId: 'res-starter',
      quantity: 1,
      status: 'pending',
      orderId: null,
    });
    const paid = await sandbox.control('POST', '/chain/transactions', {
      network: 'tron',
      amountCrypto: created.amountCrypto,
    });
    expect(paid.status).toBeLessThan(300);
    await sandbox.advance(3600);
    const credited = await client.getTopUp(created.id);
    expect(credited).toMatchObject({ status: 'credited', final: true, creditedUsd: '25.00' });
    expect(credited.purchase).toMatchObject({ status: 'completed' });
    expect(credited.purchase?.orderId).toEqual(expect.any(String));
  });

  it('reads a rejected top-up and its rejection', async () => {
    const created = await client.createTopUp({ amountUsd: '25.00', coin: 'BTC', network: 'bitcoin' });
    await client.declareTopUpTxid(created.id, { txid: BTC_TXID });
    await sandbox.advance(25 * 3600);
    const rejected = await client.getTopUp(created.id);
    expect(rejected.status).toBe('rejected');
    const rejection = describeRejection(rejected.rejection);
    expect(rejection?.message).toEqual(expect.any(String));
  });
});

describe('errors from the sandbox', () => {
  it('an unknown id is an ApiError 404 not_found, not retried', async () => {
    const error = await client.getMobilePort('port_missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      code: 'not_found',
      endpoint: 'GET /v1/mobile/{portId}',
      attempts: 1,
    });
  });

  it('invalid input is a 422 with one field error per bad field', async () => {
    const [first] = await client.listSubscriptions();
    const error = (await client
      .createSubUser(first!.id, { label: 'x'.repeat(61), password: 'has space', trafficLimitBytes: -1 })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(422);
    expect(error.fields.map((f) => f.field).sort()).toEqual(['label', 'password', 'trafficLimitBytes']);
    expect(error.fieldMessage('label')).toEqual(expect.any(String));
    expect(error.outcomeUnknown).toBe(false);
  });

  it('a top-up below 25.00 names amountUsd', async () => {
    const error = (await client
      .createTopUp({ amountUsd: '24.99', coin: 'BTC', network: 'bitcoin' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(422);
    expect(error.fields.map((f) => f.field)).toContain('amountUsd');
    expect(error.attempts).toBe(1);
  });

  it('a wrong key is an AuthError (unauthorized) whose message does not contain the key', async () => {
    const wrong = sandboxClient(sandbox, { apiKey: 'wrong-key-123456' });
    try {
      const error = (await wrong.listMobilePorts().catch((e: unknown) => e)) as AuthError;
      expect(error).toBeInstanceOf(AuthError);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(401);
      expect(error.reason).toBe('unauthorized');
      expect(JSON.stringify(error.toJSON())).not.toContain('wrong-key-123456');
    } finally {
      await wrong.close();
    }
  });

  it('a key without the proxies scope is an AuthError (forbidden) on the rotate link', async () => {
    const readonly = sandboxClient(sandbox, { apiKey: 'readonly-key' });
    try {
      const port = await activeManualPort();
      const error = (await readonly.rotateMobilePortViaLink(port.id).catch((e: unknown) => e)) as AuthError;
      expect(error).toBeInstanceOf(AuthError);
      expect(error).toMatchObject({ status: 403, reason: 'forbidden', code: 'insufficient_scope' });
      expect(error.message).not.toContain('readonly-key');
    } finally {
      await readonly.close();
    }
  });

  it('no key at all fails locally with missing_key and sends nothing', async () => {
    const anonymous = sandboxClient(sandbox, { apiKey: null });
    await clearRequestLog(sandbox);
    try {
      const error = (await anonymous.listSubscriptions().catch((e: unknown) => e)) as AuthError;
      expect(error).toBeInstanceOf(AuthError);
      expect(error).toMatchObject({ code: 'missing_key', attempts: 0 });
      const viaLink = await anonymous.rotateMobilePortViaLink('port_1').catch((e: unknown) => e);
      expect(viaLink).toMatchObject({ code: 'missing_key' });
      expect(await requestLog(sandbox)).toEqual([]);
    } finally {
      await anonymous.close();
    }
  });

  it('empty ids are refused before any request', async () => {
    await expect(client.getMobilePort('')).rejects.toThrow(TypeError);
    await expect(client.getTopUp('  ')).rejects.toThrow(/topUpId/);
  });

  it('reread fetches the current state of what a write targeted', async () => {
    const port = await activeManualPort();
    const [subscription] = await client.listSubscriptions();
    expect(await client.reread({ kind: 'mobilePort', portId: port.id })).toMatchObject({
      kind: 'mobilePort',
      port: { id: port.id },
    });
    expect(await client.reread({ kind: 'subscription', subscriptionId: subscription!.id })).toMatchObject({
      kind: 'subscription',
      subscription: { id: subscription!.id },
    });
    const subUsers = await client.reread({ kind: 'subUsers', subscriptionId: subscription!.id });
    expect(subUsers.kind).toBe('subUsers');
    const topUps = await client.reread({ kind: 'topUps' });
    expect(topUps.kind).toBe('topUps');
    expect(isOutcomeUnknown(new Error('plain'))).toBe(false);
  });
});
