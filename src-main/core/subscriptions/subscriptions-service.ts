import type { Subscription } from '../../api';
import type { DomainHandlers } from '../../ipc/contract';
import type { DomainService } from '../domain-service';
import type { EventSink } from '../events';
import type { ApiCaller } from '../session/api-caller';
import { AppError } from '../errors';

const notYet = (): Promise<never> =>
  Promise.reject(new AppError('not_implemented', 'Not available yet in this build.'));

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
      'subscriptions:get': notYet,
      'subscriptions:update': notYet,
      'subscriptions:resetPassword': notYet,
      'subscriptions:usage': notYet,
      'subscriptions:exportUsage': notYet,
      'subscriptions:subUsers': notYet,
      'subscriptions:createSubUser': notYet,
      'subscriptions:updateSubUser': notYet,
      'subscriptions:deleteSubUser': notYet,
      'subscriptions:createSubUsers': notYet,
      'subscriptions:exportCredentials': notYet,
      'subscriptions:buildProxyString': notYet,
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
