import { z } from 'zod';
import type { Subscription } from '../../api/api-types';
import { call, type DomainCalls, type DomainEvents, event } from './define';

export interface SubscriptionsChanged {
  profileId: string;
  /** The subscriptions whose state main learned of; others are unchanged. */
  changed: Subscription[];
}

export const subscriptionsCalls = {
  'subscriptions:list': call<Subscription[]>()(
    z.strictObject({ productId: z.enum(['residential', 'mobile-gb']).optional() }).optional(),
  ),
} as const satisfies DomainCalls<'subscriptions'>;

export const subscriptionsEvents = {
  'subscriptions:changed': event<SubscriptionsChanged>(),
} as const satisfies DomainEvents<'subscriptions'>;
