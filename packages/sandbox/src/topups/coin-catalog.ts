import { toUnits } from '../lib/decimal';
import coinData from './data/coins.json';

export type CoinCode = 'BTC' | 'LTC' | 'ETH' | 'SOL' | 'USDT' | 'USDC';
export type NetworkId = 'bitcoin' | 'litecoin' | 'ethereum' | 'solana' | 'tron';

export const COIN_CODES: readonly CoinCode[] = ['BTC', 'LTC', 'ETH', 'SOL', 'USDT', 'USDC'];
export const NETWORK_IDS: readonly NetworkId[] = ['bitcoin', 'litecoin', 'ethereum', 'solana', 'tron'];

const isNetworkId = (value: string): value is NetworkId => (NETWORK_IDS as readonly string[]).includes(value);

const isCoinCode = (value: string): value is CoinCode => (COIN_CODES as readonly string[]).includes(value);

const DATA_FILE = 'topups/data/coins.json';

/** `value` when the data file names a known coin or network; a broken file is refused at start-up. */
function known<T extends string>(value: string, isKnown: (value: string) => value is T, what: string): T {
  if (!isKnown(value)) throw new Error(`${DATA_FILE}: unknown ${what} "${value}"`);
  return value;
}

/**
 * One chain as the sandbox simulates it. The deposit addresses are test-network addresses where the
 * network has its own format (bitcoin `tb1`, litecoin `tltc1`) and otherwise spell out that they are
 * fake (`7E57ADD4E55F4CE...` is "test address fake"): all are valid in their network's format (bech32
 * checksum, EIP-55 checksum, base58check, 32-byte base58 key) and nobody holds a key for any of them.
 */
export interface NetworkData {
  id: NetworkId;
  name: string;
  confirmationsRequired: number;
  /** Simulated time between blocks: confirmations grow by one per block after the payment. */
  blockMs: number;
  memoRequired: boolean;
  address: string;
  /** Block explorer page of a transaction (the sandbox's chains are test networks). */
  explorerUrl(txid: string): string;
}

/** Sepolia: the EIP-681 URIs name the test chain, so that no wallet offers to pay on mainnet. */
const ETHEREUM_CHAIN_ID = 11_155_111;

/** A chain as the data file has it: its id only as a string, its explorer URL as a `{txid}` template. */
type NetworkRow = Omit<NetworkData, 'id' | 'explorerUrl'> & { id: string; explorerUrl: string };

/** Every chain of NETWORK_IDS by id, in the data file's order; a file without one is refused at start-up. */
export function readNetworks(rows: readonly NetworkRow[]): Record<NetworkId, NetworkData> {
  const networks = new Map<NetworkId, NetworkData>();
  for (const row of rows) {
    const id = known(row.id, isNetworkId, 'network');
    networks.set(id, { ...row, id, explorerUrl: (txid) => row.explorerUrl.replace('{txid}', () => txid) });
  }
  const missing = NETWORK_IDS.filter((id) => !networks.has(id));
  if (missing.length > 0) throw new Error(`${DATA_FILE}: no data for network ${missing.join(', ')}`);
  return Object.fromEntries(networks) as Record<NetworkId, NetworkData>;
}

/** A coin on one network: what `POST /v1/topups` accepts as `coin` + `network`. */
export interface CoinNetworkData {
  network: NetworkId;
  /** Shown name of the network for this coin, e.g. `Tron (TRC-20)` for USDT. */
  name: string;
  /** Token contract (EVM, Tron) or mint (Solana); null for the chain's own coin. */
  tokenContract: string | null;
}

export interface CoinData {
  code: CoinCode;
  name: string;
  /** Decimals of `amountCrypto`. */
  precision: number;
  /** Decimals of the coin's smallest on-chain unit (wei: 18), for payment URIs in base units. */
  baseUnitDecimals: number;
  /** USD per coin at start; changeable through the control API. */
  defaultRate: string;
  networks: CoinNetworkData[];
}

