import { afterEach, describe, expect, it } from 'vitest';
import { HeldAccountData } from '../../../src-main/core/snapshots/held-lists';
import { PortsService } from '../../../src-main/core/ports/ports-service';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { PORT_ROW_COLUMNS, portRowsOf } from '../../../src-shared/contract/ports';
import { SUB_USER_ROW_COLUMNS, subUserRowsOf } from '../../../src-shared/contract/subscriptions';
import { listSubUsers, TEST_START_TIME, TestSandbox } from '@proxy-manager/sandbox/testing';
import { PROFILE, RecordingEvents, sandboxApi } from '../ports/ports-test-kit';
import { SubscriptionsService } from '../../../src-main/core/subscriptions/subscriptions-service';

/** The size of `ports:list` for 1,000 ports before the lean answer (objects with every field). */
const BEFORE_BYTES_PER_1000 = 568_000;
/** The size of `subscriptions:subUsers` for 5,000 sub-users before the lean answer (objects, with passwords). */
const SUB_USERS_BEFORE_BYTES_PER_5000 = 1_096_976;

describe('ports:list: lean, from main’s snapshot, read again behind it', () => {
  let sandbox: TestSandbox;

  afterEach(async () => {
    await sandbox.close();
  });

  async function kit(scale?: { ports: number }) {
    sandbox = await TestSandbox.start(scale ? { scale } : {});
    const clock = new FakeClock(Date.parse(TEST_START_TIME));
    const events = new RecordingEvents();
    const held = new HeldAccountData();
    const ports = new PortsService({
      api: sandboxApi(sandbox, clock),
      events,
      now: () => clock.now(),
      held: held.ports,
    });
    const listCalls = async () =>
      (await sandbox.requests()).filter((r) => r.method === 'GET' && r.path.endsWith('/v1/mobile')).length;
    return { clock, events, held, ports, list: ports.handlers()['ports:list'], listCalls };
  }

  it('answers from the snapshot at once, reads again in the background, and announces only what changed', async () => {
    const { clock, events, held, list, listCalls } = await kit();
    await sandbox.control('DELETE', '/requests');
    const first = await list(undefined);
    expect(first.revalidating).toBe(false);
    expect(await listCalls()).toBe(1);
    // The overview reads the same snapshot: one store, not two.
    expect(held.ports.get(PROFILE, 0)?.items.map((port) => port.id)).toEqual(
      portRowsOf(first).map((r) => r.id),
    );

    // Fresh (younger than 5 s): the snapshot, the service is not asked.
    await clock.advance(1_000);
    expect((await list(undefined)).rows).toEqual(first.rows);
    expect(await listCalls()).toBe(1);

    // The service changes behind main's back; older than 5 s, the old rows come at once...
    const portId = portRowsOf(first)[0]!.id;
    const patched = await sandbox.request('PATCH', `/v1/mobile/${portId}`, {
      body: { label: 'Renamed elsewhere' },
    });
    expect(patched.status).toBe(200);
    await clock.advance(10_000);
    const stale = await list(undefined);
    expect(stale.rows).toEqual(first.rows);
    expect(stale.revalidating).toBe(true);
    expect(stale.asOf).toBe(first.asOf);
    // ...and the read behind them tells the windows what moved, with the list's new age.
    await expect.poll(() => events.of('ports:changed').length).toBe(1);
    const [changed] = events.of('ports:changed');
    expect(changed?.changed.map((port) => [port.id, port.label])).toEqual([[portId, 'Renamed elsewhere']]);
    expect(changed?.asOf).toBe(new Date(clock.now()).toISOString());
    expect(await listCalls()).toBe(2);
    const after = await list(undefined);
    expect(portRowsOf(after).find((row) => row.id === portId)?.label).toBe('Renamed elsewhere');
    expect(after.revalidating).toBe(false);

    // `fresh` (the Refresh button) waits for the service.
    await list({ fresh: true });
    expect(await listCalls()).toBe(3);
  });

  it('a profile whose key changed loses its snapshot: the next list is read, not served', async () => {
    const { held, list, listCalls } = await kit();
    await list(undefined);
    held.forget(PROFILE);
    expect(held.ports.get(PROFILE, Number.NEGATIVE_INFINITY)).toBeNull();
    await sandbox.control('DELETE', '/requests');
    await list(undefined);
    expect(await listCalls()).toBe(1);
  });

  it('carries no password or rotation link, and 1,000 ports take under a third of the old 568 kB', async () => {
    const { list } = await kit({ ports: 1000 });
    const answer = await list(undefined);
    expect(answer.rows.length).toBeGreaterThanOrEqual(1000);
    expect(answer.columns).toEqual(PORT_ROW_COLUMNS);
    const json = JSON.stringify(answer);
    expect(json).not.toMatch(/password|rotationLink|username|endpoint/);
    const perThousand = (Buffer.byteLength(json) / answer.rows.length) * 1000;
    expect(perThousand).toBeLessThan(BEFORE_BYTES_PER_1000 / 3);
  });
});

