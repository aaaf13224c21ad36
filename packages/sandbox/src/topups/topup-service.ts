import { add, canonical, multiply } from '../lib/decimal';
import { conflict } from '../http/sandbox-error';
import { placeOrder } from '../orders/order-placement';
import { findPlan } from '../orders/plan-catalog';
import type { PricedPurchase } from '../orders/purchase-request';
import type { SandboxWorld } from '../sandbox-world';
import { type CoinCode, findCoinNetwork, type NetworkId, NETWORKS } from './coin-catalog';
import { AmountAllocator } from './amount-allocator';
import { MinHeap } from './min-heap';
import {
  baseCryptoUnits,
  type ChainTransactionRecord,
  DECLARATION_WAIT_MS,
  defaultRates,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyRecord,
  type TopUpRecord,
  type TopUpsState,
  type TopUpStatus,
  newTopUpRecord,
} from './topup-model';
import { generateTxid } from './txid-format';

interface ScheduledEvent {
  at: number;
  seq: number;
  id: string;
}

export interface NewTopUp {
  amountUsd: string;
  coin: CoinCode;
  network: NetworkId;
  purchase: PricedPurchase | null;
}

const chainKey = (network: NetworkId, txid: string): string => `${network}:${txid}`;
const iso = (ms: number): string => new Date(ms).toISOString();

/** Fills members missing from state persisted by an older sandbox (the domain's first placeholder). */
function completeState(state: TopUpsState): TopUpsState {
  const partial = state as Partial<TopUpsState>;
  partial.nextSeq ??= (partial.items?.length ?? 0) + 1;
  partial.rates = { ...defaultRates(), ...partial.rates };
  partial.items ??= [];
  partial.chain ??= [];
  partial.idempotency ??= [];
  partial.orders ??= [];
  return state;
}

/**
 * The top-up book: creation with unique amounts, declarations, simulated chain payments, and the
 * time-driven transitions (expiry, confirmations, crediting with the purchase, rejection, finality).
 *
 * Every transition happens at an instant computed from the record (`expiresAt`, `paidAt` plus the
 * confirmation time, the declaration plus 24 h, `txidDeadline`), never at the moment `settle` is
 * called, and the events run in time order across top-ups. So `settle(now)` gives the same state
 * whether it runs once or after every request, and balance-dependent purchases see credits in the
 * order they happened.
 */
export class TopUpService {
  readonly state: TopUpsState;
  private readonly byId = new Map<string, TopUpRecord>();
  private readonly chainByTxid = new Map<string, ChainTransactionRecord>();
  /** network:txid -> id of the top-up whose `txid` it is (declared or matched). */
  private readonly claims = new Map<string, string>();
  private readonly amounts = new AmountAllocator();
  private readonly events = new MinHeap<ScheduledEvent>(
    (a, b) => a.at < b.at || (a.at === b.at && a.seq < b.seq),
  );
  private readonly idempotency = new Map<string, IdempotencyRecord>();

  constructor(private readonly world: SandboxWorld) {
    this.state = completeState(world.state.topUps);
    for (const tx of this.state.chain) this.chainByTxid.set(chainKey(tx.network, tx.txid), tx);
    for (const record of this.state.items) {
      this.byId.set(record.id, record);
      if (record.txid !== null) this.claims.set(chainKey(record.network, record.txid), record.id);
      this.schedule(record);
    }
    this.amounts.restore(
      this.state.items
        .filter((r) => !r.released)
        .map((r) => ({
          network: r.network,
          coin: r.coin,
          baseUnits: BigInt(r.baseUnits),
          offset: r.offset,
          amount: r.amountCrypto,
          holderId: r.id,
        })),
    );
    for (const entry of this.state.idempotency) this.idempotency.set(entry.key, entry);
  }

  get(id: string): TopUpRecord | undefined {
    return this.byId.get(id);
  }

  /** Newest first, optionally only one status. */
  list(status: TopUpStatus | undefined): TopUpRecord[] {
    const out: TopUpRecord[] = [];
    for (let i = this.state.items.length - 1; i >= 0; i -= 1) {
      const record = this.state.items[i] as TopUpRecord;
      if (status === undefined || record.status === status) out.push(record);
    }
    return out;
  }

  /** Number of amounts currently reserved (top-ups that are not final). */
  get reservedAmounts(): number {
    return this.amounts.size;
  }

  // ---- creation and idempotency -------------------------------------------------------------

