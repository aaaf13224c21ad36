import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Subscription } from '../../../src-main/api';
import { AppError } from '../../../src-main/core/errors';
import { ipcCalls } from '../../../src-shared/contract';
import {
  SUB_USER_ROW_COLUMNS,
  subUserRowsOf,
  trafficLimitToBytes,
} from '../../../src-shared/contract/subscriptions';
import { listSubUsers, TestSandbox } from '@proxy-manager/sandbox/testing';
import { subscriptionsKit } from './subscriptions-kit';

type Kit = ReturnType<typeof subscriptionsKit>;

const parse = <C extends keyof typeof ipcCalls>(channel: C, input: unknown) =>
  ipcCalls[channel].input.safeParse(input);

describe('caps entered in MB/GB become exact bytes (contract, in main)', () => {
  it.each([
    ['1.5', 'GB', 1_500_000_000],
    ['0.000000001', 'GB', 1],
    ['250', 'MB', 250_000_000],
    ['0', 'GB', 0],
    ['9007199.254740991', 'GB', Number.MAX_SAFE_INTEGER],
  ] as const)('%s %s is %d bytes', (amount, unit, bytes) => {
    expect(trafficLimitToBytes(amount, unit)).toEqual({ ok: true, bytes });
  });

  it.each([
    ['9007199.254740992', 'GB', /At most 9007199254740991 bytes/],
    ['0.0000001', 'MB', /At most 6 decimals/],
    ['-1', 'GB', /A number/],
    ['1e3', 'GB', /A number/],
    ['1,5', 'GB', /A number/],
  ] as const)('%s %s is refused on the amount field', (amount, unit, message) => {
    const result = parse('subscriptions:createSubUser', {
      subscriptionId: 's',
      label: 'x',
      trafficLimit: { amount, unit },
    });
    expect(result.success).toBe(false);
    const issue = result.error?.issues[0];
    expect(issue?.path).toEqual(['trafficLimit', 'amount']);
    expect(issue?.message).toMatch(message);
  });

  it('refuses labels with control or bidi characters, long or bad passwords, a bulk count out of range', () => {
    const base = { subscriptionId: 's' };
    expect(parse('subscriptions:createSubUser', { ...base, label: 'a\u202eb' }).success).toBe(false);
    expect(parse('subscriptions:createSubUser', { ...base, label: 'x'.repeat(61) }).success).toBe(false);
    expect(
      parse('subscriptions:createSubUser', { ...base, label: 'ok', password: 'has space' }).success,
    ).toBe(false);
    expect(
      parse('subscriptions:createSubUser', { ...base, label: 'ok', password: 'x'.repeat(65) }).success,
    ).toBe(false);
    expect(parse('subscriptions:createSubUsers', { ...base, labelPrefix: 'a', count: 21 }).success).toBe(
      false,
    );
    expect(parse('subscriptions:createSubUsers', { ...base, labelPrefix: 'a', count: 0 }).success).toBe(
      false,
    );
  });

  it('refuses an inverted or longer-than-366-day usage range on the right field', () => {
    const inverted = parse('subscriptions:usage', {
      subscriptionId: 's',
      from: '2026-02-01',
      to: '2026-01-31',
    });
    expect(inverted.error?.issues[0]?.path).toEqual(['to']);
    const long = parse('subscriptions:usage', { subscriptionId: 's', from: '2025-01-01', to: '2026-01-02' });
    expect(long.error?.issues[0]?.path).toEqual(['from']);
    expect(
      parse('subscriptions:usage', { subscriptionId: 's', from: '2025-01-01', to: '2026-01-01' }).success,
    ).toBe(true);
  });
});

