import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from '../support/core-harness';

describe('top-up calls through the composition root and the guarded dispatcher', () => {
  let sandbox: TestSandbox;
  let h: Harness;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    h = await createHarness(sandbox);
    await h.call('profiles:create', {
      name: 'Work',
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

  const attemptId = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  const posts = async (): Promise<number> =>
    (await sandbox.requests()).filter((r) => r.method === 'POST').length;

  it('creates once per attempt, watches it for the tray and refuses bad input before sending', async () => {
    const before = await posts();
    const amountError = await h
      .call('topups:create', { amountUsd: '24.99', coin: 'BTC', network: 'bitcoin', attemptId })
      .catch((e: unknown) => e);
    expect(amountError).toMatchObject({ code: 'invalid_input', fields: [{ field: 'amountUsd' }] });
    expect(await posts()).toBe(before);

    const input = { amountUsd: '50.00', coin: 'BTC', network: 'bitcoin', attemptId };
    const topUp = await h.call('topups:create', input);
    expect((await h.call('topups:create', input)).id).toBe(topUp.id);
    expect(await posts()).toBe(before + 1);
    expect(h.allEvents.some((e) => e.channel === 'topups:changed')).toBe(true);
    expect(await h.call('topups:pending', undefined)).toEqual([
      expect.objectContaining({ topUpId: topUp.id, text: 'Top-up of 50.00 USD is waiting for your payment' }),
    ]);

    const txidError = await h
      .call('topups:declareTxid', { topUpId: topUp.id, txid: '0x1234' })
      .catch((e: unknown) => e);
    expect(txidError).toMatchObject({ code: 'invalid_input', fields: [{ field: 'txid' }] });
    expect(await posts()).toBe(before + 1);

    const simulated = await h
      .call('topups:simulatePayment', { topUpId: topUp.id, kind: 'exact' })
      .catch((e: unknown) => e);
    expect(simulated).toMatchObject({ code: 'demo_only' });
  });
});