  create(input: NewTopUp, now: number): TopUpRecord {
    const pair = findCoinNetwork(input.coin, input.network);
    if (!pair) throw new Error(`no ${input.coin} on ${input.network}`);
    const rate = this.state.rates[input.coin];
    const baseUnits = baseCryptoUnits(input.amountUsd, rate, pair.coin.precision);
    const id = this.world.newId('topup');
    const { amount, offset } = this.amounts.allocate({
      network: input.network,
      coin: input.coin,
      precision: pair.coin.precision,
      baseUnits,
      holderId: id,
    });
    const record = newTopUpRecord({
      id,
      seq: this.state.nextSeq++,
      coin: input.coin,
      network: input.network,
      amountUsd: input.amountUsd,
      amountCrypto: amount,
      baseUnits,
      offset,
      rate,
      createdAt: now,
      purchase: input.purchase
        ? {
            planId: input.purchase.plan.id,
            planName: input.purchase.plan.name,
            quantity: input.purchase.quantity,
            options: input.purchase.options,
            promoCode: input.purchase.promoCode,
            total: input.purchase.total,
            status: 'pending',
            orderId: null,
            failureReason: null,
          }
        : null,
    });
    this.state.items.push(record);
    this.byId.set(id, record);
    this.schedule(record);
    return record;
  }

  /** The remembered creation for `key`, while it is kept (24 h). */
  findIdempotent(key: string, now: number): IdempotencyRecord | undefined {
    const entry = this.idempotency.get(key);
    return entry && now < entry.createdAt + IDEMPOTENCY_TTL_MS ? entry : undefined;
  }

  rememberIdempotent(key: string, fingerprint: string, topUpId: string, now: number): void {
    const entry: IdempotencyRecord = { key, fingerprint, topUpId, createdAt: now };
    this.state.idempotency.push(entry);
    this.idempotency.set(key, entry);
  }

  // ---- declarations --------------------------------------------------------------------------

  /**
   * `POST /v1/topups/{id}/txid` with an already validated, normalized `txid` (or null when the body
   * has none). Returns the record, changed or (for a repeated declaration) not.
   */
  declare(record: TopUpRecord, txid: string | null, now: number): TopUpRecord {
    if (record.status === 'credited') {
      throw conflict('topup_closed', `The top-up ${record.id} is already credited`);
    }
    if (record.status === 'verifying') {
      // Repeating the declaration that put it in `verifying` is a safe retry; anything else is late.
      if (txid === null || txid === record.txid) return record;
      throw conflict(
        'topup_closed',
        `The top-up ${record.id} is already verifying ${record.txid === null ? 'a payment' : `the transaction ${record.txid}`}`,
      );
    }
    if (now >= record.txidDeadline) {
      throw conflict(
        'topup_closed',
        `The txid deadline of the top-up ${record.id} passed at ${iso(record.txidDeadline)}`,
      );
    }
    if (txid !== null) {
      const claimant = this.claims.get(chainKey(record.network, txid));
      if (claimant !== undefined && claimant !== record.id) {
        throw conflict('txid_already_used', `The transaction ${txid} is already claimed by another top-up`);
      }
    }
    this.setTxid(record, txid);
    record.status = 'verifying';
    record.txidSubmittedAt = now;
    record.rejection = null;
    record.paidAt = null;
    record.amountReceivedCrypto = null;
    record.creditRate = null;
    this.schedule(record);
    return record;
  }

  // ---- the simulated chain -------------------------------------------------------------------

