import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import {
  createSubUser,
  expectValidationError,
  getSubscription,
  listSubUsers,
  SEEDED_SUBSCRIPTION_LABELS,
  subscriptionByLabel,
  SUBSCRIPTIONS,
} from './subscription-helpers';

let sandbox: TestSandbox;
let sub: any;
let other: any;
beforeEach(async () => {
  sandbox = await TestSandbox.start();
  sub = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
  other = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.neverExpires);
});
afterEach(() => sandbox.close());

const subUsersPath = (id: string) => `${SUBSCRIPTIONS}/${id}/sub-users`;

describe('GET .../sub-users', () => {
  it('answers {data, limit}: the live sub-users and the maximum per subscription', async () => {
    const answer = await sandbox.request('GET', subUsersPath(sub.id));
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.json).sort()).toEqual(['data', 'limit']);
    expect(answer.json.limit).toBe(20);
    expect(answer.json.data).toHaveLength(sub.subUserCount);
    for (const s of answer.json.data) {
      expect(s).toEqual({
        id: expect.any(String),
        label: expect.any(String),
        username: expect.any(String),
        password: expect.any(String),
        trafficLimitBytes: s.trafficLimitBytes === null ? null : expect.any(Number),
        trafficUsedBytes: expect.any(Number),
        enabled: expect.any(Boolean),
        createdAt: expect.stringMatching(/Z$/),
      });
    }
  });

  it('is an empty list for a subscription without sub-users', async () => {
    const lonely = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.expiringSoon);
    expect(await listSubUsers(sandbox, lonely.id)).toEqual([]);
  });

  it('is 404 for an unknown subscription', async () => {
    const answer = await sandbox.request('GET', subUsersPath('sub_nope'));
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe('not_found');
  });
});

