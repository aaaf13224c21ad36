import { z } from 'zod';
import type { TopUp, TopUpPage } from '../../api/api-types';
import { call, type DomainCalls, type DomainEvents, event } from './define';
import { page, perPage } from './shared-inputs';

export const TOP_UP_STATUSES = ['awaiting_payment', 'verifying', 'credited', 'rejected', 'expired'] as const;

export interface TopUpsChanged {
  profileId: string;
  /** The top-ups whose state main learned of; others are unchanged. */
  changed: TopUp[];
}

export const topupsCalls = {
  'topups:list': call<TopUpPage>()(
    z
      .strictObject({
        page: page.optional(),
        perPage: perPage.optional(),
        status: z.enum(TOP_UP_STATUSES).optional(),
      })
      .optional(),
  ),
} as const satisfies DomainCalls<'topups'>;

export const topupsEvents = {
  'topups:changed': event<TopUpsChanged>(),
} as const satisfies DomainEvents<'topups'>;