describe('subscriptions:list from main’s snapshot', () => {
  let sandbox: TestSandbox;

  afterEach(async () => {
    await sandbox.close();
  });

  it('serves the held list (filtered by product) at once, reads again behind it, and the overview reads the same store', async () => {
    sandbox = await TestSandbox.start();
    const clock = new FakeClock(Date.parse(TEST_START_TIME));
    const events = new RecordingEvents();
    const held = new HeldAccountData();
    const service = new SubscriptionsService({
      api: sandboxApi(sandbox, clock),
      events,
      now: () => clock.now(),
      catalog: () => Promise.resolve({ stateIds: [], cityIds: [] }),
      held: held.subscriptions,
    });
    const list = service.handlers()['subscriptions:list'];
    const reads = async () =>
      (await sandbox.requests()).filter((r) => r.method === 'GET' && /\/subscriptions(\?|$)/.test(r.path))
        .length;
    await sandbox.control('DELETE', '/requests');
    const all = await list(undefined);
    expect(all.length).toBeGreaterThan(1);
    expect(held.subscriptions.get(PROFILE, 0)?.items).toHaveLength(all.length);
    const residential = await list({ productId: 'residential' });
    expect(residential.every((subscription) => subscription.productId === 'residential')).toBe(true);
    expect(await reads()).toBe(1);

    const target = residential[0]!;
    const patched = await sandbox.request('PATCH', `/v1/residential/subscriptions/${target.id}`, {
      body: { label: 'Renamed elsewhere' },
    });
    expect(patched.status).toBe(200);
    await clock.advance(10_000);
    expect((await list(undefined)).find((s) => s.id === target.id)?.label).toBe(target.label);
    await expect.poll(() => events.of('subscriptions:changed').length).toBe(1);
    const [changed] = events.of('subscriptions:changed');
    expect(changed?.changed.map((s) => s.label)).toEqual(['Renamed elsewhere']);
    expect(changed?.asOf).toBe(new Date(clock.now()).toISOString());
    expect(held.subscriptions.get(PROFILE, 0)?.items.find((s) => s.id === target.id)?.label).toBe(
      'Renamed elsewhere',
    );
    expect(await reads()).toBe(2);
  });
});

describe('subscriptions:subUsers from main’s snapshot', () => {
  let sandbox: TestSandbox;

  afterEach(async () => {
    await sandbox.close();
  });

  it('answers a list main read at once, reads it again behind the answer, and announces it only when it changed', async () => {
    sandbox = await TestSandbox.start();
    const clock = new FakeClock(Date.parse(TEST_START_TIME));
    const events = new RecordingEvents();
    const held = new HeldAccountData();
    const service = new SubscriptionsService({
      api: sandboxApi(sandbox, clock),
      events,
      now: () => clock.now(),
      catalog: () => Promise.resolve({ stateIds: [], cityIds: [] }),
      held: held.subscriptions,
      heldSubUsers: held.subUsers,
    });
    const handlers = service.handlers();
    const subscription = (await handlers['subscriptions:list']({ productId: 'residential' }))[0]!;
    const subUsers = () => handlers['subscriptions:subUsers']({ subscriptionId: subscription.id });
    const reads = async () =>
      (await sandbox.requests()).filter((r) => r.method === 'GET' && r.path.endsWith('/sub-users')).length;
    await sandbox.control('DELETE', '/requests');

    const first = await subUsers();
    expect(await reads()).toBe(1);
    await clock.advance(1_000);
    expect(await subUsers()).toEqual(first);
    expect(await reads()).toBe(1);

    // Older than 5 s, nothing changed: read behind the answer, nothing announced.
    await clock.advance(10_000);
    expect(await subUsers()).toEqual(first);
    await expect.poll(reads).toBe(2);
    expect(events.of('subscriptions:changed')).toEqual([]);

    // Changed elsewhere: the old list at once, the new one announced.
    const created = await sandbox.request(
      'POST',
      `/v1/residential/subscriptions/${subscription.id}/sub-users`,
      {
        body: { label: 'Made elsewhere' },
      },
    );
    expect(created.status).toBe(201);
    await clock.advance(10_000);
    expect(await subUsers()).toEqual(first);
    await expect.poll(() => events.of('subscriptions:changed').length).toBe(1);
    const announced = events.of('subscriptions:changed')[0]?.subUsers?.[subscription.id] ?? [];
    expect(announced.map((subUser) => subUser.label)).toContain('Made elsewhere');
    expect(subUserRowsOf(await subUsers()).map((subUser) => subUser.label)).toContain('Made elsewhere');
    // Main still holds them whole: the local proxies and the exports need the passwords.
    expect(held.subUsers.get(PROFILE, subscription.id)?.view.data.every((s) => s.password.length > 0)).toBe(
      true,
    );
  });

  it('5,000 sub-users: no password in the answer, and under half of the old 1,097 kB', async () => {
    sandbox = await TestSandbox.start({ scale: { subUsers: 5000 } });
    const clock = new FakeClock(Date.parse(TEST_START_TIME));
    const service = new SubscriptionsService({
      api: sandboxApi(sandbox, clock),
      events: new RecordingEvents(),
      now: () => clock.now(),
      catalog: () => Promise.resolve({ stateIds: [], cityIds: [] }),
    });
    const handlers = service.handlers();
    const scaleTeam = (await handlers['subscriptions:list']({ productId: 'residential' })).find(
      (subscription) => subscription.subUserCount >= 5000,
    )!;
    const answer = await handlers['subscriptions:subUsers']({ subscriptionId: scaleTeam.id });
    expect(answer.rows).toHaveLength(5000);
    expect(answer.columns).toEqual(SUB_USER_ROW_COLUMNS);
    const json = JSON.stringify(answer);
    expect(json).not.toMatch(/password/i);
    const passwords = new Set((await listSubUsers(sandbox, scaleTeam.id)).map((s) => s.password as string));
    expect(answer.rows.flat().some((value) => typeof value === 'string' && passwords.has(value))).toBe(false);
    expect(Buffer.byteLength(json)).toBeLessThan(SUB_USERS_BEFORE_BYTES_PER_5000 / 2);
  });
});
