/**
 * Every kind of OS notification the app shows, each of which the user can turn off in Settings.
 * A new feature (top-ups, alerts) adds its kinds here and a provider of its own.
 */
export const NOTIFICATION_KINDS = [
  'rotation-new-ip',
  'rotation-same-ip',
  'rotation-failed',
  'relocation-done',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** What the OS shows: a title, one or two lines, and what a click opens. */
export interface OsNotice {
  kind: NotificationKind;
  title: string;
  body: string;
  /** Equal keys within the dedupe window are shown once (one receipt told by two paths). */
  dedupeKey: string;
  /** What a click on the notification opens in the window (a port's detail). */
  target?: { screen: 'ports'; portId: string } | undefined;
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