  /**
   * A transfer of `amountCrypto` to the network's deposit address at `now`. It pays the top-up of the
   * network that asks for exactly this amount and can still be paid; a top-up that declared this txid
   * and waits for it is then checked against it (and rejected unless it was that top-up).
   */
  receivePayment(
    input: { network: NetworkId; amountCrypto: string; txid: string | null },
    now: number,
  ): ChainTransactionRecord {
    let txid = input.txid;
    if (txid === null) {
      do txid = generateTxid(input.network, this.world.random);
      while (this.chainByTxid.has(chainKey(input.network, txid)));
    } else if (this.chainByTxid.has(chainKey(input.network, txid))) {
      throw conflict('txid_exists', `The ${input.network} transaction ${txid} already exists`);
    }
    const tx: ChainTransactionRecord = {
      txid,
      network: input.network,
      amountCrypto: input.amountCrypto,
      receivedAt: now,
      topUpId: null,
    };
    this.state.chain.push(tx);
    this.chainByTxid.set(chainKey(tx.network, tx.txid), tx);

    // The exact amount is the primary key of a payment; a declared txid only helps.
    const claimantId = this.claims.get(chainKey(tx.network, tx.txid));
    const holderId = this.amounts.holder(tx.network, tx.amountCrypto);
    const holder = holderId === undefined ? undefined : this.byId.get(holderId);
    if (holder && this.isPayable(holder, now)) {
      this.match(holder, tx);
      this.schedule(holder);
    }
    const claimant = claimantId === undefined ? undefined : this.byId.get(claimantId);
    if (claimant && claimant !== holder && claimant.status === 'verifying' && claimant.paidAt === null) {
      // Checked by its own event at `now`: the transaction pays another amount (or another top-up).
      this.schedule(claimant);
    }
    this.settle(now);
    return tx;
  }

  listChain(network: NetworkId | undefined): ChainTransactionRecord[] {
    return this.state.chain.filter((tx) => network === undefined || tx.network === network);
  }

  private isPayable(record: TopUpRecord, now: number): boolean {
    if (record.released || now >= record.txidDeadline || now < record.createdAt) return false;
    if (record.status === 'verifying') return record.paidAt === null;
    return record.status !== 'credited';
  }

  private match(record: TopUpRecord, tx: ChainTransactionRecord): void {
    this.setTxid(record, tx.txid);
    const late = tx.receivedAt >= record.expiresAt;
    record.status = 'verifying';
    record.paidAt = tx.receivedAt;
    record.amountReceivedCrypto = tx.amountCrypto;
    record.rejection = null;
    record.creditRate = late ? this.state.rates[record.coin] : record.rate;
    tx.topUpId = record.id;
  }

  private setTxid(record: TopUpRecord, txid: string | null): void {
    if (record.txid !== null && record.txid !== txid) {
      const key = chainKey(record.network, record.txid);
      if (this.claims.get(key) === record.id) this.claims.delete(key);
    }
    record.txid = txid;
    if (txid !== null) this.claims.set(chainKey(record.network, txid), record.id);
  }

  // ---- rates ---------------------------------------------------------------------------------

  setRates(rates: Partial<Record<CoinCode, string>>): void {
    Object.assign(this.state.rates, rates);
  }

  // ---- time ----------------------------------------------------------------------------------

  /**
   * The earliest instant at which `settle` may change something (null: nothing pending), so that a
   * caller can step several domains through time together. It may be early, never late.
   */
  nextEventAt(): number | null {
    return this.events.peek()?.at ?? null;
  }

  /** Applies every transition due at or before `now`, in time order. */
  settle(now: number): void {
    this.pruneIdempotency(now);
    for (;;) {
      const next = this.events.peek();
      if (!next || next.at > now) return;
      this.events.pop();
      const record = this.byId.get(next.id);
      // Entries left from an earlier schedule of the record are stale: only its current event counts.
      if (!record || this.eventAtOf(record) !== next.at) continue;
      this.apply(record, next.at);
      this.schedule(record);
    }
  }

  private schedule(record: TopUpRecord): void {
    const at = this.eventAtOf(record);
    if (at !== null) this.events.push({ at, seq: record.seq, id: record.id });
  }

  private declaredTransaction(record: TopUpRecord): ChainTransactionRecord | undefined {
    return record.txid === null ? undefined : this.chainByTxid.get(chainKey(record.network, record.txid));
  }

  private eventAtOf(record: TopUpRecord): number | null {
    switch (record.status) {
      case 'awaiting_payment':
        return record.expiresAt;
      case 'expired':
      case 'rejected':
        return record.released ? null : record.txidDeadline;
      case 'credited':
        return null;
      case 'verifying': {
        if (record.paidAt !== null) {
          const network = NETWORKS[record.network];
          return record.paidAt + network.confirmationsRequired * network.blockMs;
        }
        const declaredAt = record.txidSubmittedAt ?? record.createdAt;
        const tx = this.declaredTransaction(record);
        if (tx) return Math.max(declaredAt, tx.receivedAt);
        return Math.min(declaredAt + DECLARATION_WAIT_MS, record.txidDeadline);
      }
    }
  }

