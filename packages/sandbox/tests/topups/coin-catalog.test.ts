import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCoins, readNetworks } from '../../src/topups/coin-catalog';
import { TestSandbox } from '../../src/testing';
import {
  isBech32V0Address,
  isEip55Address,
  isSolanaAddress,
  isTronAddress,
  keccak256Hex,
  setRates,
} from './topup-test-kit';

interface NetworkBody {
  id: string;
  name: string;
  confirmationsRequired: number;
  estimatedMinutes: number | null;
  memoRequired: boolean;
  address: string;
}
interface CoinBody {
  code: string;
  name: string;
  networks: NetworkBody[];
}

let sandbox: TestSandbox;
let coins: CoinBody[];

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  const answer = await sandbox.request<{ data: CoinBody[] }>('GET', '/v1/catalog/coins', { key: null });
  expect(answer.status).toBe(200);
  coins = answer.json.data;
});
afterAll(() => sandbox.close());

const networksById = (): Map<string, NetworkBody[]> => {
  const byId = new Map<string, NetworkBody[]>();
  for (const coin of coins) {
    for (const network of coin.networks) byId.set(network.id, [...(byId.get(network.id) ?? []), network]);
  }
  return byId;
};

describe('GET /v1/catalog/coins', () => {
  it('is public: it answers without an API key', async () => {
    const answer = await sandbox.request('GET', '/v1/catalog/coins', { key: null });
    expect(answer.status).toBe(200);
  });

  it('lists exactly the accepted coin and network pairs', () => {
    const pairs = coins.flatMap((c) => c.networks.map((n) => `${c.code}/${n.id}`)).sort();
    expect(pairs).toEqual(
      [
        'BTC/bitcoin',
        'LTC/litecoin',
        'ETH/ethereum',
        'SOL/solana',
        'USDT/tron',
        'USDT/ethereum',
        'USDC/ethereum',
        'USDC/solana',
      ].sort(),
    );
  });

  it('gives every network the documented members with sane values', () => {
    for (const coin of coins) {
      expect(coin.name.length).toBeGreaterThan(0);
      for (const network of coin.networks) {
        expect(Object.keys(network).sort()).toEqual(
          ['address', 'confirmationsRequired', 'estimatedMinutes', 'id', 'memoRequired', 'name'].sort(),
        );
        expect(Number.isInteger(network.confirmationsRequired) && network.confirmationsRequired > 0).toBe(
          true,
        );
        expect(Number.isInteger(network.estimatedMinutes) && (network.estimatedMinutes as number) > 0).toBe(
          true,
        );
        expect(network.memoRequired).toBe(false);
      }
    }
  });

  it('gives one fixed deposit address per network, shared by the coins on it', () => {
    for (const [id, entries] of networksById()) {
      expect(new Set(entries.map((e) => e.address)).size, id).toBe(1);
      expect(new Set(entries.map((e) => e.confirmationsRequired)).size, id).toBe(1);
    }
    expect(networksById().get('ethereum')).toHaveLength(3);
  });

  it('uses addresses valid in each network format (checksums included)', () => {
    const address = (id: string): string => (networksById().get(id) as NetworkBody[])[0]?.address as string;
    expect(isBech32V0Address(address('bitcoin'), 'tb')).toBe(true);
    expect(isBech32V0Address(address('litecoin'), 'tltc')).toBe(true);
    expect(isEip55Address(address('ethereum'))).toBe(true);
    expect(isTronAddress(address('tron'))).toBe(true);
    expect(isSolanaAddress(address('solana'))).toBe(true);
  });

  it('uses addresses that are plainly not real wallets: test networks or self-describing fakes', () => {
    const address = (id: string): string => (networksById().get(id) as NetworkBody[])[0]?.address as string;
    // Mainnet wallets refuse the test-network prefixes outright.
    expect(address('bitcoin').startsWith('tb1')).toBe(true);
    expect(address('litecoin').startsWith('tltc1')).toBe(true);
    expect(address('bitcoin')).toContain('testaddressfake');
    expect(address('ethereum').toLowerCase()).toMatch(/^0x7e57add4e55f4ce0+$/);
    expect(address('tron')).toMatch(/^TSandboxDeposit/);
    expect(address('solana')).toMatch(/^SandboxDeposit/);
  });

  it('self-checks the keccak used for EIP-55 against the known empty-input hash', () => {
    expect(keccak256Hex(Buffer.alloc(0))).toBe(
      'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    );
    expect(isEip55Address('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(true);
    expect(isEip55Address('0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
  });
});

describe('control /rates', () => {
  it('reads the rates and changes any subset of them', async () => {
    const before = await sandbox.control<Record<string, string>>('GET', '/rates');
    expect(before.json).toEqual({
      BTC: '65000.00',
      LTC: '85.00',
      ETH: '3200.00',
      SOL: '150.00',
      USDT: '1.00',
      USDC: '1.00',
    });
    await setRates(sandbox, { LTC: '90.125' });
    const after = await sandbox.control<Record<string, string>>('GET', '/rates');
    expect(after.json.LTC).toBe('90.125');
    expect(after.json.BTC).toBe('65000.00');
    await setRates(sandbox, { LTC: '85.00' });
  });

  it('refuses unknown coins and rates that are not positive decimals, all at once', async () => {
    const answer = await sandbox.control<{ error: { fields: { field: string }[] } }>('POST', '/rates', {
      DOGE: '0.1',
      BTC: '0',
      ETH: 3000,
      SOL: '1e3',
    });
    expect(answer.status).toBe(422);
    expect(answer.json.error.fields.map((f) => f.field).sort()).toEqual(['BTC', 'DOGE', 'ETH', 'SOL']);
    expect((await sandbox.control<Record<string, string>>('GET', '/rates')).json.BTC).toBe('65000.00');
  });
});

describe('the coin data file', () => {
  const bitcoin = {
    id: 'bitcoin',
    name: 'Bitcoin',
    confirmationsRequired: 2,
    blockMs: 600_000,
    memoRequired: false,
    address: 'tb1q',
    explorerUrl: 'https://explorer.test/tx/{txid}?net=test',
  };
  const others = ['litecoin', 'ethereum', 'solana', 'tron'].map((id) => ({ ...bitcoin, id }));

  it('gives each chain an explorer URL built from its {txid} template', () => {
    const networks = readNetworks([bitcoin, ...others]);
    expect(Object.keys(networks)).toEqual(['bitcoin', 'litecoin', 'ethereum', 'solana', 'tron']);
    expect(networks.bitcoin.explorerUrl('ab$&cd')).toBe('https://explorer.test/tx/ab$&cd?net=test');
  });

  it('is refused at start-up when a chain is unknown or missing, or a coin is unknown', () => {
    expect(() => readNetworks([bitcoin, ...others, { ...bitcoin, id: 'dogecoin' }])).toThrow(
      'topups/data/coins.json: unknown network "dogecoin"',
    );
    expect(() => readNetworks([bitcoin, ...others.slice(1)])).toThrow(
      'topups/data/coins.json: no data for network litecoin',
    );
    const coin = {
      code: 'BTC',
      name: 'Bitcoin',
      precision: 8,
      baseUnitDecimals: 8,
      defaultRate: '1.00',
      networks: [{ network: 'bitcoin', name: 'Bitcoin', tokenContract: null }],
    };
    expect(readCoins([coin])[0]?.networks[0]?.network).toBe('bitcoin');
    expect(() => readCoins([{ ...coin, code: 'DOGE' }])).toThrow(
      'topups/data/coins.json: unknown coin "DOGE"',
    );
    expect(() =>
      readCoins([{ ...coin, networks: [{ network: 'dogecoin', name: 'Doge', tokenContract: null }] }]),
    ).toThrow('topups/data/coins.json: unknown network "dogecoin"');
  });
});
