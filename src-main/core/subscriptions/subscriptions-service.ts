import type { Subscription } from '../../api';
import type { DomainHandlers } from '../../ipc/contract';
import type { DomainService } from '../domain-service';
import type { EventSink } from '../events';
import type { ApiCaller } from '../session/api-caller';

/** Traffic subscriptions. UI calls go to the active profile; `refresh` serves background jobs. */
export class SubscriptionsService implements DomainService<'subscriptions'> {
  constructor(
    private readonly api: Pick<ApiCaller, 'active' | 'forProfile'>,
    private readonly events: EventSink,
  ) {}

  handlers(): DomainHandlers<'subscriptions'> {
    return {
      'subscriptions:list': async (input) =>
        (
          await this.api.active('authenticated', (client) =>
            client.listSubscriptions(input?.productId ? { productId: input.productId } : {}),
          )
        ).value,
    };
  }

  /** Reads one profile's subscriptions for a background job and tells the UI (`subscriptions:changed`). */
  async refresh(profileId: string): Promise<Subscription[]> {
    const subscriptions = await this.api.forProfile(profileId, 'authenticated', (client) =>
      client.listSubscriptions(),
    );
    this.publish(profileId, subscriptions);
    return subscriptions;
  }

  /** Announces subscriptions whose state main learned of (after a write, or a background read). */
  publish(profileId: string, changed: Subscription[]): void {
    if (changed.length > 0) this.events.emit('subscriptions:changed', { profileId, changed });
  }
}
