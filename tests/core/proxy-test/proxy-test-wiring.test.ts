import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProxyTestResult } from '../../../src-shared/contract';
import {
  listSubUsers,
  manualPort,
  SEEDED_SUBSCRIPTION_LABELS,
  subscriptionByLabel,
  TestSandbox,
} from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from '../support/core-harness';

/*
 * proxy:test and proxy:testMany as the renderer calls them (guarded dispatcher, composition root) in
 * the demo, against the sandbox's API and its gateway over real sockets: credentials are read by
 * main and never come back.
 */

describe('proxy tests through the composition root, in the demo', () => {
  let sandbox: TestSandbox;
  let h: Harness;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    await sandbox.advance(60);
    h = await createHarness(sandbox);
    await h.call('demo:start');
  });

  afterEach(async () => {
    await h.core.dispose();
    await sandbox.close();
  });

  const noSecrets = (result: unknown, ...passwords: string[]) => {
    const text = JSON.stringify(result);
    for (const password of passwords) expect(text).not.toContain(password);
  };

  it.each(['http', 'socks5'] as const)(
    "tests a port over %s: the echo shows the port's IP",
    async (protocol) => {
      const port = await manualPort(sandbox);
      const result = await h.call('proxy:test', { target: { kind: 'port', portId: port.id, protocol } });
      expect(result).toMatchObject({
        ok: true,
        failure: null,
        exit: { ip: port.currentIp },
        proxy: {
          protocol,
          host: '127.0.0.1',
          port: protocol === 'http' ? port.endpoint.httpPort : port.endpoint.socksPort,
        },
        echoUrl: 'http://ip-echo.sandbox.invalid/',
      });
      noSecrets(result, port.password);
    },
  );

  it('tests a subscription string with ZIP targeting and a sub-user, over SOCKS5 and HTTP', async () => {
    const subscription = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const subUser = (await listSubUsers(sandbox, subscription.id)).find(
      (s) => s.enabled && s.trafficLimitBytes === null,
    );
    for (const protocol of ['socks5', 'http'] as const) {
      const result = await h.call('proxy:test', {
        target: {
          kind: 'subscription',
          subscriptionId: subscription.id,
          subUserId: subUser.id,
          targeting: { country: 'US', zip: '90210' },
          protocol,
        },
      });
      expect(result).toMatchObject({ ok: true, exit: { country: 'US', ip: expect.any(String) } });
      noSecrets(result, subscription.password, subUser.password);
    }
  });

  it('refuses targeting that can never match with field errors, before anything is sent', async () => {
    const subscription = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const error = await h
      .call('proxy:test', {
        target: {
          kind: 'subscription',
          subscriptionId: subscription.id,
          targeting: { state: 'texas' },
          protocol: 'http',
        },
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_input', fields: [{ field: 'target.targeting.state' }] });
  });

  it('explains a targeting no exit IP matches with the gateway page', async () => {
    const subscription = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const result = await h.call('proxy:test', {
      target: {
        kind: 'subscription',
        subscriptionId: subscription.id,
        targeting: { country: 'US', state: 'bavaria' },
        protocol: 'http',
      },
    });
    expect(result).toMatchObject({ ok: false, exit: null, failure: { kind: 'no_exit', status: 502 } });
  });

  it('explains a disabled sub-user and one at its cap as refused by the proxy', async () => {
    const subscription = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const subUsers = await listSubUsers(sandbox, subscription.id);
    const disabled = subUsers.find((s) => !s.enabled);
    const atCap = subUsers.find((s) => s.enabled && s.trafficLimitBytes !== null);
    for (const subUser of [disabled, atCap]) {
      const result = await h.call('proxy:test', {
        target: {
          kind: 'subscription',
          subscriptionId: subscription.id,
          subUserId: subUser.id,
          protocol: 'http',
        },
      });
      expect(result).toMatchObject({ ok: false, failure: { kind: 'forbidden', status: 403 } });
      expect(result.failure?.message).toContain('disabled or over its cap');
    }
  });

  it('verifies a rotation through the port: the receipt and the next test show the new exit IP', async () => {
    const port = await manualPort(sandbox);
    const receipt = await h.call('ports:rotate', { portId: port.id });
    expect(receipt.ip).not.toBe(port.currentIp);
    expect(receipt.verification).toEqual({ exitIp: receipt.ip, matches: true });
    const result = await h.call('proxy:test', { target: { kind: 'port', portId: port.id } });
    expect(result.exit?.ip).toBe(receipt.ip);
  });

  it('tests many: each target its own result in order, an unknown one a lookup failure', async () => {
    const port = await manualPort(sandbox);
    const subscription = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.expiringSoon);
    const results: ProxyTestResult[] = await h.call('proxy:testMany', {
      targets: [
        { kind: 'port', portId: port.id },
        { kind: 'port', portId: 'mp_does_not_exist' },
        { kind: 'subscription', subscriptionId: subscription.id, protocol: 'socks5' },
      ],
    });
    expect(results.map((r) => [r.target.kind, r.ok, r.failure?.kind ?? null])).toEqual([
      ['port', true, null],
      ['port', false, 'lookup'],
      ['subscription', true, null],
    ]);
    expect(results[0]?.exit?.ip).toBe(port.currentIp);
    expect(results.every((r) => !Number.isNaN(Date.parse(r.checkedAt)))).toBe(true);
    noSecrets(results, port.password, subscription.password);
  });

  it('refuses an empty or oversized testMany', async () => {
    await expect(h.call('proxy:testMany', { targets: [] })).rejects.toMatchObject({ code: 'invalid_input' });
    const many = Array.from({ length: 201 }, (_, i) => ({ kind: 'port' as const, portId: `mp_${i}` }));
    await expect(h.call('proxy:testMany', { targets: many })).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });
});
