import {
  portByLabel,
  SEEDED_PORT_LABELS,
  SEEDED_SUBSCRIPTION_LABELS,
  subscriptionByLabel,
  type TestSandbox,
} from '@proxy-manager/sandbox/testing';

/**
 * The seeded sandbox account (seed 7) arranged as issue 31 found it: a port expiring in 16 hours
 * with auto-renew off, a subscription expiring in 2 days, one at 7 % of its traffic, and a top-up
 * made at the service (not through the app) buying 5 GB for that low subscription, waiting for
 * payment. The balance is emptied so that the top-up must pay for the whole purchase.
 */
export interface ArrangedAccount {
  port: { id: string; label: string; expiresAt: string };
  expiring: { id: string; label: string; expiresAt: string };
  low: { id: string; label: string };
  /** The top-up buying 5 GB for `low`, as the service answered its creation. */
  purchase: { id: string; amountCrypto: string; network: string; expiresAt: string };
}

export async function arrangeAccount(sandbox: TestSandbox): Promise<ArrangedAccount> {
  const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.expiringSoon);
  const expiring = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.expiringSoon);
  const low = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.nearlyDepleted);
  await sandbox.control('POST', '/account', { balanceUsd: '0.00' });
  const created = await sandbox.request('POST', '/v1/topups', {
    body: {
      amountUsd: '30.00',
      coin: 'USDT',
      network: 'tron',
      purchase: { planId: 'mgb-5', quantity: 1, options: { subscriptionId: low.id } },
    },
  });
  if (created.status !== 201) throw new Error(`top-up refused: ${created.text}`);
  return { port, expiring, low, purchase: created.json };
}

/** Pays a top-up's exact amount on the simulated chain and lets the confirmations pass: it is credited. */
export async function payTopUp(
  sandbox: TestSandbox,
  topUp: { amountCrypto: string; network: string },
): Promise<void> {
  const paid = await sandbox.control('POST', '/chain/transactions', {
    network: topUp.network,
    amountCrypto: topUp.amountCrypto,
  });
  if (paid.status !== 201 && paid.status !== 200) throw new Error(`payment refused: ${paid.text}`);
  await sandbox.advance(120);
}

/** Turns auto-renew on at the service (as another device or the web panel would). */
export async function autoRenewAtService(
  sandbox: TestSandbox,
  target: { port?: string; subscription?: string },
): Promise<void> {
  if (target.port) await sandbox.request('PATCH', `/v1/mobile/${target.port}`, { body: { autoRenew: true } });
  if (target.subscription) {
    await sandbox.request('PATCH', `/v1/residential/subscriptions/${target.subscription}`, {
      body: { autoRenew: true },
    });
  }
}
