import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import {
  balance,
  createTopUp,
  type ErrorBody,
  fieldsOf,
  getTopUp,
  HOUR,
  MINUTE,
  pay,
  secondsBetween,
  setBalance,
  setRates,
  type TopUpBody,
} from './topup-test-kit';

interface OrderBody {
  id: string;
  topUpId: string;
  planId: string;
  quantity: number;
  totalUsd: string;
  subscriptionId: string | null;
  portIds: string[];
}
interface SubscriptionBody {
  id: string;
  productId: string;
  planId: string;
  trafficTotalBytes: number;
}

const GB = 1_000_000_000;
const US_PORT = { country: 'US', carrier: 'tmobile_us', city: 'miami' };

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await TestSandbox.start();
});
afterEach(() => sandbox.close());

const post = (body: unknown) => sandbox.request<TopUpBody & ErrorBody>('POST', '/v1/topups', { body });
const usdt = (amountUsd: string, purchase?: unknown) => ({
  amountUsd,
  coin: 'USDT',
  network: 'tron',
  ...(purchase === undefined ? {} : { purchase }),
});
/** Pays the top-up exactly and waits until it is credited (tron: under a minute). */
async function payAndCredit(topUp: TopUpBody): Promise<TopUpBody> {
  await pay(sandbox, topUp.network, topUp.amountCrypto);
  await sandbox.advance(MINUTE);
  const credited = await getTopUp(sandbox, topUp.id);
  expect(credited.status).toBe('credited');
  return credited;
}
const orders = async (): Promise<OrderBody[]> =>
  (await sandbox.control<{ data: OrderBody[] }>('GET', '/orders')).json.data;

describe('purchase at creation', () => {
  it('is validated, priced and shown pending', async () => {
    const topUp = await createTopUp(sandbox, usdt('35.00', { planId: 'res-starter', quantity: 2 }));
    expect(topUp.purchase).toEqual({
      planId: 'res-starter',
      planName: 'Residential 5 GB',
      quantity: 2,
      options: {},
      promoCode: null,
      total: '35.00',
      status: 'pending',
      orderId: null,
      failureReason: null,
    });
  });

  it('applies a promo code (case-insensitive) to the total', async () => {
    const tenOff = await createTopUp(
      sandbox,
      usdt('75.00', { planId: 'res-pro', quantity: 1, promoCode: 'demo10' }),
    );
    expect(tenOff.purchase).toMatchObject({ promoCode: 'DEMO10', total: '67.50' });
    const fiveOff = await createTopUp(
      sandbox,
      usdt('75.00', { planId: 'res-pro', quantity: 1, promoCode: 'SAVE5' }),
    );
    expect(fiveOff.purchase).toMatchObject({ promoCode: 'SAVE5', total: '70.00' });
  });

  it('refuses an unknown promo code with 422 on purchase.promoCode', async () => {
    const answer = await post(usdt('75.00', { planId: 'res-pro', quantity: 1, promoCode: 'FREE100' }));
    expect(answer.status).toBe(422);
    expect(fieldsOf(answer.json)).toEqual(['purchase.promoCode']);
  });

  it('refuses an unknown plan with 422 on purchase.planId', async () => {
    const answer = await post(usdt('75.00', { planId: 'res-galactic', quantity: 1 }));
    expect(answer.status).toBe(422);
    expect(answer.json.error.fields).toEqual([
      { field: 'purchase.planId', code: 'not_found', message: expect.any(String) },
    ]);
  });

  it('refuses a plan that is not available with 409 plan_unavailable', async () => {
    const answer = await post(usdt('1500.00', { planId: 'res-legacy-1tb', quantity: 1 }));
    expect(answer.status).toBe(409);
    expect(answer.json.error.code).toBe('plan_unavailable');
  });

  it('reports every bad purchase field at once, prefixed purchase.', async () => {
    const answer = await post(
      usdt('100.00', { planId: 'res-starter', quantity: 0, promoCode: 'NOPE', options: 'x' }),
    );
    expect(answer.status).toBe(422);
    expect(fieldsOf(answer.json)).toEqual(['purchase.options', 'purchase.promoCode', 'purchase.quantity']);
    const empty = await post(usdt('100.00', {}));
    expect(fieldsOf(empty.json)).toEqual(['purchase.planId', 'purchase.quantity']);
  });

  it('reports purchase errors together with top-up field errors', async () => {
    const answer = await post({
      amountUsd: '10.00',
      coin: 'USDT',
      network: 'tron',
      purchase: { quantity: 1.5 },
    });
    expect(fieldsOf(answer.json)).toEqual(['amountUsd', 'purchase.planId', 'purchase.quantity']);
  });

  it('refuses a purchase that is not an object', async () => {
    const answer = await post(usdt('100.00', 'res-pro'));
    expect(fieldsOf(answer.json)).toEqual(['purchase']);
  });

  it('validates the options of the plan: a port plan needs a place in the catalog', async () => {
    const missing = await post(usdt('25.00', { planId: 'mobile-port-7d', quantity: 1 }));
    expect(fieldsOf(missing.json)).toEqual(['purchase.options']);
    const unknown = await post(
      usdt('25.00', { planId: 'mobile-port-7d', quantity: 1, options: { country: 'XX', carrier: 'nope' } }),
    );
    expect(unknown.status).toBe(422);
    expect(fieldsOf(unknown.json).every((f) => f.startsWith('purchase.options.'))).toBe(true);
  });

  it('validates the options of the plan: a traffic plan takes an existing subscription of its product', async () => {
    const answer = await post(
      usdt('75.00', { planId: 'res-pro', quantity: 1, options: { subscriptionId: 'sub_nope' } }),
    );
    expect(fieldsOf(answer.json)).toEqual(['purchase.options.subscriptionId']);
  });

  it('accepts an explicit null purchase as no purchase', async () => {
    const topUp = await createTopUp(sandbox, { ...usdt('30.00'), purchase: null });
    expect(topUp.purchase).toBeNull();
  });
});