/** A coin as the data file has it: its code and networks only as strings. */
type CoinRow = Omit<CoinData, 'code' | 'networks'> & {
  code: string;
  networks: readonly (Omit<CoinNetworkData, 'network'> & { network: string })[];
};

export function readCoins(rows: readonly CoinRow[]): CoinData[] {
  return rows.map((row) => ({
    ...row,
    code: known(row.code, isCoinCode, 'coin'),
    networks: row.networks.map((entry) => ({
      ...entry,
      network: known(entry.network, isNetworkId, 'network'),
    })),
  }));
}

/** The simulated chains, by id. */
export const NETWORKS: Readonly<Record<NetworkId, NetworkData>> = readNetworks(coinData.networks);
/**
 * The coins in the order `GET /v1/catalog/coins` lists them. The token contracts are the sandbox's own
 * made-up addresses in the same "test address fake" style: a wallet that reads a URI finds no such
 * token rather than a real one.
 */
export const COINS: readonly CoinData[] = readCoins(coinData.coins);

const coinsByCode = new Map<string, CoinData>(COINS.map((c) => [c.code, c]));

const findCoin = (code: string): CoinData | undefined => coinsByCode.get(code);

/** The coin and its network entry when the pair is in the catalog. */
export function findCoinNetwork(
  coinCode: string,
  networkId: string,
): { coin: CoinData; entry: CoinNetworkData; network: NetworkData } | undefined {
  const coin = findCoin(coinCode);
  const entry = coin?.networks.find((n) => n.network === networkId);
  if (!coin || !entry) return undefined;
  return { coin, entry, network: NETWORKS[entry.network] };
}

/** The chain's time to `confirmationsRequired`, rounded up to whole minutes. */
const estimatedMinutes = (network: NetworkData): number =>
  Math.max(1, Math.ceil((network.confirmationsRequired * network.blockMs) / 60_000));

/** `GET /v1/catalog/coins` body. */
export function renderCoinCatalog(): { data: unknown[] } {
  return {
    data: COINS.map((coin) => ({
      code: coin.code,
      name: coin.name,
      networks: coin.networks.map((entry) => {
        const network = NETWORKS[entry.network];
        return {
          id: network.id,
          name: entry.name,
          confirmationsRequired: network.confirmationsRequired,
          estimatedMinutes: estimatedMinutes(network),
          memoRequired: network.memoRequired,
          address: network.address,
        };
      }),
    })),
  };
}

/**
 * The wallet URI for paying `amountCrypto` of `coin` on `network`: BIP21 for bitcoin and litecoin,
 * EIP-681 on ethereum (ETH as `value` in wei, tokens as a `transfer` call in token units), Solana Pay
 * (`amount` in coins, `spl-token` for tokens), and `tron:ADDRESS?amount=` (with the token contract as
 * `token`, so that a wallet does not send TRX instead of USDT).
 */
export function paymentUri(coin: CoinData, entry: CoinNetworkData, amountCrypto: string): string {
  const network = NETWORKS[entry.network];
  const address = network.address;
  switch (entry.network) {
    case 'bitcoin':
    case 'litecoin':
      return `${entry.network}:${address}?amount=${amountCrypto}`;
    case 'ethereum': {
      const wei = toUnits(amountCrypto, coin.baseUnitDecimals).toString();
      if (entry.tokenContract === null) return `ethereum:${address}@${ETHEREUM_CHAIN_ID}?value=${wei}`;
      return `ethereum:${entry.tokenContract}@${ETHEREUM_CHAIN_ID}/transfer?address=${address}&uint256=${wei}`;
    }
    case 'solana':
      return entry.tokenContract === null
        ? `solana:${address}?amount=${amountCrypto}`
        : `solana:${address}?amount=${amountCrypto}&spl-token=${entry.tokenContract}`;
    case 'tron':
      return entry.tokenContract === null
        ? `tron:${address}?amount=${amountCrypto}`
        : `tron:${address}?amount=${amountCrypto}&token=${entry.tokenContract}`;
  }
}
