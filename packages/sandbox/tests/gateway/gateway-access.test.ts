import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import { manualPort } from '../mobile/mobile-test-support';
import {
  createSubUser,
  getSubscription,
  listSubUsers,
  SEEDED_SUBSCRIPTION_LABELS,
  SUBSCRIPTIONS,
  subscriptionByLabel,
  subUserByLabel,
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
const status = async (credentials: { username: string; password: string }) =>
  (await proxyGet(gateway(), credentials, 'http://example.com/')).status;

describe('sandbox gateway: the old password after a reset', () => {
  it('keeps a subscription password working for 60 s of sandbox clock after reset-password, then refuses it', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const reset = await sandbox.request('POST', `${SUBSCRIPTIONS}/${sub.id}/reset-password`);
    expect(reset.status).toBe(200);
    const old = { username: sub.username, password: sub.password };
    const fresh = { username: sub.username, password: reset.json.password as string };
    expect(await status(old)).toBe(200);
    expect(await status(fresh)).toBe(200);
    await sandbox.advance(59);
    expect(await status(old)).toBe(200);
    await sandbox.advance(1);
    expect(await status(old)).toBe(407);
    expect(await status(fresh)).toBe(200);
    // SOCKS5 follows the same rule.
    const socks = await socks5(gateway(), old, { host: 'example.com', port: 80 });
    expect(socks.authStatus).toBe(0x01);
  });

  it('does the same for a mobile port (reset-password) and a sub-user (regeneratePassword)', async () => {
    const port = await manualPort(sandbox);
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const subUser = await subUserByLabel(sandbox, sub.id, 'Scraper US');
    const portReset = await sandbox.request('POST', `/v1/mobile/${port.id}/reset-password`);
    const regenerated = await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}/sub-users/${subUser.id}`, {
      body: { regeneratePassword: true },
    });
    expect(regenerated.json.password).not.toBe(subUser.password);
    await sandbox.advance(30);
    expect(await status(port)).toBe(200);
    expect(await status(subUser)).toBe(200);
    await sandbox.advance(30);
    expect(await status(port)).toBe(407);
    expect(await status(subUser)).toBe(407);
    expect(await status({ username: port.username, password: portReset.json.password })).toBe(200);
    expect(await status({ username: subUser.username, password: regenerated.json.password })).toBe(200);
  });

  it('stops a tunnel opened with the old password once its grace has ended (403 inside the tunnel)', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const { reader, response } = await connectTunnel(gateway(), sub, 'example.com:80');
    try {
      expect(response.status).toBe(200);
      await sandbox.request('POST', `${SUBSCRIPTIONS}/${sub.id}/reset-password`);
      await sandbox.advance(10);
      expect((await getInTunnel(reader, 'example.com')).status).toBe(200);
      await sandbox.advance(50);
      const refused = await getInTunnel(reader, 'example.com');
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('Credentials no longer valid');
    } finally {
      reader.close();
    }
  });
});

describe('sandbox gateway: sub-users', () => {
  it('refuses a disabled sub-user with a 403 page, on CONNECT too, and SOCKS5 with reply 0x02', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const disabled = (await listSubUsers(sandbox, sub.id)).find((s) => !s.enabled);
    const answer = await proxyGet(gateway(), disabled, 'http://example.com/');
    expect(answer.status).toBe(403);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.body).toContain('Sub-user disabled');
    const tunnel = await connectTunnel(gateway(), disabled, 'example.com:80');
    expect(tunnel.response.status).toBe(403);
    tunnel.reader.close();
    const socks = await socks5(gateway(), disabled, { host: 'example.com', port: 80 });
    expect(socks).toMatchObject({ authStatus: 0x00, reply: 0x02 });
    // Enabling it lets it through at once.
    await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}/sub-users/${disabled.id}`, {
      body: { enabled: true },
    });
    expect(await status(disabled)).toBe(200);
  });

  it('cuts a sub-user off at its cap: the request that would exceed it is refused and not counted', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const capped = await createSubUser(sandbox, sub.id, { label: 'Capped', trafficLimitBytes: null });
    // A session keeps the exit (and so the echo's size) the same for every request.
    const credentials = { username: `${capped.username}-session-cap`, password: capped.password };
    const usedOf = async () =>
      (await listSubUsers(sandbox, sub.id)).find((s) => s.id === capped.id).trafficUsedBytes as number;
    const first = await proxyGet(gateway(), credentials, 'http://example.com/');
    expect(first.status).toBe(200);
    const exchange = first.sent + first.received;
    expect(await usedOf()).toBe(exchange);
    // Room for one more exchange and a half.
    const cap = 2 * exchange + Math.floor(exchange / 2);
    await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}/sub-users/${capped.id}`, {
      body: { trafficLimitBytes: cap },
    });
    expect((await proxyGet(gateway(), credentials, 'http://example.com/')).status).toBe(200);
    const over = await proxyGet(gateway(), credentials, 'http://example.com/');
    expect(over.status).toBe(403);
    expect(over.body).toContain('Traffic cap reached');
    expect(await usedOf()).toBe(2 * exchange);
    // At the cap exactly, the sub-user is refused before anything else.
    await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}/sub-users/${capped.id}`, {
      body: { trafficLimitBytes: 2 * exchange },
    });
    const atCap = await proxyGet(gateway(), credentials, 'http://example.com/');
    expect(atCap.status).toBe(403);
    expect(atCap.body).toContain('has used its traffic cap');
    const socks = await socks5(gateway(), credentials, { host: 'example.com', port: 80 });
    expect(socks.reply).toBe(0x02);
    expect(await usedOf()).toBe(2 * exchange);
  });

  it('refuses a deleted sub-user as unknown credentials (407)', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const subUser = await createSubUser(sandbox, sub.id, { label: 'Temporary', trafficLimitBytes: null });
    expect(await status(subUser)).toBe(200);
    await sandbox.request('DELETE', `${SUBSCRIPTIONS}/${sub.id}/sub-users/${subUser.id}`);
    expect(await status(subUser)).toBe(407);
  });

  it('refuses every user of a subscription that has expired (403)', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.expiringSoon);
    expect(await status(sub)).toBe(200);
    await sandbox.advance(3 * 86_400);
    expect((await getSubscription(sandbox, sub.id)).status).toBe('expired');
    const answer = await proxyGet(gateway(), sub, 'http://example.com/');
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('Subscription expired');
  });
});
