import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import { BTC_100, type ErrorBody, HOUR, pay, type TopUpBody } from './topup-test-kit';

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await TestSandbox.start();
});
afterEach(() => sandbox.close());

const post = (body: unknown, key?: string, rawBody?: string) =>
  sandbox.request<TopUpBody & ErrorBody>('POST', '/v1/topups', {
    body,
    ...(rawBody === undefined ? {} : { rawBody }),
    headers: key === undefined ? {} : { 'Idempotency-Key': key },
  });

const openTopUps = async (): Promise<number> =>
  (await sandbox.request<{ pagination: { total: number } }>('GET', '/v1/topups?status=awaiting_payment')).json
    .pagination.total;

describe('Idempotency-Key on POST /v1/topups', () => {
  it('answers a repeat with the same key and body with the same top-up, again 201', async () => {
    const first = await post(BTC_100, 'intent-1');
    const again = await post(BTC_100, 'intent-1');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.json.id).toBe(first.json.id);
    expect(again.json.amountCrypto).toBe(first.json.amountCrypto);
    expect(await openTopUps()).toBe(1);
  });

  it('treats the same JSON with other member order and spacing as the same body', async () => {
    const first = await post(BTC_100, 'intent-2');
    const again = await post(
      undefined,
      'intent-2',
      '{ "network" : "bitcoin", "coin": "BTC",\n "amountUsd": "100.00" }',
    );
    expect(again.status).toBe(201);
    expect(again.json.id).toBe(first.json.id);
  });

  it('returns the top-up as it is now, not as it was created', async () => {
    const first = await post(BTC_100, 'intent-3');
    await pay(sandbox, 'bitcoin', first.json.amountCrypto);
    const again = await post(BTC_100, 'intent-3');
    expect(again.json.id).toBe(first.json.id);
    expect(again.json.status).toBe('verifying');
  });

  it('refuses the same key with another body: 409 idempotency_key_reused', async () => {
    await post(BTC_100, 'intent-4');
    const other = await post({ ...BTC_100, amountUsd: '200.00' }, 'intent-4');
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe('idempotency_key_reused');
    expect(await openTopUps()).toBe(1);
  });

  it('creates distinct top-ups for distinct keys and for requests without a key', async () => {
    const a = await post(BTC_100, 'intent-a');
    const b = await post(BTC_100, 'intent-b');
    const c = await post(BTC_100);
    const d = await post(BTC_100);
    expect(new Set([a.json.id, b.json.id, c.json.id, d.json.id]).size).toBe(4);
  });

  it('accepts a key of 128 characters and refuses 129 with 422 on Idempotency-Key', async () => {
    expect((await post(BTC_100, 'k'.repeat(128))).status).toBe(201);
    const tooLong = await post(BTC_100, 'k'.repeat(129));
    expect(tooLong.status).toBe(422);
    expect(tooLong.json.error.fields).toEqual([
      { field: 'Idempotency-Key', code: 'too_long', message: expect.any(String) },
    ]);
    expect(await openTopUps()).toBe(1);
  });

  it('reports an over-long key together with the body field errors', async () => {
    const answer = await post({ ...BTC_100, amountUsd: '1.00' }, 'k'.repeat(200));
    expect(answer.status).toBe(422);
    expect((answer.json.error.fields ?? []).map((f) => f.field).sort()).toEqual([
      'Idempotency-Key',
      'amountUsd',
    ]);
  });

  it('does not spend a key on a refused request', async () => {
    const refused = await post({ ...BTC_100, amountUsd: '1.00' }, 'intent-5');
    expect(refused.status).toBe(422);
    const fixed = await post(BTC_100, 'intent-5');
    expect(fixed.status).toBe(201);
  });

  it('keeps a key 24 hours: a repeat just before is the same top-up, one after creates a new one', async () => {
    const first = await post(BTC_100, 'intent-6');
    await sandbox.advance(24 * HOUR - 1);
    expect((await post(BTC_100, 'intent-6')).json.id).toBe(first.json.id);
    await sandbox.advance(1);
    const later = await post({ ...BTC_100, amountUsd: '200.00' }, 'intent-6');
    expect(later.status).toBe(201);
    expect(later.json.id).not.toBe(first.json.id);
  });
});
