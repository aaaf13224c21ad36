import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import {
  balance,
  BTC_100,
  createTopUp,
  declare,
  getTopUp,
  hex64,
  MINUTE,
  pay,
  type TopUpBody,
} from './topup-test-kit';

let folder: string;
let dataFile: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'topups-persist-'));
  dataFile = join(folder, 'state.json');
});
afterEach(() => rm(folder, { recursive: true, force: true }));

describe('top-ups across a restart with --data', () => {
  it('keeps top-ups, reserved amounts, claims, idempotency keys and pending transitions', async () => {
    const before = await TestSandbox.start({ dataFile });
    const open = await createTopUp(before, BTC_100, { 'Idempotency-Key': 'restart-1' });
    const declared = await createTopUp(before, BTC_100);
    await declare(before, declared.id, { txid: hex64('4') });
    const paid = await createTopUp(before, { amountUsd: '40.00', coin: 'USDT', network: 'tron' });
    await pay(before, 'tron', paid.amountCrypto);
    await before.close();

    const after = await TestSandbox.start({ dataFile });
    try {
      expect(await getTopUp(after, open.id)).toEqual(open);
      // Offsets 1 and 2 are still held by the two open BTC top-ups.
      expect((await createTopUp(after, BTC_100)).amountCrypto).toBe('0.00153850');
      const replay = await after.request<TopUpBody>('POST', '/v1/topups', {
        body: BTC_100,
        headers: { 'Idempotency-Key': 'restart-1' },
      });
      expect(replay.json.id).toBe(open.id);
      const other = await createTopUp(after, BTC_100);
      expect((await declare(after, other.id, { txid: hex64('4') })).status).toBe(409);

      await after.advance(30 * MINUTE);
      expect((await getTopUp(after, open.id)).status).toBe('expired');
      expect((await getTopUp(after, paid.id)).status).toBe('credited');
      expect(await balance(after)).toBe('40.00');
    } finally {
      await after.close();
    }
  });
});
