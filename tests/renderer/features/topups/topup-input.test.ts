import { describe, expect, it } from 'vitest';
import {
  checkAmountUsd,
  checkOptions,
  checkQuantity,
  checkTxid,
  paymentTargetOf,
  safeExplorerUrl,
} from '../../../../src-renderer/src/features/topups/topup-input';

describe('amount in USD', () => {
  it('warns above the service’s default maximum of 10,000.00 but sends it: the service decides', () => {
    expect(checkAmountUsd('10000.00')).toEqual({ ok: true, amountUsd: '10000.00' });
    const above = checkAmountUsd('25,000.00');
    expect(above).toMatchObject({ ok: true, amountUsd: '25000.00' });
    expect(above.ok && above.warning).toContain('above 10,000.00 USD, the service’s default maximum');
    expect(checkAmountUsd('1000000.00')).toMatchObject({ ok: true, amountUsd: '1000000.00' });
  });

  it('accepts 25.00 to 10,000.00 as the decimal string the service wants', () => {
    expect(checkAmountUsd('25')).toEqual({ ok: true, amountUsd: '25.00' });
    expect(checkAmountUsd('50.')).toEqual({ ok: true, amountUsd: '50.00' });
    expect(checkAmountUsd(' 99.9 ')).toEqual({ ok: true, amountUsd: '99.90' });
    expect(checkAmountUsd('10,000.00')).toEqual({ ok: true, amountUsd: '10000.00' });
    expect(checkAmountUsd('10000')).toEqual({ ok: true, amountUsd: '10000.00' });
    expect(checkAmountUsd('0025.5')).toEqual({ ok: true, amountUsd: '25.50' });
  });

  it('refuses the bounds by one cent, a third decimal, signs, exponents and empty input', () => {
    expect(checkAmountUsd('24.99')).toEqual({ ok: false, message: 'The minimum is 25.00 USD.' });
    expect(checkAmountUsd('1000000.01')).toMatchObject({
      ok: false,
      message: expect.stringContaining('at most 1,000,000.00 USD'),
    });
    expect(checkAmountUsd('50.123')).toEqual({ ok: false, message: 'Use at most two decimals (cents).' });
    for (const typed of ['-50', '1e3', '50,5', 'abc', '.5', '50.0.0', '1,00.00']) {
      expect(checkAmountUsd(typed).ok, typed).toBe(false);
    }
    expect(checkAmountUsd('').ok).toBe(false);
    // Far beyond a float's precision, still compared exactly.
    expect(checkAmountUsd('9999999999999999999999.00').ok).toBe(false);
  });
});

describe('purchase inputs', () => {
  it('quantity is a whole number of 1 or more; options a JSON object', () => {
    expect(checkQuantity('3')).toEqual({ ok: true, quantity: 3 });
    expect(checkQuantity('0').ok).toBe(false);
    expect(checkQuantity('1.5').ok).toBe(false);
    expect(checkOptions('')).toEqual({ ok: true, options: {} });
    expect(checkOptions('{"country":"US"}')).toEqual({ ok: true, options: { country: 'US' } });
    expect(checkOptions('[1]').ok).toBe(false);
    expect(checkOptions('{').ok).toBe(false);
  });
});

describe('txid per network', () => {
  const hex = 'ab'.repeat(32);
  // Bytes 1..64 in base58: 87 characters.
  const solana = '2Ana1pUpv2ZbMVkwF5FXapYeBEjdxDatLn7nvJkhgTSXbs59SyZSx866bXirPgj8QQVB57uxHJBG1YFvkRbFj4T';

  it('accepts each network format, and no txid at all', () => {
    expect(checkTxid('bitcoin', hex)).toEqual({ ok: true, txid: hex });
    expect(checkTxid('litecoin', hex.toUpperCase()).ok).toBe(true);
    expect(checkTxid('tron', ` ${hex} `)).toEqual({ ok: true, txid: hex });
    expect(checkTxid('ethereum', `0x${hex}`).ok).toBe(true);
    expect(checkTxid('solana', solana).ok).toBe(true);
    expect(checkTxid('bitcoin', '  ')).toEqual({ ok: true, txid: null });
  });

  it('refuses another network format, wrong lengths and non-base58 characters', () => {
    expect(checkTxid('bitcoin', `0x${hex}`)).toEqual({
      ok: false,
      message: 'A bitcoin transaction id is 64 hexadecimal characters.',
    });
    expect(checkTxid('ethereum', hex).ok).toBe(false);
    expect(checkTxid('tron', hex.slice(1)).ok).toBe(false);
    expect(checkTxid('solana', hex).ok).toBe(false);
    expect(checkTxid('solana', `${solana.slice(0, -1)}0`).ok).toBe(false);
    expect(checkTxid('solana', solana.slice(0, 40)).ok).toBe(false);
  });
});

describe('payment URI targets', () => {
  it('splits an EIP-681 token transfer into the token contract and the deposit address', () => {
    const uri = 'ethereum:0xToken@11155111/transfer?address=0xDeposit&uint256=50000000';
    expect(paymentTargetOf(uri, '0xDeposit')).toEqual({
      depositAddress: '0xDeposit',
      tokenContract: '0xToken',
    });
  });

  it('names the token of Solana Pay and Tron URIs, and none for a coin', () => {
    expect(paymentTargetOf('solana:Dep?amount=1&spl-token=Mint', 'Dep').tokenContract).toBe('Mint');
    expect(paymentTargetOf('tron:Dep?amount=1&token=TToken', 'Dep').tokenContract).toBe('TToken');
    expect(paymentTargetOf('bitcoin:tb1q?amount=0.001', 'tb1q')).toEqual({
      depositAddress: 'tb1q',
      tokenContract: null,
    });
    expect(paymentTargetOf('ethereum:0xDep@11155111?value=10', '0xDep').tokenContract).toBeNull();
  });
});

describe('explorer links', () => {
  it('follows https links only', () => {
    expect(safeExplorerUrl('https://mempool.space/tx/ab')).toBe('https://mempool.space/tx/ab');
    expect(safeExplorerUrl('http://mempool.space/tx/ab')).toBeNull();
    expect(safeExplorerUrl('javascript:alert(1)')).toBeNull();
    expect(safeExplorerUrl('not a url')).toBeNull();
    expect(safeExplorerUrl(null)).toBeNull();
  });
});
