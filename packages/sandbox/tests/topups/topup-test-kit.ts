import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { TestSandbox } from '../../src/testing';

/** The top-up resource as the tests read it. */
export interface TopUpBody {
  id: string;
  status: string;
  final: boolean;
  amountUsd: string;
  coin: string;
  network: string;
  address: string;
  amountCrypto: string;
  rate: string;
  paymentUri: string;
  expiresAt: string;
  txidDeadline: string;
  confirmationsRequired: number;
  confirmations: number;
  txid: string | null;
  txidSubmittedAt: string | null;
  amountReceivedCrypto: string | null;
  explorerUrl: string | null;
  creditedUsd: string | null;
  creditedAt: string | null;
  rejection: { reason: string; message: string } | null;
  purchase: {
    planId: string;
    planName: string;
    quantity: number;
    options: Record<string, unknown>;
    promoCode: string | null;
    total: string;
    status: string;
    orderId: string | null;
    failureReason: string | null;
  } | null;
  createdAt: string;
}

export interface ErrorBody {
  error: { code: string; message: string; fields?: { field: string; code: string; message: string }[] };
}

export const MINUTE = 60;
export const HOUR = 3600;

/** Creates a top-up and insists on 201. */
export async function createTopUp(
  sandbox: TestSandbox,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<TopUpBody> {
  const answer = await sandbox.request<TopUpBody>('POST', '/v1/topups', { body, headers });
  expect(answer.status, answer.text).toBe(201);
  return answer.json;
}

export async function getTopUp(sandbox: TestSandbox, id: string): Promise<TopUpBody> {
  const answer = await sandbox.request<TopUpBody>('GET', `/v1/topups/${id}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.json;
}

/** A simulated on-chain transfer to the network's deposit address; returns the txid. */
export async function pay(
  sandbox: TestSandbox,
  network: string,
  amountCrypto: string,
  txid?: string,
): Promise<{ txid: string; topUpId: string | null }> {
  const answer = await sandbox.control<{ txid: string; topUpId: string | null }>(
    'POST',
    '/chain/transactions',
    { network, amountCrypto, ...(txid === undefined ? {} : { txid }) },
  );
  expect(answer.status, answer.text).toBe(201);
  return answer.json;
}

export async function declare(sandbox: TestSandbox, id: string, body?: unknown) {
  return sandbox.request<TopUpBody & ErrorBody>('POST', `/v1/topups/${id}/txid`, { body });
}

export async function balance(sandbox: TestSandbox): Promise<string> {
  return (await sandbox.control<{ balanceUsd: string }>('GET', '/account')).json.balanceUsd;
}

export async function setBalance(sandbox: TestSandbox, balanceUsd: string): Promise<void> {
  const answer = await sandbox.control('POST', '/account', { balanceUsd });
  expect(answer.status, answer.text).toBe(200);
}

export async function setRates(sandbox: TestSandbox, rates: Record<string, string>): Promise<void> {
  const answer = await sandbox.control('POST', '/rates', rates);
  expect(answer.status, answer.text).toBe(200);
}

/** Seconds between two ISO timestamps. */
export const secondsBetween = (from: string, to: string): number =>
  (Date.parse(to) - Date.parse(from)) / 1000;

export const BTC_100 = { amountUsd: '100.00', coin: 'BTC', network: 'bitcoin' } as const;

/** Field names of a 422 body. */
export const fieldsOf = (body: ErrorBody): string[] => (body.error.fields ?? []).map((f) => f.field).sort();

export const hex64 = (digit: string): string => digit.repeat(64);

// ---- independent checks of address formats (not the sandbox's own code) ------------------------

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function bech32Polymod(values: number[]): number {
  const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let checksum = 1;
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i += 1) if ((top >>> i) & 1) checksum ^= generators[i] as number;
  }
  return checksum >>> 0;
}

/** A valid bech32 (BIP173) segwit v0 address with a 20-byte program under `hrp`. */
export function isBech32V0Address(address: string, hrp: string): boolean {
  const separator = address.lastIndexOf('1');
  if (address.slice(0, separator) !== hrp) return false;
  const data = [...address.slice(separator + 1)].map((c) => BECH32_CHARSET.indexOf(c));
  if (data.some((d) => d < 0) || data.length < 7) return false;
  const expanded = [
    ...[...hrp].map((c) => c.charCodeAt(0) >> 5),
    0,
    ...[...hrp].map((c) => c.charCodeAt(0) & 31),
  ];
  if (bech32Polymod([...expanded, ...data]) !== 1) return false;
  const program = data.slice(1, -6);
  return data[0] === 0 && (program.length * 5) / 8 === 20;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58Decode(text: string): Buffer {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58.indexOf(char);
    if (digit < 0) throw new Error(`not base58: ${char}`);
    value = value * 58n + BigInt(digit);
  }
  let hex = value === 0n ? '' : value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  const zeros = /^1*/.exec(text)?.[0].length ?? 0;
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex, 'hex')]);
}

export function base58Encode(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (value > 0n) {
    out = `${BASE58[Number(value % 58n)]}${out}`;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

const sha256 = (data: Buffer): Buffer => createHash('sha256').update(data).digest();

/** A Tron address: base58check of 0x41 + 20 bytes. */
export function isTronAddress(address: string): boolean {
  const bytes = base58Decode(address);
  if (bytes.length !== 25 || bytes[0] !== 0x41) return false;
  const checksum = sha256(sha256(bytes.subarray(0, 21))).subarray(0, 4);
  return checksum.equals(bytes.subarray(21));
}

/** A Solana public key: base58 of exactly 32 bytes, canonically encoded. */
export function isSolanaAddress(address: string): boolean {
  const bytes = base58Decode(address);
  return bytes.length === 32 && base58Encode(bytes) === address;
}

// Keccak-256 (the pre-NIST padding Ethereum uses), for EIP-55 checksums.
const KECCAK_ROUND_CONSTANTS = [
  0x1n,
  0x8082n,
  0x800000000000808an,
  0x8000000080008000n,
  0x808bn,
  0x80000001n,
  0x8000000080008081n,
  0x8000000000008009n,
  0x8an,
  0x88n,
  0x80008009n,
  0x8000000an,
  0x8000808bn,
  0x800000000000008bn,
  0x8000000000008089n,
  0x8000000000008003n,
  0x8000000000008002n,
  0x8000000000000080n,
  0x800an,
  0x800000008000000an,
  0x8000000080008081n,
  0x8000000000008080n,
  0x80000001n,
  0x8000000080008008n,
];
const KECCAK_ROTATIONS = [
  [0, 36, 3, 41, 18],
  [1, 44, 10, 45, 2],
  [62, 6, 43, 15, 61],
  [28, 55, 25, 21, 56],
  [27, 20, 39, 8, 14],
];
const MASK64 = (1n << 64n) - 1n;
const rotl = (x: bigint, n: number): bigint =>
  n === 0 ? x : ((x << BigInt(n)) | (x >> BigInt(64 - n))) & MASK64;

export function keccak256Hex(input: Buffer): string {
  const rate = 136;
  const message = [...input, 0x01];
  while (message.length % rate !== 0) message.push(0);
  message[message.length - 1] = (message[message.length - 1] as number) | 0x80;
  const s: bigint[][] = Array.from({ length: 5 }, () => Array<bigint>(5).fill(0n));
  const at = (x: number, y: number): bigint => (s[x] as bigint[])[y] as bigint;
  const set = (x: number, y: number, v: bigint): void => {
    (s[x] as bigint[])[y] = v;
  };
  for (let offset = 0; offset < message.length; offset += rate) {
    for (let i = 0; i < rate / 8; i += 1) {
      let word = 0n;
      for (let b = 7; b >= 0; b -= 1) word = (word << 8n) | BigInt(message[offset + i * 8 + b] as number);
      set(i % 5, Math.floor(i / 5), at(i % 5, Math.floor(i / 5)) ^ word);
    }
    for (const constant of KECCAK_ROUND_CONSTANTS) {
      const c = [0, 1, 2, 3, 4].map((x) => at(x, 0) ^ at(x, 1) ^ at(x, 2) ^ at(x, 3) ^ at(x, 4));
      for (let x = 0; x < 5; x += 1) {
        const d = (c[(x + 4) % 5] as bigint) ^ rotl(c[(x + 1) % 5] as bigint, 1);
        for (let y = 0; y < 5; y += 1) set(x, y, at(x, y) ^ d);
      }
      const b: bigint[][] = Array.from({ length: 5 }, () => Array<bigint>(5).fill(0n));
      for (let x = 0; x < 5; x += 1) {
        for (let y = 0; y < 5; y += 1) {
          (b[y] as bigint[])[(2 * x + 3 * y) % 5] = rotl(
            at(x, y),
            (KECCAK_ROTATIONS[x] as number[])[y] as number,
          );
        }
      }
      const bAt = (x: number, y: number): bigint => (b[x] as bigint[])[y] as bigint;
      for (let x = 0; x < 5; x += 1) {
        for (let y = 0; y < 5; y += 1)
          set(x, y, bAt(x, y) ^ (~bAt((x + 1) % 5, y) & bAt((x + 2) % 5, y) & MASK64));
      }
      set(0, 0, at(0, 0) ^ constant);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < 4; i += 1) {
    let word = at(i % 5, Math.floor(i / 5));
    for (let b = 0; b < 8; b += 1) {
      out.push(Number(word & 0xffn));
      word >>= 8n;
    }
  }
  return Buffer.from(out).toString('hex');
}

/** An Ethereum address with a valid EIP-55 mixed-case checksum. */
export function isEip55Address(address: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  const lower = address.slice(2).toLowerCase();
  const hash = keccak256Hex(Buffer.from(lower, 'ascii'));
  const expected = [...lower]
    .map((char, i) => (Number.parseInt(hash[i] as string, 16) >= 8 ? char.toUpperCase() : char))
    .join('');
  return address.slice(2) === expected;
}