describe('SubscriptionsService against the sandbox', () => {
  let sandbox: TestSandbox;
  let kit: Kit;
  let subs: Subscription[];
  const byLabel = (label: string) => subs.find((s) => s.label === label) as Subscription;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    kit = subscriptionsKit(sandbox);
    subs = await kit.handlers['subscriptions:list'](undefined);
  });

  afterEach(async () => {
    await kit.caller.close();
    await sandbox.close();
  });

  it('sends a 1.5 GB cap as 1500000000 bytes, once', async () => {
    const sub = byLabel('Price monitoring');
    const input = ipcCalls['subscriptions:createSubUser'].input.parse({
      subscriptionId: sub.id,
      label: 'Team B',
      trafficLimit: { amount: '1.5', unit: 'GB' },
    });
    await sandbox.control('DELETE', '/requests');
    const created = await kit.handlers['subscriptions:createSubUser'](input);
    expect(created.trafficLimitBytes).toBe(1_500_000_000);
    const posts = (await sandbox.requests()).filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(1);
    const listed = await kit.handlers['subscriptions:subUsers']({ subscriptionId: sub.id });
    expect(subUserRowsOf(listed).find((s) => s.id === created.id)?.trafficLimitBytes).toBe(1_500_000_000);
    expect(listed.limit).toBe(20);
    // Other windows hear of the new list.
    expect(kit.events.of('subscriptions:changed').at(-1)?.subUsers?.[sub.id]).toHaveLength(
      listed.rows.length,
    );
  });

  it('a create whose answer was lost is re-read, not sent again: found by its label', async () => {
    const sub = byLabel('Price monitoring');
    await sandbox.fault({
      match: `/subscriptions/${sub.id}/sub-users`,
      dropConnection: true,
      phase: 'after',
    });
    await sandbox.control('DELETE', '/requests');
    const created = await kit.handlers['subscriptions:createSubUser']({
      subscriptionId: sub.id,
      label: 'Lost one',
    });
    expect(created.label).toBe('Lost one');
    const log = await sandbox.requests();
    expect(log.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(log.filter((r) => r.method === 'GET' && r.path.endsWith('/sub-users'))).toHaveLength(1);
  });

  it('a lost create that did not happen says so (safe to retry), after one re-read', async () => {
    const sub = byLabel('Price monitoring');
    await sandbox.fault({
      match: `/subscriptions/${sub.id}/sub-users`,
      dropConnection: true,
      phase: 'before',
    });
    const error = await kit.handlers['subscriptions:createSubUser']({
      subscriptionId: sub.id,
      label: 'Never',
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('sub_user_outcome_unknown');
    expect((error as AppError).message).toMatch(/was not created\. You can try again/);
  });

  it('bulk create numbers after the highest taken and stops at the service limit, saying which were made', async () => {
    const sub = byLabel('Price monitoring');
    const before = await kit.handlers['subscriptions:subUsers']({ subscriptionId: sub.id });
    await kit.handlers['subscriptions:createSubUser']({ subscriptionId: sub.id, label: 'bot-2' });
    const room = 20 - before.rows.length - 1;
    const outcome = await kit.handlers['subscriptions:createSubUsers']({
      subscriptionId: sub.id,
      count: room + 2,
      labelPrefix: 'bot-',
      trafficLimit: 500_000_000,
    });
    expect(outcome.created.map((s) => s.label)).toEqual(
      Array.from({ length: room }, (_, i) => `bot-${i + 3}`),
    );
    expect(outcome.created.every((s) => s.trafficLimitBytes === 500_000_000)).toBe(true);
    expect(outcome.stoppedAtLimit).toBe(true);
    expect(outcome.notCreated.map((n) => n.label)).toEqual([`bot-${room + 3}`, `bot-${room + 4}`]);
    expect(outcome.notCreated[0]?.error.code).toBe('sub_user_limit_reached');
    expect(outcome.notCreated[1]?.error.code).toBe('not_sent');
  });

  it('updates, disables, regenerates the password of and deletes a sub-user', async () => {
    const sub = byLabel('Price monitoring');
    const made = await kit.handlers['subscriptions:createSubUser']({ subscriptionId: sub.id, label: 'Temp' });
    const updated = await kit.handlers['subscriptions:updateSubUser']({
      subscriptionId: sub.id,
      subUserId: made.id,
      label: 'Temp 2',
      enabled: false,
      trafficLimit: null,
      regeneratePassword: true,
    });
    expect(updated).toMatchObject({ label: 'Temp 2', enabled: false, trafficLimitBytes: null });
    expect(updated.password).not.toBe(made.password);
    await kit.handlers['subscriptions:deleteSubUser']({ subscriptionId: sub.id, subUserId: made.id });
    const after = await kit.handlers['subscriptions:subUsers']({ subscriptionId: sub.id });
    expect(subUserRowsOf(after).some((s) => s.id === made.id)).toBe(false);
  });

  it('usage: a start more than 366 days before today is refused before any request; the CSV has every day', async () => {
    const sub = byLabel('Price monitoring');
    await sandbox.control('DELETE', '/requests');
    const refused = await kit.handlers['subscriptions:usage']({
      subscriptionId: sub.id,
      from: '2025-03-09',
    }).then(
      () => null,
      (e: unknown) => e as AppError,
    );
    expect(refused?.fields).toEqual([{ field: 'from', message: expect.stringMatching(/At most 366 days/) }]);
    expect(await sandbox.requests()).toEqual([]);
    const exported = await kit.handlers['subscriptions:exportUsage']({
      subscriptionId: sub.id,
      from: '2026-03-01',
      to: '2026-03-10',
    });
    const lines = exported.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('date,bytes,requests');
    expect(lines.slice(1, 11).map((l) => l.split(',')[0])).toEqual(
      Array.from({ length: 10 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`),
    );
    expect(exported.rows).toBe(10);
    expect(exported.fileName).toBe(`subscription-${sub.id}-usage-2026-03-01-2026-03-10.csv`);
  });

  it("exports the chosen sub-users' credentials, one line each", async () => {
    const sub = byLabel('Price monitoring');
    const chosen = (await listSubUsers(sandbox, sub.id)).slice(0, 2);
    const exported = await kit.handlers['subscriptions:exportCredentials']({
      subscriptionId: sub.id,
      subUserIds: chosen.map((s) => s.id),
      format: 'host_port_user_pass',
    });
    expect(exported.text.trimEnd().split('\n')).toEqual(
      chosen.map((s) => `${sub.endpoint.host}:${sub.endpoint.httpPort}:${s.username}:${s.password}`),
    );
  });

  describe('proxy string builder', () => {
    const build = (targeting: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      kit.handlers['subscriptions:buildProxyString']({
        subscriptionId: byLabel('Price monitoring').id,
        targeting,
        format: 'http_url',
        protocol: 'http',
        ...extra,
      });
    const fieldsOf = (promise: Promise<unknown>) =>
      promise.then(
        () => [],
        (e: unknown) => (e as AppError).fields.map((f) => f.field),
      );

    it('builds a line with state (checked against the catalog) and a sticky session', async () => {
      const sub = byLabel('Price monitoring');
      const states = (await sandbox.request('GET', '/v1/catalog/countries/US/states')).json.data as {
        id: string;
      }[];
      const state = states[0]?.id as string;
      const { lines, password } = await build({ country: 'US', state, session: 'abc' });
      expect(password).toBe(sub.password);
      expect(lines).toEqual([
        `http://${sub.username}-country-us-state-${state}-session-abc:${encodeURIComponent(sub.password)}@${sub.endpoint.host}:${sub.endpoint.httpPort}`,
      ]);
    });

    it('builds N lines with numbered sessions on the SOCKS port', async () => {
      const sub = byLabel('Price monitoring');
      const { lines, port } = await build(
        { zip: '10001' },
        { count: 3, sessionPrefix: 'job', format: 'host_port_user_pass', protocol: 'socks5' },
      );
      expect(port).toBe(sub.endpoint.socksPort);
      expect(lines[2]).toBe(
        `${sub.endpoint.host}:${sub.endpoint.socksPort}:${sub.username}-country-us-zip-10001-session-job3:${sub.password}`,
      );
    });

    it.each([['1234'], ['123456'], ['1234a']])('refuses the ZIP %s on targeting.zip', async (zip) => {
      expect(await fieldsOf(build({ country: 'US', zip }))).toEqual(['targeting.zip']);
    });

    it('refuses a state for a country without states, and an unknown state, from the catalog', async () => {
      const countries = (await sandbox.request('GET', '/v1/catalog/countries')).json.data as {
        code: string;
      }[];
      let stateless: string | undefined;
      for (const { code } of countries) {
        const states = await sandbox.request('GET', `/v1/catalog/countries/${code}/states`);
        if (states.status === 200 && states.json.data.length === 0) {
          stateless = code;
          break;
        }
      }
      expect(stateless).toBeDefined();
      const error = await build({ country: stateless, state: 'bavaria' }).then(
        () => null,
        (e: unknown) => e as AppError,
      );
      expect(error?.fields).toEqual([
        { field: 'targeting.state', message: `${stateless} has no state targeting.` },
      ]);
      expect(await fieldsOf(build({ country: 'US', state: 'atlantis' }))).toEqual(['targeting.state']);
    });

    it('builds for a sub-user with its own credentials, and answers the password it put in the line', async () => {
      const sub = byLabel('Price monitoring');
      const subUser = (await listSubUsers(sandbox, sub.id))[0];
      const { lines, password } = await build(
        {},
        { subUserId: subUser?.id, format: 'user_pass_at_host_port' },
      );
      expect(lines).toEqual([
        `${subUser?.username}:${subUser?.password}@${sub.endpoint.host}:${sub.endpoint.httpPort}`,
      ]);
      expect(password).toBe(subUser?.password);
    });
  });

  it('lists sub-users as a table of the list’s columns, and no password reaches the answer or the events', async () => {
    const sub = byLabel('Price monitoring');
    const whole = await listSubUsers(sandbox, sub.id);
    expect(whole.length).toBeGreaterThan(0);
    const listed = await kit.handlers['subscriptions:subUsers']({ subscriptionId: sub.id });
    expect(listed.columns).toEqual(SUB_USER_ROW_COLUMNS);
    expect(subUserRowsOf(listed).map((row) => row.id)).toEqual(whole.map((s) => s.id));
    expect(subUserRowsOf(listed)[0]).toEqual({
      id: whole[0].id,
      label: whole[0].label,
      username: whole[0].username,
      trafficLimitBytes: whole[0].trafficLimitBytes,
      trafficUsedBytes: whole[0].trafficUsedBytes,
      enabled: whole[0].enabled,
      createdAt: whole[0].createdAt,
    });
    // A write announces the list it read again: rows, without passwords either.
    const made = await kit.handlers['subscriptions:createSubUser']({
      subscriptionId: sub.id,
      label: 'Secretive',
      password: 'Only-in-main-1',
    });
    const regenerated = await kit.handlers['subscriptions:updateSubUser']({
      subscriptionId: sub.id,
      subUserId: made.id,
      regeneratePassword: true,
    });
    const again = await kit.handlers['subscriptions:subUsers']({ subscriptionId: sub.id });
    const announced = kit.events.of('subscriptions:changed').filter((event) => event.subUsers);
    expect(announced.length).toBeGreaterThanOrEqual(2);
    const passwords = [...whole.map((s) => s.password as string), made.password, regenerated.password];
    for (const text of [JSON.stringify(listed), JSON.stringify(again), JSON.stringify(announced)]) {
      expect(text).not.toMatch(/password/i);
      for (const password of passwords) expect(text).not.toContain(password);
    }
    expect(subUserRowsOf(again).map((row) => row.label)).toContain('Secretive');
  });

  it('update and reset password announce the subscription', async () => {
    const sub = byLabel('Price monitoring');
    const updated = await kit.handlers['subscriptions:update']({
      subscriptionId: sub.id,
      label: 'Prices',
      autoRenew: false,
    });
    expect(updated).toMatchObject({ label: 'Prices', autoRenew: false });
    const reset = await kit.handlers['subscriptions:resetPassword']({ subscriptionId: sub.id });
    expect(reset.password).not.toBe(sub.password);
    expect(kit.events.of('subscriptions:changed').map((e) => e.changed[0]?.label)).toEqual([
      'Prices',
      'Prices',
    ]);
  });
});