describe('amountUsd must cover the purchase total minus the balance', () => {
  it('refuses an amount below the total with 422 too_small on amountUsd', async () => {
    const answer = await post(usdt('249.99', { planId: 'res-business', quantity: 1 }));
    expect(answer.status).toBe(422);
    expect(answer.json.error.fields).toEqual([
      { field: 'amountUsd', code: 'too_small', message: expect.stringContaining('250.00') },
    ]);
    expect((await post(usdt('250.00', { planId: 'res-business', quantity: 1 }))).status).toBe(201);
  });

  it('counts the current balance', async () => {
    await setBalance(sandbox, '200.00');
    expect((await post(usdt('49.99', { planId: 'res-business', quantity: 1 }))).status).toBe(422);
    expect((await post(usdt('50.00', { planId: 'res-business', quantity: 1 }))).status).toBe(201);
  });

  it('counts the discounted total', async () => {
    const purchase = { planId: 'res-pro', quantity: 1, promoCode: 'DEMO10' };
    expect((await post(usdt('67.49', purchase))).status).toBe(422);
    expect((await post(usdt('67.50', purchase))).status).toBe(201);
  });

  it('still needs the 25.00 minimum when the balance covers everything', async () => {
    await setBalance(sandbox, '500.00');
    const answer = await post(usdt('20.00', { planId: 'res-pro', quantity: 1 }));
    expect(answer.json.error.fields).toEqual([
      { field: 'amountUsd', code: 'too_small', message: 'must be at least 25.00' },
    ]);
  });
});

