import type { CallDomain } from '../ipc/contract';
import type { DomainService } from './domain-service';

/** One service per contract domain: a domain without one is a compile error where this is built. */
export type AppServices = { [D in CallDomain]: DomainService<D> };
