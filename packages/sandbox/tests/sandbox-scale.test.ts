import { afterEach, describe, expect, it } from 'vitest';
import { parseSandboxArgs, parseScale, UsageError } from '../src/sandbox-cli-args';
import { TestSandbox } from '../src/testing';

let sandbox: TestSandbox | null = null;
afterEach(async () => {
  await sandbox?.close();
  sandbox = null;
});

describe('a scale sandbox', () => {
  it('seeds the totals asked for: ports, one subscription with its sub-users, final and abandoned top-ups', async () => {
    sandbox = await TestSandbox.start({ scale: { ports: 40, subUsers: 60, topUps: 30, abandonedTopUps: 6 } });
    const ports = await sandbox.request<{ data: { id: string }[] }>('GET', '/v1/mobile');
    expect(ports.json.data).toHaveLength(40);
    expect(new Set(ports.json.data.map((port) => port.id)).size).toBe(40);

    const subscriptions = await sandbox.request<{
      data: { id: string; label: string; subUserCount: number }[];
    }>('GET', '/v1/residential/subscriptions');
    const team = subscriptions.json.data.find((sub) => sub.label === 'Scale team');
    expect(team?.subUserCount).toBe(60);
    const subUsers = await sandbox.request<{ data: unknown[]; limit: number }>(
      'GET',
      `/v1/residential/subscriptions/${team?.id}/sub-users`,
    );
    expect(subUsers.json.data).toHaveLength(60);
    // The limit is raised to fit, and it still holds: one more is refused.
    expect(subUsers.json.limit).toBe(60);
    const extra = await sandbox.request('POST', `/v1/residential/subscriptions/${team?.id}/sub-users`, {
      body: { label: 'One too many' },
    });
    expect(extra.status).toBe(409);

    const topUps = await sandbox.request<{
      data: { status: string; final: boolean }[];
      pagination: { total: number };
    }>('GET', '/v1/topups?perPage=100');
    expect(topUps.json.pagination.total).toBe(30);
    const open = topUps.json.data.filter((topUp) => !topUp.final);
    expect(open).toHaveLength(6);
    expect(open.every((topUp) => topUp.status === 'expired')).toBe(true);
  });

  it('seeds traffic subscriptions up to the total, "Scale team" counted, over the plans on sale', async () => {
    sandbox = await TestSandbox.start({ scale: { subscriptions: 40, subUsers: 3 } });
    const list = await sandbox.request<{
      data: { id: string; label: string; productId: string; status: string; autoRenew: boolean }[];
    }>('GET', '/v1/residential/subscriptions');
    const subscriptions = list.json.data;
    expect(subscriptions).toHaveLength(40);
    expect(new Set(subscriptions.map((sub) => sub.id)).size).toBe(40);
    expect(subscriptions.filter((sub) => sub.label === 'Scale team')).toHaveLength(1);
    // What a list at scale has to sort and filter: both products, unlabelled ones, both auto-renews.
    expect(new Set(subscriptions.map((sub) => sub.productId))).toEqual(new Set(['residential', 'mobile-gb']));
    expect(subscriptions.some((sub) => sub.label === '')).toBe(true);
    expect(new Set(subscriptions.map((sub) => sub.autoRenew))).toEqual(new Set([true, false]));
    expect(subscriptions.some((sub) => sub.status === 'depleted')).toBe(true);
  });

  it('still matches a late payment of an abandoned top-up (its amount stays reserved)', async () => {
    sandbox = await TestSandbox.start({ scale: { topUps: 5, abandonedTopUps: 2 } });
    const list = await sandbox.request<{
      data: { id: string; final: boolean; network: string; amountCrypto: string }[];
    }>('GET', '/v1/topups?status=expired');
    const abandoned = list.json.data.find((topUp) => !topUp.final);
    expect(abandoned).toBeDefined();
    await sandbox.control('POST', '/chain/transactions', {
      network: abandoned?.network,
      amountCrypto: abandoned?.amountCrypto,
    });
    const after = await sandbox.request<{ status: string }>('GET', `/v1/topups/${abandoned?.id}`);
    expect(after.json.status).toBe('verifying');
  });

  it('is read from --scale', () => {
    expect(parseSandboxArgs(['--scale', 'ports=1000,sub-users=5000,topups=300'])).toEqual({
      scale: { ports: 1000, subUsers: 5000, topUps: 300 },
    });
    expect(parseScale('topups=10,abandoned-topups=3')).toEqual({ topUps: 10, abandonedTopUps: 3 });
    expect(parseScale('subscriptions=200')).toEqual({ subscriptions: 200 });
    expect(() => parseScale('ports')).toThrow(UsageError);
    expect(() => parseScale('servers=3')).toThrow(
      /ports, subscriptions, sub-users, topups, abandoned-topups/,
    );
    expect(() => parseScale('ports=999999')).toThrow(UsageError);
  });
});
