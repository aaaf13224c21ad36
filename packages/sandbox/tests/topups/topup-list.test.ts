import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import { BTC_100, createTopUp, type ErrorBody, HOUR, MINUTE, pay, type TopUpBody } from './topup-test-kit';

interface ListBody {
  data: TopUpBody[];
  pagination: { page: number; perPage: number; total: number; totalPages: number };
}

let sandbox: TestSandbox;
let seededIds: string[];
const createdIds: string[] = [];

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  seededIds = (await sandbox.request<ListBody>('GET', '/v1/topups')).json.data.map((t) => t.id);
  // Five top-ups a minute apart: the first two expire, the third is paid (credited), two stay open.
  for (let i = 0; i < 5; i += 1) {
    createdIds.push((await createTopUp(sandbox, BTC_100)).id);
    await sandbox.advance(MINUTE);
  }
  const third = (await sandbox.request<TopUpBody>('GET', `/v1/topups/${createdIds[2] as string}`)).json;
  await pay(sandbox, 'bitcoin', third.amountCrypto);
  await sandbox.advance(26 * MINUTE);
});
afterAll(() => sandbox.close());

const list = (query = '') => sandbox.request<ListBody & ErrorBody>('GET', `/v1/topups${query}`);

describe('GET /v1/topups', () => {
  it('lists the seeded history: final top-ups from before the start', () => {
    expect(seededIds).toHaveLength(2);
  });

  it('lists newest first with the pagination object', async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(answer.json.data.map((t) => t.id)).toEqual([...[...createdIds].reverse(), ...seededIds]);
    expect(answer.json.pagination).toEqual({ page: 1, perPage: 20, total: 7, totalPages: 1 });
  });

  it('pages with page and perPage', async () => {
    const first = await list('?perPage=3');
    const second = await list('?perPage=3&page=2');
    const third = await list('?perPage=3&page=3');
    expect(first.json.pagination).toEqual({ page: 1, perPage: 3, total: 7, totalPages: 3 });
    expect([...first.json.data, ...second.json.data, ...third.json.data].map((t) => t.id)).toEqual(
      (await list()).json.data.map((t) => t.id),
    );
    expect(third.json.data).toHaveLength(1);
  });

  it('answers a page past the end with an empty list', async () => {
    const answer = await list('?page=9');
    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual([]);
    expect(answer.json.pagination.total).toBe(7);
  });

  it.each([
    ['awaiting_payment', 2],
    ['expired', 3],
    ['credited', 2],
    ['verifying', 0],
    ['rejected', 0],
  ])('filters by status=%s', async (status, count) => {
    const answer = await list(`?status=${status}`);
    expect(answer.status).toBe(200);
    expect(answer.json.data).toHaveLength(count);
    expect(answer.json.data.every((t) => t.status === status)).toBe(true);
    expect(answer.json.pagination.total).toBe(count);
  });

  it.each(['?page=0', '?page=x', '?perPage=0', '?perPage=101', '?status=paid'])(
    'refuses %s with 422',
    async (query) => {
      const answer = await list(query);
      expect(answer.status).toBe(422);
      expect(answer.json.error.code).toBe('validation_error');
    },
  );

  it('reports page and perPage errors at once', async () => {
    const answer = await list('?page=0&perPage=500&status=nope');
    expect((answer.json.error.fields ?? []).map((f) => f.field).sort()).toEqual([
      'page',
      'perPage',
      'status',
    ]);
  });

  it('needs a valid API key', async () => {
    expect((await sandbox.request('GET', '/v1/topups', { key: null })).status).toBe(401);
    expect((await sandbox.request('GET', '/v1/topups', { key: 'wrong' })).status).toBe(401);
  });

  it('shows the same resource in the list as in GET one', async () => {
    await sandbox.advance(HOUR);
    const first = (await list()).json.data[0] as TopUpBody;
    expect((await sandbox.request('GET', `/v1/topups/${first.id}`)).json).toEqual(first);
  });
});
