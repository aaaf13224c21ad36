import { z } from 'zod';
import { call, type DomainCalls, type DomainEvents, event } from './define';
import type { AttentionScreen } from './overview';
import { noInput } from './shared-inputs';

export const ALERT_KIND_NAMES = [
  'traffic_low',
  'traffic_runs_out',
  'sub_user_cap_80',
  'sub_user_cap_100',
  'subscription_expiring',
  'port_expiring',
] as const;
export type AlertKindName = (typeof ALERT_KIND_NAMES)[number];

/** One alert as raised by main's alert center (once per crossing). Times are ISO 8601 (UTC). */
export interface AlertView {
  id: string;
  /** The condition: `kind:profileId:subjectId`. */
  key: string;
  kind: AlertKindName;
  profileId: string;
  /** A subscription id, `subscriptionId/subUserId`, or a port id. */
  subjectId: string;
  level: 'warning' | 'error';
  title: string;
  message: string;
  raisedAt: string;
  /** The screen it belongs to (a port's alert is on Ports, never counted on Subscriptions). */
  screen: AttentionScreen;
}

export interface AlertRaised {
  alert: AlertView;
}

export const alertsCalls = {
  /**
   * Recent alerts, newest first: dismissed ones left out, and those whose cause was resolved since
   * (judged by the same model as the overview, in its current words).
   */
  'alerts:list': call<AlertView[]>('read')(noInput),
  /** Hides one alert from the list; its condition stays crossed until it recovers. */
  'alerts:dismiss': call<{ dismissed: boolean }>('manage')(
    z.strictObject({ alertId: z.string().min(1).max(200) }),
  ),
} as const satisfies DomainCalls<'alerts'>;

export const alertsEvents = {
  'alerts:raised': event<AlertRaised>(),
} as const satisfies DomainEvents<'alerts'>;
