import { FieldErrors, QueryReader } from '../http/input-reader';
import { paginate, readPageRequest } from '../http/pagination';
import { conflict, notFound } from '../http/sandbox-error';
import { renderOrder } from '../orders/order-placement';
import type { SandboxModule, SandboxWorld } from '../sandbox-world';
import { COIN_CODES, NETWORK_IDS, renderCoinCatalog } from './coin-catalog';
import { renderTopUp, TOP_UP_STATUSES, type TopUpRecord } from './topup-model';
import {
  canonicalJson,
  readChainTransaction,
  readDeclaredTxid,
  readIdempotencyKey,
  readNewTopUp,
  readRates,
} from './topup-request';
import { TopUpService } from './topup-service';

/**
 * Crypto top-ups: the coin catalog (`GET /v1/catalog/coins`), the `/v1/topups` endpoints, and the
 * control routes that drive them (`/rates`, `/chain/transactions`, `/orders`).
 */
export function createTopUpsModule(world: SandboxWorld): SandboxModule {
  const service = new TopUpService(world);
  const find = (id: string): TopUpRecord => {
    const record = service.get(id);
    if (!record) throw notFound(`Top-up ${id}`);
    return record;
  };
  const ratesBody = () => ({ ...service.state.rates });

  return {
    name: 'topups',
    settle: (now) => service.settle(now),
    nextEventAt: () => service.nextEventAt(),
    routes: [
      {
        method: 'GET',
        path: '/v1/catalog/coins',
        auth: 'public',
        handler: () => ({ status: 200, body: renderCoinCatalog() }),
      },
      {
        method: 'POST',
        path: '/v1/topups',
        auth: 'bearer',
        mutates: true,
        handler: ({ headers, body, now }) => {
          const errors = new FieldErrors();
          const key = readIdempotencyKey(headers, errors);
          const fingerprint = canonicalJson(body);
          const remembered = key === undefined ? undefined : service.findIdempotent(key, now);
          if (remembered) {
            if (remembered.fingerprint !== fingerprint) {
              throw conflict(
                'idempotency_key_reused',
                'This Idempotency-Key was used in the last 24 hours with another body',
              );
            }
            const original = service.get(remembered.topUpId);
            if (original) return { status: 201, body: renderTopUp(original, now) };
          }
          const request = readNewTopUp(world, body, errors);
          const record = service.create(request, now);
          if (key !== undefined) service.rememberIdempotent(key, fingerprint, record.id, now);
          return { status: 201, body: renderTopUp(record, now) };
        },
      },
      {
        method: 'GET',
        path: '/v1/topups',
        auth: 'bearer',
        handler: ({ query, now }) => {
          const reader = new QueryReader(query);
          const page = readPageRequest(reader);
          const status = reader.oneOf('status', TOP_UP_STATUSES);
          reader.throwIfAny();
          const { data, pagination } = paginate(service.list(status), page);
          return { status: 200, body: { data: data.map((r) => renderTopUp(r, now)), pagination } };
        },
      },
      {
        method: 'GET',
        path: '/v1/topups/:topUpId',
        auth: 'bearer',
        handler: ({ params, now }) => ({
          status: 200,
          body: renderTopUp(find(params.topUpId as string), now),
        }),
      },
      {
        method: 'POST',
        path: '/v1/topups/:topUpId/txid',
        auth: 'bearer',
        mutates: true,
        handler: ({ params, body, now }) => {
          const record = find(params.topUpId as string);
          const txid = readDeclaredTxid(record.network, body);
          return { status: 200, body: renderTopUp(service.declare(record, txid, now), now) };
        },
      },
    ],
    controlRoutes: [
      { method: 'GET', path: '/rates', auth: 'public', handler: () => ({ status: 200, body: ratesBody() }) },
      {
        method: 'POST',
        path: '/rates',
        auth: 'public',
        mutates: true,
        handler: ({ body }) => {
          service.setRates(readRates(body, COIN_CODES));
          return { status: 200, body: ratesBody() };
        },
      },
      {
        method: 'POST',
        path: '/chain/transactions',
        auth: 'public',
        mutates: true,
        handler: ({ body, now }) => {
          const tx = service.receivePayment(readChainTransaction(body), now);
          return { status: 201, body: renderTransaction(tx) };
        },
      },
      {
        method: 'GET',
        path: '/chain/transactions',
        auth: 'public',
        handler: ({ query }) => {
          const reader = new QueryReader(query);
          const network = reader.oneOf('network', NETWORK_IDS);
          reader.throwIfAny();
          return { status: 200, body: { data: service.listChain(network).map(renderTransaction) } };
        },
      },
      {
        method: 'GET',
        path: '/orders',
        auth: 'public',
        handler: () => ({ status: 200, body: { data: service.state.orders.map(renderOrder) } }),
      },
    ],
  };
}

function renderTransaction(tx: {
  txid: string;
  network: string;
  amountCrypto: string;
  receivedAt: number;
  topUpId: string | null;
}): Record<string, unknown> {
  return {
    txid: tx.txid,
    network: tx.network,
    amountCrypto: tx.amountCrypto,
    receivedAt: new Date(tx.receivedAt).toISOString(),
    topUpId: tx.topUpId,
  };
}
