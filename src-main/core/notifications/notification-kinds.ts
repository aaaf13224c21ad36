import type { AppRoute } from '../../../src-shared/contract';

/**
 * Every kind of OS notification the user can turn off in Settings (`notifications` preferences).
 * A new feature adds its kinds here and a provider of its own.
 */
const NOTIFICATION_KINDS = [
  'rotation-new-ip',
  'rotation-same-ip',
  'rotation-failed',
  'relocation-done',
  'port-health',
] as const;
export type PreferenceNotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * Kinds without a switch of their own in the notifications preferences (the settings contract has
 * none for them): a usage alert follows the alert's own switch (`alerts.disabledKinds`, checked by
 * its provider), a top-up's outcome is money the user is waiting for and is always told.
 */
export type NotificationKind = PreferenceNotificationKind | 'usage-alert' | 'topup';

/** Whether the user lets `kind` through: its preference, or on for kinds without one. */
export function notificationKindEnabled(
  preferences: Record<PreferenceNotificationKind, boolean>,
  kind: NotificationKind,
): boolean {
  return (NOTIFICATION_KINDS as readonly string[]).includes(kind)
    ? preferences[kind as PreferenceNotificationKind]
    : true;
}

/** What the OS shows: a title, one or two lines, and what a click opens. */
export interface OsNotice {
  kind: NotificationKind;
  title: string;
  body: string;
  /** Equal keys within the dedupe window are shown once (one receipt told by two paths). */
  dedupeKey: string;
  /**
   * What a click opens in the window (`notice-routes.ts`): the port, the subscription, or the
   * top-up in the wizard's live view.
   */
  route: AppRoute;
}

/**
 * One source of notifications (after Mullvad's notification providers): it decides whether its
 * event deserves one at all and builds it. The controller applies the user's choices, dedupes,
 * throttles and suppresses while the window is focused.
 */
export interface NotificationProvider<Event> {
  mayDisplay(event: Event): boolean;
  build(event: Event): OsNotice;
}
