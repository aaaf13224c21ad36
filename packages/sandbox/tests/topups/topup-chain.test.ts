import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import { base58Decode, createTopUp, type ErrorBody, hex64, pay, type TopUpBody } from './topup-test-kit';

let sandbox: TestSandbox;
beforeEach(async () => {
  sandbox = await TestSandbox.start();
});
afterEach(() => sandbox.close());

const ETH_DEPOSIT = '0x7E57ADD4E55f4ce0000000000000000000000000';

describe('payment URIs and explorer links per coin and network', () => {
  it.each([
    ['BTC', 'bitcoin', 'bitcoin:tb1qtestaddressfakeneverqqqqqqqqqqqqtj6chp?amount=0.00153848'],
    ['LTC', 'litecoin', 'litecoin:tltc1qtestaddressfakeneverqqqqqqqqqqqqj6cx8g?amount=1.17647060'],
    // 100 / 3200 = 0.03125 + 0.00000001 ETH = 31250010000000000 wei, on Sepolia (chain 11155111).
    ['ETH', 'ethereum', `ethereum:${ETH_DEPOSIT}@11155111?value=31250010000000000`],
    [
      'USDT',
      'ethereum',
      `ethereum:0x7e57AdD4E55F4CE000000000000000000000a5D7@11155111/transfer?address=${ETH_DEPOSIT}&uint256=100000001`,
    ],
    [
      'USDC',
      'ethereum',
      `ethereum:0x7e57aDd4E55f4Ce000000000000000000000a5dc@11155111/transfer?address=${ETH_DEPOSIT}&uint256=100000001`,
    ],
    ['SOL', 'solana', 'solana:SandboxDepositAddress1111111111111111111111?amount=0.66666668'],
    [
      'USDC',
      'solana',
      'solana:SandboxDepositAddress1111111111111111111111?amount=100.000001&spl-token=SandboxUSDCMint1111111111111111111111111111',
    ],
    [
      'USDT',
      'tron',
      'tron:TSandboxDepositAddress1111111xc8vB?amount=100.000001&token=TSandboxUSDTContract1111111135qMHw',
    ],
  ])('%s on %s: %s', async (coin, network, uri) => {
    const topUp = await createTopUp(sandbox, { amountUsd: '100.00', coin, network });
    expect(topUp.paymentUri).toBe(uri);
  });

  it('keeps the wei value exact for amounts no float could hold', async () => {
    await sandbox.control('POST', '/rates', { ETH: '3333.33' });
    const topUp = await createTopUp(sandbox, { amountUsd: '9999.99', coin: 'ETH', network: 'ethereum' });
    const wei = /value=(\d+)$/.exec(topUp.paymentUri)?.[1] as string;
    expect(wei).toBe(`${topUp.amountCrypto.replace('.', '').replace(/^0+/, '')}0000000000`);
  });

  it.each([
    ['BTC', 'bitcoin', 'https://mempool.space/testnet4/tx/'],
    ['LTC', 'litecoin', 'https://litecoinspace.org/testnet/tx/'],
    ['ETH', 'ethereum', 'https://sepolia.etherscan.io/tx/'],
    ['SOL', 'solana', 'https://explorer.solana.com/tx/'],
    ['USDT', 'tron', 'https://nile.tronscan.org/#/transaction/'],
  ])('%s on %s links the matched transaction on %s', async (coin, network, prefix) => {
    const topUp = await createTopUp(sandbox, { amountUsd: '100.00', coin, network });
    const { txid } = await pay(sandbox, network, topUp.amountCrypto);
    const paid = (await sandbox.request<TopUpBody>('GET', `/v1/topups/${topUp.id}`)).json;
    expect(paid.explorerUrl).toBe(`${prefix}${txid}${network === 'solana' ? '?cluster=devnet' : ''}`);
  });
});

describe('control POST /chain/transactions', () => {
  it.each([
    ['bitcoin', /^[0-9a-f]{64}$/],
    ['litecoin', /^[0-9a-f]{64}$/],
    ['tron', /^[0-9a-f]{64}$/],
    ['ethereum', /^0x[0-9a-f]{64}$/],
  ])('generates a %s txid in the network format when none is given', async (network, pattern) => {
    const { txid } = await pay(sandbox, network, '1.5');
    expect(txid).toMatch(pattern);
  });

  it('generates a solana txid that is a 64-byte base58 signature of 87-88 characters', async () => {
    const { txid } = await pay(sandbox, 'solana', '1.5');
    expect(base58Decode(txid)).toHaveLength(64);
    expect(txid.length).toBeGreaterThanOrEqual(87);
    expect(txid.length).toBeLessThanOrEqual(88);
  });

  it('uses the given txid, normalized, and answers what it matched', async () => {
    const topUp = await createTopUp(sandbox, { amountUsd: '100.00', coin: 'USDT', network: 'tron' });
    const answer = await sandbox.control<Record<string, unknown>>('POST', '/chain/transactions', {
      network: 'tron',
      amountCrypto: topUp.amountCrypto,
      txid: hex64('A'),
    });
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({
      txid: hex64('a'),
      network: 'tron',
      amountCrypto: topUp.amountCrypto,
      receivedAt: await sandbox.now(),
      topUpId: topUp.id,
    });
  });

  it('refuses a txid that already exists on that network with 409 txid_exists', async () => {
    await pay(sandbox, 'bitcoin', '0.1', hex64('1'));
    const again = await sandbox.control<ErrorBody>('POST', '/chain/transactions', {
      network: 'bitcoin',
      amountCrypto: '0.2',
      txid: hex64('1'),
    });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('txid_exists');
    expect(
      (
        await sandbox.control('POST', '/chain/transactions', {
          network: 'litecoin',
          amountCrypto: '0.2',
          txid: hex64('1'),
        })
      ).status,
    ).toBe(201);
  });

  it.each([
    [{ amountCrypto: '1' }, ['network']],
    [{ network: 'dogecoin', amountCrypto: '1' }, ['network']],
    [{ network: 'bitcoin' }, ['amountCrypto']],
    [{ network: 'bitcoin', amountCrypto: '0' }, ['amountCrypto']],
    [{ network: 'bitcoin', amountCrypto: '-1' }, ['amountCrypto']],
    [{ network: 'bitcoin', amountCrypto: 1 }, ['amountCrypto']],
    [{ network: 'bitcoin', amountCrypto: '1', txid: `0x${hex64('a')}` }, ['txid']],
  ])('refuses %j with 422 on %j', async (body, fields) => {
    const answer = await sandbox.control<ErrorBody>('POST', '/chain/transactions', body);
    expect(answer.status).toBe(422);
    expect((answer.json.error.fields ?? []).map((f) => f.field)).toEqual(fields);
  });

  it('lists the transactions, optionally of one network', async () => {
    await pay(sandbox, 'bitcoin', '0.1');
    await pay(sandbox, 'tron', '5');
    const all = await sandbox.control<{ data: { network: string }[] }>('GET', '/chain/transactions');
    const seededCount = all.json.data.length - 2;
    expect(seededCount).toBeGreaterThanOrEqual(0);
    const tron = await sandbox.control<{ data: { network: string }[] }>(
      'GET',
      '/chain/transactions?network=tron',
    );
    expect(tron.json.data.map((t) => t.network)).toEqual(['tron']);
    expect((await sandbox.control('GET', '/chain/transactions?network=nope')).status).toBe(422);
  });
});
