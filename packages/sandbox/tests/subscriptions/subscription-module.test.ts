import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import {
  DAY,
  expectValidationError,
  getSubscription,
  listSubscriptions,
  SEEDED_SUBSCRIPTION_LABELS,
  subscriptionByLabel,
  SUBSCRIPTIONS,
} from './subscription-helpers';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await TestSandbox.start();
});
afterAll(() => sandbox.close());

describe('GET /v1/residential/subscriptions', () => {
  it('lists both traffic products when productId is absent', async () => {
    const data = await listSubscriptions(sandbox);
    expect(data.length).toBeGreaterThanOrEqual(3);
    expect(new Set(data.map((s) => s.productId))).toEqual(new Set(['residential', 'mobile-gb']));
  });

  it('filters by productId', async () => {
    const all = await listSubscriptions(sandbox);
    for (const productId of ['residential', 'mobile-gb']) {
      const filtered = await listSubscriptions(sandbox, `?productId=${productId}`);
      expect(filtered.length).toBeGreaterThan(0);
      expect(filtered.every((s) => s.productId === productId)).toBe(true);
      expect(filtered.map((s) => s.id)).toEqual(
        all.filter((s) => s.productId === productId).map((s) => s.id),
      );
    }
  });

  it('refuses a productId that is not a traffic product (422 on productId)', async () => {
    for (const value of ['mobile', 'RESIDENTIAL', '']) {
      const answer = await sandbox.request('GET', `${SUBSCRIPTIONS}?productId=${value}`);
      expectValidationError(answer, { productId: 'invalid_value' });
    }
  });

  it('answers every documented member with its type', async () => {
    for (const s of await listSubscriptions(sandbox)) {
      expect(s).toEqual({
        id: expect.any(String),
        productId: expect.stringMatching(/^(residential|mobile-gb)$/),
        label: expect.any(String),
        planId: expect.any(String),
        status: expect.stringMatching(/^(active|depleted|expired)$/),
        trafficTotalBytes: expect.any(Number),
        trafficUsedBytes: expect.any(Number),
        trafficRemainingBytes: expect.any(Number),
        expiresAt:
          s.expiresAt === null ? null : expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        autoRenew: expect.any(Boolean),
        username: expect.any(String),
        password: expect.any(String),
        endpoint: { host: expect.any(String), httpPort: expect.any(Number), socksPort: expect.any(Number) },
        subUserCount: expect.any(Number),
        createdAt: expect.stringMatching(/Z$/),
      });
      expect(Number.isInteger(s.trafficUsedBytes)).toBe(true);
      expect(s.trafficRemainingBytes).toBe(s.trafficTotalBytes - s.trafficUsedBytes);
      expect(s.label.length).toBeLessThanOrEqual(60);
    }
  });

  it('points every subscription at the sandbox gateway that is listening (shared ports)', async () => {
    const gateway = sandbox.sandbox.gateway;
    expect(gateway.host).toBe('127.0.0.1');
    expect(gateway.httpPort).toBeGreaterThan(0);
    expect(gateway.socksPort).toBeGreaterThan(0);
    expect(gateway.httpPort).not.toBe(gateway.socksPort);
    for (const s of await listSubscriptions(sandbox)) expect(s.endpoint).toEqual(gateway);
  });

  it('counts live sub-users in subUserCount', async () => {
    for (const s of await listSubscriptions(sandbox)) {
      const subUsers = await sandbox.request('GET', `${SUBSCRIPTIONS}/${s.id}/sub-users`);
      expect(s.subUserCount).toBe(subUsers.json.data.length);
    }
  });

  it('needs a valid key (401) but no scope to read', async () => {
    expect((await sandbox.request('GET', SUBSCRIPTIONS, { key: null })).json.error.code).toBe('unauthorized');
    const wrong = await sandbox.request('GET', SUBSCRIPTIONS, { key: 'not-a-key' });
    expect(wrong.status).toBe(401);
    expect((await sandbox.request('GET', SUBSCRIPTIONS, { key: 'readonly-key' })).status).toBe(200);
  });

  it('needs the proxies scope for every change (403 insufficient_scope), and changes nothing without it', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.neverExpires);
    const subUsers = await sandbox.request('GET', `${SUBSCRIPTIONS}/${sub.id}/sub-users`);
    const subUserId = subUsers.json.data[0]?.id ?? 'su_none';
    const writes: [string, string, unknown][] = [
      ['PATCH', `${SUBSCRIPTIONS}/${sub.id}`, { label: 'renamed' }],
      ['POST', `${SUBSCRIPTIONS}/${sub.id}/reset-password`, undefined],
      ['POST', `${SUBSCRIPTIONS}/${sub.id}/sub-users`, { label: 'new one' }],
      ['PATCH', `${SUBSCRIPTIONS}/${sub.id}/sub-users/${subUserId}`, { enabled: false }],
      ['DELETE', `${SUBSCRIPTIONS}/${sub.id}/sub-users/${subUserId}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const answer = await sandbox.request(method, path, { key: 'readonly-key', body });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.json.error.code).toBe('insufficient_scope');
    }
    expect(await getSubscription(sandbox, sub.id)).toEqual(sub);
    expect((await sandbox.request('GET', `${SUBSCRIPTIONS}/${sub.id}/sub-users`)).json).toEqual(
      subUsers.json,
    );
  });
});

describe('GET /v1/residential/subscriptions/{id}', () => {
  it('answers the same subscription as the list', async () => {
    const listed = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.expiringSoon);
    expect(await getSubscription(sandbox, listed.id)).toEqual(listed);
  });

  it('is 404 not_found for an unknown id', async () => {
    const answer = await sandbox.request('GET', `${SUBSCRIPTIONS}/sub_nope`);
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe('not_found');
    expect(answer.json.error.message).toContain('sub_nope');
  });
});

describe('PATCH /v1/residential/subscriptions/{id}', () => {
  it('changes label and autoRenew and keeps them', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.neverExpires);
    const answer = await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, {
      body: { label: 'Ad checks', autoRenew: true },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      id: sub.id,
      label: 'Ad checks',
      autoRenew: true,
      password: sub.password,
    });
    expect(await getSubscription(sandbox, sub.id)).toMatchObject({ label: 'Ad checks', autoRenew: true });
    await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, {
      body: { label: SEEDED_SUBSCRIPTION_LABELS.neverExpires, autoRenew: false },
    });
  });

  it('changes only what is sent; an empty body or no body changes nothing', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.expiringSoon);
    const onlyAutoRenew = await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, {
      body: { autoRenew: true },
    });
    expect(onlyAutoRenew.json).toMatchObject({ label: sub.label, autoRenew: true });
    const empty = await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, { body: {} });
    expect(empty.json).toMatchObject({ label: sub.label, autoRenew: true });
    const none = await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`);
    expect(none.status).toBe(200);
    await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, { body: { autoRenew: false } });
  });

  it('accepts a label of exactly 60 characters and refuses 61 (too_long)', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const ok = await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, {
      body: { label: 'x'.repeat(60) },
    });
    expect(ok.json.label).toBe('x'.repeat(60));
    const long = await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, {
      body: { label: 'y'.repeat(61) },
    });
    expectValidationError(long, { label: 'too_long' });
    expect((await getSubscription(sandbox, sub.id)).label).toBe('x'.repeat(60));
    await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, {
      body: { label: SEEDED_SUBSCRIPTION_LABELS.withSubUsers },
    });
  });

  it('refuses empty or blank labels and wrong types, every bad field at once, changing nothing', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const path = `${SUBSCRIPTIONS}/${sub.id}`;
    expectValidationError(await sandbox.request('PATCH', path, { body: { label: '' } }), {
      label: 'required',
    });
    expectValidationError(await sandbox.request('PATCH', path, { body: { label: '   ' } }), {
      label: 'required',
    });
    expectValidationError(await sandbox.request('PATCH', path, { body: { label: null } }), {
      label: 'invalid_type',
    });
    expectValidationError(await sandbox.request('PATCH', path, { body: { label: 7, autoRenew: 'yes' } }), {
      label: 'invalid_type',
      autoRenew: 'invalid_type',
    });
    expectValidationError(await sandbox.request('PATCH', path, { body: { label: 'ok', autoRenew: 1 } }), {
      autoRenew: 'invalid_type',
    });
    expect((await getSubscription(sandbox, sub.id)).label).toBe(SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
  });

  it('refuses a body that is not an object (422) and malformed JSON (400 invalid_json)', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const path = `${SUBSCRIPTIONS}/${sub.id}`;
    expectValidationError(await sandbox.request('PATCH', path, { body: ['label'] }), {
      body: 'invalid_type',
    });
    const malformed = await sandbox.request('PATCH', path, { rawBody: '{"label": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.code).toBe('invalid_json');
  });

  it('ignores unknown members and read-only fields', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
    const answer = await sandbox.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, {
      body: { trafficTotalBytes: 1, status: 'expired', colour: 'red' },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.trafficTotalBytes).toBe(sub.trafficTotalBytes);
    expect(answer.json.status).toBe(sub.status);
  });

  it('is 404 for an unknown id, even with a valid body', async () => {
    const answer = await sandbox.request('PATCH', `${SUBSCRIPTIONS}/sub_nope`, { body: { label: 'x' } });
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe('not_found');
  });
});

