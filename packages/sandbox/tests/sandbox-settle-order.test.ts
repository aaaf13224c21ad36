import { afterEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../src/testing';

const DAY = 86_400;

/**
 * Everything that spends or fills the balance, as the API shows it (rotation links and gateway
 * endpoints name the running server, so they are left out).
 */
async function snapshot(sandbox: TestSandbox) {
  const balance = (await sandbox.control('GET', '/account')).json.balanceUsd as string;
  const subscriptions = (await sandbox.request('GET', '/v1/residential/subscriptions')).json.data.map(
    ({ endpoint: _endpoint, ...sub }: Record<string, unknown>) => sub,
  );
  const ports = (await sandbox.request('GET', '/v1/mobile')).json.data.map(
    ({ rotationLink: _link, endpoint: _endpoint, ...port }: Record<string, unknown>) => port,
  );
  const topUps = (await sandbox.request('GET', '/v1/topups?perPage=100')).json.data;
  return { balance, subscriptions, ports, topUps };
}

/** A $500 top-up paid now: it is credited about a minute later, in the middle of any clock jump. */
async function payTopUp(sandbox: TestSandbox): Promise<void> {
  const created = await sandbox.request('POST', '/v1/topups', {
    body: { amountUsd: '500.00', coin: 'USDT', network: 'tron' },
  });
  expect(created.status).toBe(201);
  const paid = await sandbox.control('POST', '/chain/transactions', {
    network: 'tron',
    amountCrypto: created.json.amountCrypto,
  });
  expect(paid.status).toBe(201);
}

describe('time-driven changes across domains', () => {
  const sandboxes: TestSandbox[] = [];
  afterEach(async () => {
    await Promise.all(sandboxes.splice(0).map((s) => s.close()));
  });

  it('give the same account whether 40 days pass in one jump or in 200 steps', async () => {
    const [jump, steps] = await Promise.all([TestSandbox.start(), TestSandbox.start()]);
    sandboxes.push(jump, steps);
    await payTopUp(jump);
    await payTopUp(steps);

    await jump.advance(40 * DAY);
    for (let i = 0; i < 200; i += 1) await steps.advance((40 * DAY) / 200);

    const [a, b] = await Promise.all([snapshot(jump), snapshot(steps)]);
    expect(a).toEqual(b);
    // The credit reached the balance before the renewals that came after it spent from it.
    const credited = a.topUps.find((t: any) => t.amountUsd === '500.00');
    expect(credited.status).toBe('credited');
    expect(a.balance).not.toBe('500.00');
  });
});
