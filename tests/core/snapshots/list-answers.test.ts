import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import type { PortsChanged } from '../../../src-shared/contract';
import { DEMO_KEY, TEST_START_TIME, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from '../support/core-harness';
import { tableRows } from '../support/list-answers';

/**
 * Lists through the whole core and the guarded dispatcher, as the window calls them, against a
 * sandbox with more than the demo's few ports: what the answers carry, and how main answers them
 * from its snapshot and reads the service again behind it.
 */
describe('list answers', () => {
  let sandbox: TestSandbox;
  let h: Harness;
  let clock: FakeClock;

  beforeEach(async () => {
    sandbox = await TestSandbox.start({ scale: { ports: 30, subUsers: 25, topUps: 12, abandonedTopUps: 3 } });
    clock = new FakeClock(Date.parse(TEST_START_TIME));
    h = await createHarness(sandbox, { clock });
    await h.core.start();
    await h.call('profiles:create', {
      name: 'Scale',
      baseUrl: sandbox.baseUrl,
      pathStyle: 'literal',
      apiKey: DEMO_KEY,
      storage: 'session',
    });
  });

  afterEach(async () => {
    await h.core.dispose();
    await sandbox.close();
  });

  /** Real-time wait for background work (its requests to the sandbox take real time). */
  const until = async (done: () => boolean): Promise<void> => {
    for (let i = 0; i < 2000 && !done(); i += 1) await new Promise((r) => setTimeout(r, 2));
    if (!done()) throw new Error('never happened');
  };

  const mobileReads = async () =>
    (await sandbox.requests()).filter((r) => r.method === 'GET' && /\/v1\/mobile$/.test(r.path)).length;

  it('carry no password, rotation link or key: the lists, their events and the first state (the detail does)', async () => {
    // Every secret the service holds for this account.
    const secrets = new Set<string>([DEMO_KEY]);
    const ports = (await sandbox.request<{ data: { id: string; password: string }[] }>('GET', '/v1/mobile')).json
      .data;
    for (const port of ports) secrets.add(port.password);
    const subscriptions = (
      await sandbox.request<{ data: { id: string; password: string }[] }>('GET', '/v1/residential/subscriptions')
    ).json.data;
    for (const subscription of subscriptions) {
      secrets.add(subscription.password);
      const subUsers = await sandbox.request<{ data: { password: string }[] }>(
        'GET',
        `/v1/residential/subscriptions/${subscription.id}/sub-users`,
      );
      for (const subUser of subUsers.json.data) secrets.add(subUser.password);
    }
    expect(secrets.size).toBeGreaterThan(60);

    const answers: unknown[] = [
      await h.call('ports:list'),
      await h.call('ports:list', { fresh: true }),
      await h.call('subscriptions:list'),
      await h.call('topups:list', { perPage: 20 }),
      await h.call('app:getState', { screen: 'ports' }),
      await h.call('app:getState', { screen: 'subscriptions' }),
    ];
    for (const subscription of subscriptions) {
      answers.push(await h.call('subscriptions:subUsers', { subscriptionId: subscription.id }));
    }
    // Writes and background reads reach every window as events: lean too.
    const first = ports[0]?.id ?? '';
    await h.call('ports:update', { portId: first, label: 'Renamed' });
    await h.call('subscriptions:createSubUser', { subscriptionId: subscriptions[0]?.id ?? '', label: 'New one' });
    await h.call('ports:resetPassword', { portId: first });
    const events = h.allEvents.filter((event) =>
      ['ports:changed', 'subscriptions:changed', 'topups:changed'].includes(event.channel),
    );
    expect(events.length).toBeGreaterThan(2);

    for (const text of [...answers, ...events].map((item) => JSON.stringify(item))) {
      expect(text).not.toMatch(/"password"|"rotationLink"/);
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    // The detail reads the secrets the list leaves out.
    const detail = await h.call('ports:get', { portId: first });
    expect(detail.password.length).toBeGreaterThan(0);
    expect((await h.call('subscriptions:get', { subscriptionId: subscriptions[0]?.id ?? '' })).password).toBe(
      subscriptions[0]?.password,
    );
  });

  it('answers a list from its snapshot at once, reads it again behind it and sends only what changed', async () => {
    const first = await h.call('ports:list');
    expect(first).toMatchObject({ revalidating: false, asOf: TEST_START_TIME });
    expect(first.rows).toHaveLength(30);
    expect(await mobileReads()).toBe(1);
    const [target] = tableRows(first);
    // The port changes on the service (another app, the web), not through this app.
    await sandbox.request('PATCH', `/v1/mobile/${target?.id}`, { body: { label: 'Changed elsewhere' } });

    // Within 5 s of the last read: the snapshot, nothing asked of the service.
    expect(tableRows(await h.call('ports:list'))[0]?.label).toBe(target?.label);
    expect(await mobileReads()).toBe(1);

    await clock.advance(60_000);
    const served = await h.call('ports:list');
    expect(served).toMatchObject({ revalidating: true, asOf: TEST_START_TIME });
    expect(tableRows(served)[0]?.label).toBe(target?.label);
    const revalidated = () =>
      h.allEvents
        .filter((event) => event.channel === 'ports:changed')
        .map((event) => event.payload as PortsChanged)
        .find((payload) => payload.asOf !== undefined);
    await until(() => revalidated() !== undefined);
    // One port changed: one row in the event, the other 29 are not sent again.
    expect(revalidated()).toMatchObject({
      asOf: new Date(clock.now()).toISOString(),
      changed: [{ id: target?.id, label: 'Changed elsewhere' }],
    });
    expect(await mobileReads()).toBe(2);
    const after = await h.call('ports:list');
    expect(after).toMatchObject({ revalidating: false, asOf: new Date(clock.now()).toISOString() });
    expect(tableRows(after)[0]?.label).toBe('Changed elsewhere');
  });

  it("gives a window's first state the list of the screen it opens on, once main has one", async () => {
    // Main has read no top-ups yet (the usage poller reads subscriptions and ports, not top-ups).
    expect((await h.call('app:getState', { screen: 'topups' })).snapshots).toBeUndefined();
    const page = await h.call('topups:list', { page: 1, perPage: 20 });
    const state = await h.call('app:getState', { screen: 'topups' });
    expect(state.snapshots?.topups?.data).toEqual(page.data);
    expect(state.snapshots?.topups?.profileId).toBe(state.activeProfile?.id);
    const list = await h.call('ports:list');
    expect((await h.call('app:getState', { screen: 'ports' })).snapshots?.ports?.rows).toEqual(list.rows);
    // Nothing without a screen: the state pushed on every change stays small.
    expect((await h.call('app:getState')).snapshots).toBeUndefined();
  });

  it('forgets a profile’s lists when its connection changes: the next list is read from the service', async () => {
    await h.call('ports:list');
    expect(await mobileReads()).toBe(1);
    const profileId = (await h.core.getState()).activeProfile?.id ?? '';
    await h.call('profiles:setKey', { profileId, apiKey: DEMO_KEY, storage: 'session' });
    const list = await h.call('ports:list');
    expect(list.revalidating).toBe(false);
    expect(await mobileReads()).toBe(2);
  });
});