describe('POST /v1/residential/subscriptions/{id}/reset-password', () => {
  it('gives the main user a new generated password and keeps it', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.expiringSoon);
    const answer = await sandbox.request('POST', `${SUBSCRIPTIONS}/${sub.id}/reset-password`);
    expect(answer.status).toBe(200);
    expect(answer.json.password).not.toBe(sub.password);
    expect(answer.json.password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(answer.json.username).toBe(sub.username);
    expect((await getSubscription(sandbox, sub.id)).password).toBe(answer.json.password);
  });

  it('changes only the password', async () => {
    const sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.neverExpires);
    const answer = await sandbox.request('POST', `${SUBSCRIPTIONS}/${sub.id}/reset-password`);
    const { password: _before, ...rest } = sub;
    const { password: _after, ...restAfter } = answer.json;
    expect(restAfter).toEqual(rest);
  });

  it('is 404 for an unknown id', async () => {
    expect((await sandbox.request('POST', `${SUBSCRIPTIONS}/sub_nope/reset-password`)).status).toBe(404);
  });
});

describe('persistence', () => {
  it('keeps subscriptions, sub-users and traffic across a restart with --data', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'sandbox-subscriptions-'));
    const dataFile = join(folder, 'state.json');
    try {
      const first = await TestSandbox.start({ dataFile });
      const sub = await subscriptionByLabel(first, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
      await first.request('POST', `${SUBSCRIPTIONS}/${sub.id}/sub-users`, {
        body: { label: 'Kept', trafficLimitBytes: 5 },
      });
      await first.advance(DAY);
      const before = await getSubscription(first, sub.id);
      await first.close();

      const second = await TestSandbox.start({ dataFile });
      try {
        // The endpoint shows where the new run's gateway listens, not what the file saw.
        const { endpoint, ...restored } = await getSubscription(second, sub.id);
        const { endpoint: _oldEndpoint, ...kept } = before;
        expect(restored).toEqual(kept);
        expect(endpoint).toEqual(second.sandbox.gateway);
        const subUsers = (await second.request('GET', `${SUBSCRIPTIONS}/${sub.id}/sub-users`)).json.data;
        expect(subUsers.find((s: any) => s.label === 'Kept')).toMatchObject({ trafficUsedBytes: 5 });
        await second.advance(DAY);
        expect((await getSubscription(second, sub.id)).trafficUsedBytes).toBeGreaterThan(
          before.trafficUsedBytes,
        );
      } finally {
        await second.close();
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