  private apply(record: TopUpRecord, at: number): void {
    switch (record.status) {
      case 'awaiting_payment':
        record.status = 'expired';
        return;
      case 'expired':
      case 'rejected':
        this.release(record);
        return;
      case 'credited':
        return;
      case 'verifying': {
        if (record.paidAt !== null) {
          this.credit(record, at);
          return;
        }
        const tx = this.declaredTransaction(record);
        if (tx) this.checkDeclaredTransaction(record, tx);
        else this.rejectUnpaid(record, at);
        return;
      }
    }
  }

  private checkDeclaredTransaction(record: TopUpRecord, tx: ChainTransactionRecord): void {
    const coin = record.coin;
    if (tx.receivedAt < record.createdAt) {
      record.status = 'rejected';
      record.amountReceivedCrypto = tx.amountCrypto;
      record.rejection = {
        reason: 'payment_predates_topup',
        message: `The transaction ${tx.txid} was sent at ${iso(tx.receivedAt)}, before this top-up was created`,
      };
      return;
    }
    if (canonical(tx.amountCrypto) === canonical(record.amountCrypto) && tx.topUpId === null) {
      this.match(record, tx);
      return;
    }
    record.status = 'rejected';
    record.amountReceivedCrypto = tx.amountCrypto;
    record.rejection = {
      reason: 'amount_mismatch',
      message: `The transaction ${tx.txid} pays ${tx.amountCrypto} ${coin}; this top-up asks for exactly ${record.amountCrypto} ${coin}`,
    };
  }

  private rejectUnpaid(record: TopUpRecord, at: number): void {
    const coin = record.coin;
    const window =
      at >= record.txidDeadline ? 'before the txid deadline' : 'within 24 hours of the declaration';
    record.status = 'rejected';
    record.rejection = {
      reason: 'payment_not_found',
      message:
        record.txid === null
          ? `No payment of ${record.amountCrypto} ${coin} arrived ${window}`
          : `The transaction ${record.txid} was not found on ${record.network} ${window}`,
    };
  }

  private credit(record: TopUpRecord, at: number): void {
    const late = record.paidAt !== null && record.paidAt >= record.expiresAt;
    const creditedUsd =
      late && record.amountReceivedCrypto !== null && record.creditRate !== null
        ? multiply(record.amountReceivedCrypto, record.creditRate, 2, 'down')
        : record.amountUsd;
    const account = this.world.state.account;
    account.balanceUsd = add(account.balanceUsd, creditedUsd, 2);
    record.status = 'credited';
    record.creditedUsd = creditedUsd;
    record.creditedAt = at;
    this.release(record);
    const purchase = record.purchase;
    if (purchase && purchase.status === 'pending') {
      const outcome = this.placePurchase(record, at);
      if (outcome.ok) {
        purchase.status = 'completed';
        purchase.orderId = outcome.orderId;
      } else {
        purchase.status = 'failed';
        purchase.failureReason = outcome.reason;
      }
    }
  }

  private placePurchase(
    record: TopUpRecord,
    at: number,
  ): { ok: true; orderId: string } | { ok: false; reason: string } {
    const purchase = record.purchase;
    if (!purchase) return { ok: false, reason: 'no purchase' };
    const plan = findPlan(purchase.planId);
    if (!plan) return { ok: false, reason: `The plan ${purchase.planId} no longer exists` };
    const outcome = placeOrder(this.world, this.state.orders, {
      plan,
      quantity: purchase.quantity,
      options: purchase.options,
      promoCode: purchase.promoCode,
      totalUsd: purchase.total,
      topUpId: record.id,
      now: at,
    });
    return outcome.ok ? { ok: true, orderId: outcome.order.id } : outcome;
  }

  private release(record: TopUpRecord): void {
    if (record.released) return;
    record.released = true;
    this.amounts.release({
      network: record.network,
      coin: record.coin,
      baseUnits: BigInt(record.baseUnits),
      offset: record.offset,
      amount: record.amountCrypto,
      holderId: record.id,
    });
  }

  private pruneIdempotency(now: number): void {
    const entries = this.state.idempotency;
    let expired = 0;
    while (
      expired < entries.length &&
      (entries[expired] as IdempotencyRecord).createdAt + IDEMPOTENCY_TTL_MS <= now
    ) {
      expired += 1;
    }
    if (expired === 0) return;
    for (const entry of entries.splice(0, expired)) {
      if (this.idempotency.get(entry.key) === entry) this.idempotency.delete(entry.key);
    }
  }
}
