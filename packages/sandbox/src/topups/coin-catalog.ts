import { toUnits } from '../lib/decimal';

export type CoinCode = 'BTC' | 'LTC' | 'ETH' | 'SOL' | 'USDT' | 'USDC';
export type NetworkId = 'bitcoin' | 'litecoin' | 'ethereum' | 'solana' | 'tron';

export const COIN_CODES: readonly CoinCode[] = ['BTC', 'LTC', 'ETH', 'SOL', 'USDT', 'USDC'];
export const NETWORK_IDS: readonly NetworkId[] = ['bitcoin', 'litecoin', 'ethereum', 'solana', 'tron'];

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
export const ETHEREUM_CHAIN_ID = 11_155_111;

export const NETWORKS: Readonly<Record<NetworkId, NetworkData>> = {
  bitcoin: {
    id: 'bitcoin',
    name: 'Bitcoin',
    confirmationsRequired: 2,
    blockMs: 600_000,
    memoRequired: false,
    address: 'tb1qtestaddressfakeneverqqqqqqqqqqqqtj6chp',
    explorerUrl: (txid) => `https://mempool.space/testnet4/tx/${txid}`,
  },
  litecoin: {
    id: 'litecoin',
    name: 'Litecoin',
    confirmationsRequired: 6,
    blockMs: 150_000,
    memoRequired: false,
    address: 'tltc1qtestaddressfakeneverqqqqqqqqqqqqj6cx8g',
    explorerUrl: (txid) => `https://litecoinspace.org/testnet/tx/${txid}`,
  },
  ethereum: {
    id: 'ethereum',
    name: 'Ethereum',
    confirmationsRequired: 12,
    blockMs: 12_000,
    memoRequired: false,
    address: '0x7E57ADD4E55f4ce0000000000000000000000000',
    explorerUrl: (txid) => `https://sepolia.etherscan.io/tx/${txid}`,
  },
  solana: {
    id: 'solana',
    name: 'Solana',
    confirmationsRequired: 32,
    blockMs: 400,
    memoRequired: false,
    address: 'SandboxDepositAddress1111111111111111111111',
    explorerUrl: (txid) => `https://explorer.solana.com/tx/${txid}?cluster=devnet`,
  },
  tron: {
    id: 'tron',
    name: 'Tron',
    confirmationsRequired: 19,
    blockMs: 3_000,
    memoRequired: false,
    address: 'TSandboxDepositAddress1111111xc8vB',
    explorerUrl: (txid) => `https://nile.tronscan.org/#/transaction/${txid}`,
  },
};

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

// The token contracts are the sandbox's own made-up addresses in the same "test address fake" style:
// a wallet that reads a URI finds no such token rather than a real one.
export const COINS: readonly CoinData[] = [
  {
    code: 'BTC',
    name: 'Bitcoin',
    precision: 8,
    baseUnitDecimals: 8,
    defaultRate: '65000.00',
    networks: [{ network: 'bitcoin', name: 'Bitcoin', tokenContract: null }],
  },
  {
    code: 'LTC',
    name: 'Litecoin',
    precision: 8,
    baseUnitDecimals: 8,
    defaultRate: '85.00',
    networks: [{ network: 'litecoin', name: 'Litecoin', tokenContract: null }],
  },
  {
    code: 'ETH',
    name: 'Ethereum',
    precision: 8,
    baseUnitDecimals: 18,
    defaultRate: '3200.00',
    networks: [{ network: 'ethereum', name: 'Ethereum', tokenContract: null }],
  },
  {
    code: 'SOL',
    name: 'Solana',
    precision: 8,
    baseUnitDecimals: 9,
    defaultRate: '150.00',
    networks: [{ network: 'solana', name: 'Solana', tokenContract: null }],
  },
  {
    code: 'USDT',
    name: 'Tether USD',
    precision: 6,
    baseUnitDecimals: 6,
    defaultRate: '1.00',
    networks: [
      { network: 'tron', name: 'Tron (TRC-20)', tokenContract: 'TSandboxUSDTContract1111111135qMHw' },
      {
        network: 'ethereum',
        name: 'Ethereum (ERC-20)',
        tokenContract: '0x7e57AdD4E55F4CE000000000000000000000a5D7',
      },
    ],
  },
  {
    code: 'USDC',
    name: 'USD Coin',
    precision: 6,
    baseUnitDecimals: 6,
    defaultRate: '1.00',
    networks: [
      {
        network: 'ethereum',
        name: 'Ethereum (ERC-20)',
        tokenContract: '0x7e57aDd4E55f4Ce000000000000000000000a5dc',
      },
      {
        network: 'solana',
        name: 'Solana (SPL)',
        tokenContract: 'SandboxUSDCMint1111111111111111111111111111',
      },
    ],
  },
];

const coinsByCode = new Map<string, CoinData>(COINS.map((c) => [c.code, c]));

export const findCoin = (code: string): CoinData | undefined => coinsByCode.get(code);

export const isNetworkId = (value: string): value is NetworkId =>
  (NETWORK_IDS as readonly string[]).includes(value);

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
export const estimatedMinutes = (network: NetworkData): number =>
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
