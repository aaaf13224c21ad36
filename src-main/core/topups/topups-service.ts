import type { TopUp } from '../../api';
import type { DomainHandlers } from '../../ipc/contract';
import type { DomainService } from '../domain-service';
import type { EventSink } from '../events';
import type { ApiCaller } from '../session/api-caller';

/** Crypto top-ups. UI calls go to the active profile; `refreshOne` serves background jobs (the watcher). */
export class TopUpsService implements DomainService<'topups'> {
  constructor(
    private readonly api: Pick<ApiCaller, 'active' | 'forProfile'>,
    private readonly events: EventSink,
  ) {}

  handlers(): DomainHandlers<'topups'> {
    return {
      'topups:list': async (input) => {
        const query = {
          ...(input?.page !== undefined ? { page: input.page } : {}),
          ...(input?.perPage !== undefined ? { perPage: input.perPage } : {}),
          ...(input?.status !== undefined ? { status: input.status } : {}),
        };
        return (await this.api.active('authenticated', (client) => client.listTopUps(query))).value;
      },
      'topups:get': () => notImplemented(),
      'topups:create': () => notImplemented(),
      'topups:declareTxid': () => notImplemented(),
      'topups:plans': () => notImplemented(),
      'topups:simulatePayment': () => notImplemented(),
      'topups:exportCsv': () => notImplemented(),
      'topups:paymentDetails': () => notImplemented(),
      'topups:pending': () => notImplemented(),
    };
  }

  /** Reads one top-up of one profile for a background job and tells the UI (`topups:changed`). */
  async refreshOne(profileId: string, topUpId: string): Promise<TopUp> {
    const topUp = await this.api.forProfile(profileId, 'authenticated', (client) => client.getTopUp(topUpId));
    this.publish(profileId, [topUp]);
    return topUp;
  }

  /** Announces top-ups whose state main learned of (after a write, or a background read). */
  publish(profileId: string, changed: TopUp[]): void {
    if (changed.length > 0) this.events.emit('topups:changed', { profileId, changed });
  }
}

// Contract first: the handlers come in the next commits.
function notImplemented(): Promise<never> {
  return Promise.reject(new Error('not implemented yet'));
}
