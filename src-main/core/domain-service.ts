import type { CallDomain, DomainHandlers } from '../../src-shared/contract';

/**
 * A domain service answers its domain's calls: `handlers()` returns exactly one handler per channel
 * of `contract/<domain>.ts` (a missing one is a compile error). Inputs arrive parsed by the contract.
 */
export interface DomainService<D extends CallDomain> {
  handlers(): DomainHandlers<D>;
}

/** What the composition root starts (in order) and stops (in reverse order). */
export interface Lifecycle {
  readonly name: string;
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}
