import { canonical, fromUnits } from '../lib/decimal';
import { MinHeap } from './min-heap';

/**
 * Top-ups that ask for the same base amount on one network and coin share a cohort; its offsets
 * 1..highestIssued are either held by a member or waiting in `free`, so the smallest offset not held
 * by the cohort is found without scanning.
 */
interface Cohort {
  highestIssued: number;
  free: MinHeap<number>;
  members: number;
}

export interface AllocatedAmount {
  /** `base + offset` units, written with the coin's precision. */
  amount: string;
  offset: number;
}

/**
 * Keeps the exact amounts of the top-ups that can still be paid, per network, so that a payment of
 * an amount names at most one of them. Amounts of different coins on one network (ETH, USDT and USDC
 * on ethereum) are compared by value. Allocation returns the smallest offset >= 1 (in last-digit
 * units) whose amount no reserved top-up of the network asks for; it costs O(log n) plus the number of
 * candidates taken by other cohorts, however many top-ups are open.
 */
export class AmountAllocator {
  /** network -> canonical amount -> holder id. */
  private readonly reserved = new Map<string, Map<string, string>>();
  private readonly cohorts = new Map<string, Cohort>();

  private networkAmounts(network: string): Map<string, string> {
    let amounts = this.reserved.get(network);
    if (!amounts) {
      amounts = new Map();
      this.reserved.set(network, amounts);
    }
    return amounts;
  }

  private cohort(key: string): Cohort {
    let cohort = this.cohorts.get(key);
    if (!cohort) {
      cohort = { highestIssued: 0, free: new MinHeap((a, b) => a < b), members: 0 };
      this.cohorts.set(key, cohort);
    }
    return cohort;
  }

  /** The id of the top-up that holds `amount` on `network`, if any. */
  holder(network: string, amount: string): string | undefined {
    return this.reserved.get(network)?.get(canonical(amount));
  }

  /** Reserves the smallest free `base + offset` (offset >= 1) for `holderId`. */
  allocate(input: {
    network: string;
    coin: string;
    precision: number;
    baseUnits: bigint;
    holderId: string;
  }): AllocatedAmount {
    const amounts = this.networkAmounts(input.network);
    const cohort = this.cohort(cohortKey(input.network, input.coin, input.baseUnits));
    const takenElsewhere: number[] = [];
    for (;;) {
      const offset = cohort.free.pop() ?? (cohort.highestIssued += 1);
      const amount = fromUnits(input.baseUnits + BigInt(offset), input.precision);
      const key = canonical(amount);
      if (amounts.has(key)) {
        takenElsewhere.push(offset);
        continue;
      }
      for (const skipped of takenElsewhere) cohort.free.push(skipped);
      amounts.set(key, input.holderId);
      cohort.members += 1;
      return { amount, offset };
    }
  }

  /** Re-reserves the amounts held before (rebuilding the index from persisted state). */
  restore(
    entries: readonly {
      network: string;
      coin: string;
      baseUnits: bigint;
      offset: number;
      amount: string;
      holderId: string;
    }[],
  ): void {
    // Ascending offsets let each cohort mark its gaps as free as it goes.
    for (const entry of [...entries].sort((a, b) => a.offset - b.offset)) {
      const cohort = this.cohort(cohortKey(entry.network, entry.coin, entry.baseUnits));
      for (let missing = cohort.highestIssued + 1; missing < entry.offset; missing += 1) {
        cohort.free.push(missing);
      }
      cohort.highestIssued = Math.max(cohort.highestIssued, entry.offset);
      cohort.members += 1;
      this.networkAmounts(entry.network).set(canonical(entry.amount), entry.holderId);
    }
  }

  /** Frees an amount (its top-up became final) for the next top-up that needs it. */
  release(input: {
    network: string;
    coin: string;
    baseUnits: bigint;
    offset: number;
    amount: string;
    holderId: string;
  }): void {
    const amounts = this.reserved.get(input.network);
    const key = canonical(input.amount);
    if (amounts?.get(key) !== input.holderId) return;
    amounts.delete(key);
    const cohortId = cohortKey(input.network, input.coin, input.baseUnits);
    const cohort = this.cohorts.get(cohortId);
    if (!cohort) return;
    cohort.members -= 1;
    if (cohort.members <= 0) this.cohorts.delete(cohortId);
    else cohort.free.push(input.offset);
  }

  /** Number of reserved amounts (all networks). */
  get size(): number {
    let total = 0;
    for (const amounts of this.reserved.values()) total += amounts.size;
    return total;
  }
}

const cohortKey = (network: string, coin: string, baseUnits: bigint): string =>
  `${network}|${coin}|${baseUnits.toString()}`;