describe('purchase when the top-up is credited', () => {
  it('places the order in the same step: completed with orderId, balance debited, subscription created', async () => {
    const topUp = await createTopUp(sandbox, usdt('50.00', { planId: 'res-starter', quantity: 2 }));
    const paidAt = await sandbox.now();
    await pay(sandbox, 'tron', topUp.amountCrypto);
    // Tron needs 19 blocks of 3 s: 57 s.
    await sandbox.advance(56);
    const pending = await getTopUp(sandbox, topUp.id);
    expect(pending.status).toBe('verifying');
    expect(pending.purchase?.status).toBe('pending');
    expect(await balance(sandbox)).toBe('0.00');
    await sandbox.advance(1);
    const credited = await getTopUp(sandbox, topUp.id);
    expect(secondsBetween(paidAt, credited.creditedAt as string)).toBe(57);
    expect(credited.purchase).toMatchObject({ status: 'completed', failureReason: null });
    expect(credited.purchase?.orderId).toMatch(/^ord_/);
    expect(await balance(sandbox)).toBe('15.00');

    const [order] = await orders();
    expect(order).toMatchObject({
      id: credited.purchase?.orderId,
      topUpId: topUp.id,
      planId: 'res-starter',
      quantity: 2,
      totalUsd: '35.00',
    });
    const subscription = await sandbox.request<SubscriptionBody>(
      'GET',
      `/v1/residential/subscriptions/${order?.subscriptionId as string}`,
    );
    expect(subscription.status).toBe(200);
    expect(subscription.json).toMatchObject({
      productId: 'residential',
      planId: 'res-starter',
      trafficTotalBytes: 10 * GB,
    });
  });

  it('adds traffic to the subscription named in the options', async () => {
    const subs = await sandbox.request<{ data: SubscriptionBody[] }>('GET', '/v1/residential/subscriptions');
    const target = subs.json.data.find((s) => s.productId === 'residential') as SubscriptionBody;
    const topUp = await createTopUp(
      sandbox,
      usdt('75.00', { planId: 'res-pro', quantity: 1, options: { subscriptionId: target.id } }),
    );
    expect(topUp.purchase?.options).toEqual({ subscriptionId: target.id });
    await payAndCredit(topUp);
    const after = await sandbox.request<SubscriptionBody>(
      'GET',
      `/v1/residential/subscriptions/${target.id}`,
    );
    expect(after.json.trafficTotalBytes).toBe(target.trafficTotalBytes + 25 * GB);
    expect((await orders())[0]?.subscriptionId).toBe(target.id);
  });

  it('creates mobile ports for a port plan', async () => {
    const topUp = await createTopUp(
      sandbox,
      usdt('50.00', { planId: 'mobile-port-7d', quantity: 2, options: { ...US_PORT, ignored: true } }),
    );
    expect(topUp.purchase?.options).toEqual(US_PORT);
    const credited = await payAndCredit(topUp);
    expect(credited.purchase?.status).toBe('completed');
    const [order] = await orders();
    expect(order?.portIds).toHaveLength(2);
    for (const portId of order?.portIds ?? []) {
      const port = await sandbox.request<{ country: string; carrier: string; planId: string }>(
        'GET',
        `/v1/mobile/${portId}`,
      );
      expect(port.status).toBe(200);
      expect(port.json).toMatchObject({ country: 'US', carrier: 'tmobile_us', planId: 'mobile-port-7d' });
    }
    expect(await balance(sandbox)).toBe('0.00');
  });

  it('pays the order from the whole balance, not only from this top-up', async () => {
    await setBalance(sandbox, '50.00');
    const topUp = await createTopUp(sandbox, usdt('25.00', { planId: 'res-pro', quantity: 1 }));
    const credited = await payAndCredit(topUp);
    expect(credited.purchase?.status).toBe('completed');
    expect(await balance(sandbox)).toBe('0.00');
  });

  it('fails when provisioning is impossible, and the funds stay on the balance', async () => {
    const topUp = await createTopUp(
      sandbox,
      usdt('25.00', { planId: 'mobile-port-7d', quantity: 1, options: { country: 'US', carrier: 'att' } }),
    );
    const credited = await payAndCredit(topUp);
    expect(credited.purchase).toMatchObject({ status: 'failed', orderId: null });
    expect(credited.purchase?.failureReason).toMatch(/att/);
    expect(await balance(sandbox)).toBe('25.00');
    expect(await orders()).toEqual([]);
  });

  it('fails when a late match credits less than the total, and the funds stay on the balance', async () => {
    const topUp = await createTopUp(sandbox, {
      amountUsd: '75.00',
      coin: 'BTC',
      network: 'bitcoin',
      purchase: { planId: 'res-pro', quantity: 1 },
    });
    await sandbox.advance(HOUR);
    await setRates(sandbox, { BTC: '60000.00' });
    await pay(sandbox, 'bitcoin', topUp.amountCrypto);
    await sandbox.advance(20 * MINUTE);
    const credited = await getTopUp(sandbox, topUp.id);
    // 0.00115386 BTC x 60000 = 69.2316 -> 69.23, short of 75.00.
    expect(credited.creditedUsd).toBe('69.23');
    expect(credited.purchase).toMatchObject({ status: 'failed', orderId: null });
    expect(credited.purchase?.failureReason).toContain('75.00');
    expect(await balance(sandbox)).toBe('69.23');
  });

  it('fails when the balance it counted on was spent before the credit', async () => {
    await setBalance(sandbox, '50.00');
    const topUp = await createTopUp(sandbox, usdt('25.00', { planId: 'res-pro', quantity: 1 }));
    await setBalance(sandbox, '0.00');
    const credited = await payAndCredit(topUp);
    expect(credited.purchase?.status).toBe('failed');
    expect(await balance(sandbox)).toBe('25.00');
  });

  it('leaves the purchase pending while the top-up is not credited', async () => {
    const topUp = await createTopUp(sandbox, usdt('35.00', { planId: 'res-starter', quantity: 2 }));
    await sandbox.advance(2 * HOUR);
    expect(await getTopUp(sandbox, topUp.id)).toMatchObject({
      status: 'expired',
      purchase: expect.objectContaining({ status: 'pending' }),
    });
  });
});
