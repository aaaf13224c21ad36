import type { TopUp } from '../../api';
import type { SimulatedPayment } from '../../../src-shared/contract';
import { AppError } from '../errors';

/** The in-process sandbox's control API, in demo mode only. */
export interface DemoControl {
  /** The sandbox profile's id: simulated payments are refused for any other profile. */
  profileId: string;
  /** `http://127.0.0.1:PORT/__sandbox`. */
  controlUrl: string;
}

/** What the top-ups service asks of demo mode (`DemoService` implements it). */
export interface DemoPayments {
  /** Pays `topUp` on the demo sandbox's chain; refused (`demo_only`) for any other profile. */
  simulatePayment(profileId: string, topUp: TopUp, kind: SimulatedPayment): Promise<void>;
}

export function demoOnly(): AppError {
  return new AppError(
    'demo_only',
    'Simulated payments exist only in demo mode: send a real payment from your wallet instead.',
  );
}

/**
 * The wizard's "simulate a payment" in demo mode: the sandbox's chain receives the exact amount, 99 %
 * of it (`short`), or the exact amount after the rate lock (`late`: the demo world's clock first
 * moves to one minute after `expiresAt`). `control` is null outside demo mode.
 */
export async function simulateDemoPayment(
  control: DemoControl | null,
  profileId: string,
  topUp: TopUp,
  kind: SimulatedPayment,
  fetcher: typeof fetch = fetch,
): Promise<void> {
  if (!control || control.profileId !== profileId) throw demoOnly();
  const post = async (path: string, body: unknown): Promise<void> => {
    const response = await fetcher(`${control.controlUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) {
      throw new AppError(
        'internal_error',
        `The demo sandbox refused the simulated payment (${response.status}).`,
      );
    }
  };
  if (kind === 'late') {
    const seconds =
      Math.ceil((Date.parse(topUp.expiresAt) - Date.parse(await sandboxNow(control, fetcher))) / 1000) + 60;
    if (seconds > 0) await post('/clock', { advanceSeconds: seconds });
  }
  const amountCrypto = kind === 'short' ? shortAmount(topUp.amountCrypto) : topUp.amountCrypto;
  await post('/chain/transactions', { network: topUp.network, amountCrypto });
}

async function sandboxNow(control: DemoControl, fetcher: typeof fetch): Promise<string> {
  const response = await fetcher(`${control.controlUrl}/clock`);
  const body = (await response.json()) as { now?: unknown };
  if (typeof body.now !== 'string')
    throw new AppError('internal_error', 'The demo sandbox did not tell its time.');
  return body.now;
}

/** 99 % of the amount, cut at the same decimals: a payment short by an exchange's withdrawal fee. */
export function shortAmount(amount: string): string {
  const [whole = '0', fraction = ''] = amount.split('.');
  const units = BigInt(`${whole}${fraction}`);
  const cut = (units * 99n) / 100n;
  const text = cut.toString().padStart(fraction.length + 1, '0');
  return fraction.length === 0 ? text : `${text.slice(0, -fraction.length)}.${text.slice(-fraction.length)}`;
}