describe('POST .../sub-users', () => {
  it('creates a sub-user (201) with generated credentials, no cap, enabled, created now', async () => {
    const answer = await sandbox.request('POST', subUsersPath(sub.id), { body: { label: 'Crawler' } });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({
      label: 'Crawler',
      trafficLimitBytes: null,
      trafficUsedBytes: 0,
      enabled: true,
      createdAt: await sandbox.now(),
    });
    expect(answer.json.password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(answer.json.username).toMatch(new RegExp(`^${sub.username}_[a-z0-9]{5}$`));
    const listed = await listSubUsers(sandbox, sub.id);
    expect(listed.at(-1)).toEqual(answer.json);
    expect((await getSubscription(sandbox, sub.id)).subUserCount).toBe(sub.subUserCount + 1);
  });

  it('uses a given password and cap', async () => {
    const created = await createSubUser(sandbox, sub.id, {
      label: 'Partner',
      password: 'S3cret!~pass',
      trafficLimitBytes: 1_500_000_000,
    });
    expect(created).toMatchObject({ password: 'S3cret!~pass', trafficLimitBytes: 1_500_000_000 });
  });

  it('gives every sub-user a distinct username and password', async () => {
    const a = await createSubUser(sandbox, sub.id, { label: 'A' });
    const b = await createSubUser(sandbox, sub.id, { label: 'A' });
    const all = [...(await listSubUsers(sandbox, sub.id)), ...(await listSubUsers(sandbox, other.id))];
    expect(new Set(all.map((s) => s.username)).size).toBe(all.length);
    expect(a.password).not.toBe(b.password);
    expect(a.id).not.toBe(b.id);
  });

  it('accepts the limits exactly: label 60, password 64, trafficLimitBytes 0 and null', async () => {
    const created = await createSubUser(sandbox, sub.id, {
      label: 'l'.repeat(60),
      password: 'p'.repeat(64),
      trafficLimitBytes: 0,
    });
    expect(created.label).toHaveLength(60);
    expect(created.password).toHaveLength(64);
    expect(created.trafficLimitBytes).toBe(0);
    expect(
      (await createSubUser(sandbox, sub.id, { label: 'n', trafficLimitBytes: null })).trafficLimitBytes,
    ).toBeNull();
  });

  it('requires a label', async () => {
    expectValidationError(await sandbox.request('POST', subUsersPath(sub.id), { body: {} }), {
      label: 'required',
    });
    expectValidationError(await sandbox.request('POST', subUsersPath(sub.id), { body: { label: '' } }), {
      label: 'required',
    });
    expectValidationError(
      await sandbox.request('POST', subUsersPath(sub.id), { body: { label: ' \u00a0 ' } }),
      {
        label: 'required',
      },
    );
  });

  it('refuses a label over 60 characters', async () => {
    expectValidationError(
      await sandbox.request('POST', subUsersPath(sub.id), { body: { label: 'l'.repeat(61) } }),
      {
        label: 'too_long',
      },
    );
  });

  it('refuses a password over 64 characters, an empty one, and one with spaces or non-ASCII', async () => {
    const path = subUsersPath(sub.id);
    expectValidationError(
      await sandbox.request('POST', path, { body: { label: 'x', password: 'p'.repeat(65) } }),
      {
        password: 'too_long',
      },
    );
    expectValidationError(await sandbox.request('POST', path, { body: { label: 'x', password: '' } }), {
      password: 'required',
    });
    expectValidationError(
      await sandbox.request('POST', path, { body: { label: 'x', password: 'two words' } }),
      {
        password: 'invalid_format',
      },
    );
    expectValidationError(
      await sandbox.request('POST', path, { body: { label: 'x', password: 'pässword' } }),
      {
        password: 'invalid_format',
      },
    );
    expectValidationError(await sandbox.request('POST', path, { body: { label: 'x', password: null } }), {
      password: 'invalid_type',
    });
  });

  it('refuses a negative, fractional, non-numeric or unsafe trafficLimitBytes', async () => {
    const path = subUsersPath(sub.id);
    const cases: [unknown, string][] = [
      [-1, 'too_small'],
      [1.5, 'invalid_type'],
      ['100', 'invalid_type'],
      [2 ** 53, 'too_big'],
      [1e20, 'too_big'],
    ];
    for (const [value, code] of cases) {
      expectValidationError(
        await sandbox.request('POST', path, { body: { label: 'x', trafficLimitBytes: value } }),
        {
          trafficLimitBytes: code,
        },
      );
    }
  });

  it('reports every bad field at once and creates nothing', async () => {
    const answer = await sandbox.request('POST', subUsersPath(sub.id), {
      body: { label: 'l'.repeat(61), password: 'p'.repeat(65), trafficLimitBytes: -5 },
    });
    expectValidationError(answer, {
      label: 'too_long',
      password: 'too_long',
      trafficLimitBytes: 'too_small',
    });
    expect(await listSubUsers(sandbox, sub.id)).toHaveLength(sub.subUserCount);
  });

  it('refuses a missing body or one that is not an object', async () => {
    expectValidationError(await sandbox.request('POST', subUsersPath(sub.id)), { body: 'required' });
    expectValidationError(await sandbox.request('POST', subUsersPath(sub.id), { body: 'Crawler' }), {
      body: 'invalid_type',
    });
  });

  it('allows 20 live sub-users; the 21st is 409 sub_user_limit_reached; deleting one makes room', async () => {
    const start = (await listSubUsers(sandbox, sub.id)).length;
    for (let i = start; i < 20; i += 1) await createSubUser(sandbox, sub.id, { label: `Worker ${i}` });
    const refused = await sandbox.request('POST', subUsersPath(sub.id), { body: { label: 'One too many' } });
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('sub_user_limit_reached');
    expect(await listSubUsers(sandbox, sub.id)).toHaveLength(20);
    // The limit is per subscription.
    await createSubUser(sandbox, other.id, { label: 'Elsewhere' });

    const victim = (await listSubUsers(sandbox, sub.id))[0];
    expect((await sandbox.request('DELETE', `${subUsersPath(sub.id)}/${victim.id}`)).status).toBe(204);
    await createSubUser(sandbox, sub.id, { label: 'Replacement' });
  });

  it('is 404 for an unknown subscription', async () => {
    const answer = await sandbox.request('POST', subUsersPath('sub_nope'), { body: { label: 'x' } });
    expect(answer.status).toBe(404);
  });
});

describe('PATCH .../sub-users/{subUserId}', () => {
  it('changes label, cap and enabled, and keeps them', async () => {
    const created = await createSubUser(sandbox, sub.id, { label: 'Before' });
    const answer = await sandbox.request('PATCH', `${subUsersPath(sub.id)}/${created.id}`, {
      body: { label: 'After', trafficLimitBytes: 123_456, enabled: false },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ ...created, label: 'After', trafficLimitBytes: 123_456, enabled: false });
    expect((await listSubUsers(sandbox, sub.id)).find((s) => s.id === created.id)).toEqual(answer.json);
  });

  it('removes a cap with null and changes nothing with an empty body', async () => {
    const created = await createSubUser(sandbox, sub.id, { label: 'Capped', trafficLimitBytes: 10 });
    const path = `${subUsersPath(sub.id)}/${created.id}`;
    expect(
      (await sandbox.request('PATCH', path, { body: { trafficLimitBytes: null } })).json.trafficLimitBytes,
    ).toBeNull();
    expect((await sandbox.request('PATCH', path, { body: {} })).json).toEqual({
      ...created,
      trafficLimitBytes: null,
    });
    expect((await sandbox.request('PATCH', path)).status).toBe(200);
  });

  it('regeneratePassword: true gives a new password; false keeps it', async () => {
    const created = await createSubUser(sandbox, sub.id, { label: 'Rotating', password: 'mine' });
    const path = `${subUsersPath(sub.id)}/${created.id}`;
    expect(
      (await sandbox.request('PATCH', path, { body: { regeneratePassword: false } })).json.password,
    ).toBe('mine');
    const regenerated = await sandbox.request('PATCH', path, { body: { regeneratePassword: true } });
    expect(regenerated.json.password).not.toBe('mine');
    expect(regenerated.json.password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(regenerated.json.username).toBe(created.username);
  });

  it('validates every field at once and changes nothing when one is bad', async () => {
    const created = await createSubUser(sandbox, sub.id, { label: 'Stable' });
    const path = `${subUsersPath(sub.id)}/${created.id}`;
    const answer = await sandbox.request('PATCH', path, {
      body: { label: 'l'.repeat(61), trafficLimitBytes: -1, enabled: 'no', regeneratePassword: 1 },
    });
    expectValidationError(answer, {
      label: 'too_long',
      trafficLimitBytes: 'too_small',
      enabled: 'invalid_type',
      regeneratePassword: 'invalid_type',
    });
    const partlyBad = await sandbox.request('PATCH', path, { body: { label: 'Changed', enabled: null } });
    expectValidationError(partlyBad, { enabled: 'invalid_type' });
    expect((await listSubUsers(sandbox, sub.id)).find((s) => s.id === created.id)).toEqual(created);
  });

  it('refuses an empty label', async () => {
    const created = await createSubUser(sandbox, sub.id, { label: 'Named' });
    expectValidationError(
      await sandbox.request('PATCH', `${subUsersPath(sub.id)}/${created.id}`, { body: { label: '' } }),
      { label: 'required' },
    );
  });

  it('is 404 for an unknown sub-user, a sub-user of another subscription, or an unknown subscription', async () => {
    const foreign = await createSubUser(sandbox, other.id, { label: 'Foreign' });
    for (const path of [
      `${subUsersPath(sub.id)}/su_nope`,
      `${subUsersPath(sub.id)}/${foreign.id}`,
      `${subUsersPath('sub_nope')}/${foreign.id}`,
    ]) {
      const answer = await sandbox.request('PATCH', path, { body: { label: 'x' } });
      expect(answer.status).toBe(404);
      expect(answer.json.error.code).toBe('not_found');
    }
    expect((await listSubUsers(sandbox, other.id)).find((s) => s.id === foreign.id)?.label).toBe('Foreign');
  });
});

describe('DELETE .../sub-users/{subUserId}', () => {
  it('answers 204 with no body and removes the sub-user', async () => {
    const created = await createSubUser(sandbox, sub.id, { label: 'Temporary' });
    const answer = await sandbox.request('DELETE', `${subUsersPath(sub.id)}/${created.id}`);
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers.get('content-type')).toBeNull();
    expect((await listSubUsers(sandbox, sub.id)).map((s) => s.id)).not.toContain(created.id);
    expect((await getSubscription(sandbox, sub.id)).subUserCount).toBe(sub.subUserCount);
  });

  it('makes the sub-user unknown afterwards (404 on PATCH, DELETE and usage)', async () => {
    const created = await createSubUser(sandbox, sub.id, { label: 'Gone' });
    const path = `${subUsersPath(sub.id)}/${created.id}`;
    await sandbox.request('DELETE', path);
    expect((await sandbox.request('DELETE', path)).status).toBe(404);
    expect((await sandbox.request('PATCH', path, { body: { label: 'back' } })).status).toBe(404);
    expect(
      (await sandbox.request('GET', `${SUBSCRIPTIONS}/${sub.id}/usage?subUserId=${created.id}`)).status,
    ).toBe(404);
  });

  it('is 404 for a sub-user of another subscription and leaves it alone', async () => {
    const foreign = await createSubUser(sandbox, other.id, { label: 'Foreign' });
    expect((await sandbox.request('DELETE', `${subUsersPath(sub.id)}/${foreign.id}`)).status).toBe(404);
    expect((await listSubUsers(sandbox, other.id)).map((s) => s.id)).toContain(foreign.id);
  });
});
