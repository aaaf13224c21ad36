import { z } from 'zod';
import { ACCELERATOR_MAX, ACCELERATOR_PATTERN, ALERT_LIMITS, POLLING_LIMITS } from '../../shared/limits';
import { call, type DomainCalls, type DomainEvents, event } from './define';
import { noInput } from './shared-inputs';

export interface DesktopPreferences {
  /** Closing the window keeps the app running in the tray (background jobs go on). */
  closeToTray: boolean;
  startAtLogin: boolean;
  /** Start in the tray without showing the window. */
  startMinimized: boolean;
}

/** OS notifications the user can turn off, by kind. */
export interface NotificationPreferences {
  'rotation-new-ip': boolean;
  'rotation-same-ip': boolean;
  'rotation-failed': boolean;
  'relocation-done': boolean;
}

/** The optional global shortcut: rotates the first pinned port. */
export interface ShortcutPreferences {
  enabled: boolean;
  /** An Electron accelerator, e.g. `CommandOrControl+Alt+R`. */
  accelerator: string;
}

export interface SettingsView {
  theme: 'system' | 'light' | 'dark';
  polling: { usageMinutes: number; topUpVerifyingSeconds: number; topUpAwaitingPaymentSeconds: number };
  alerts: { trafficRemainingPercent: number; expiryWarningDays: number };
  desktop: DesktopPreferences;
  notifications: NotificationPreferences;
  shortcut: ShortcutPreferences;
  /** `ipEchoUrl`: asked through a proxy by "Test this proxy" to learn its exit IP (real accounts). */
  proxyTest: { ipEchoUrl: string };
}

const bounded = (limits: { min: number; max: number }, unit: string) =>
  z
    .int()
    .min(limits.min, `At least ${limits.min}${unit}`)
    .max(limits.max, `At most ${limits.max}${unit}`)
    .optional();

export const settingsCalls = {
  'settings:get': call<SettingsView>()(noInput),
  'settings:update': call<SettingsView>()(
    z.strictObject({
      theme: z.enum(['system', 'light', 'dark']).optional(),
      polling: z
        .strictObject({
          usageMinutes: bounded(POLLING_LIMITS.usageMinutes, ' minutes'),
          // The spec asks clients not to poll faster than every 10 s (verifying) and 30 s (awaiting payment).
          topUpVerifyingSeconds: bounded(POLLING_LIMITS.topUpVerifyingSeconds, ' seconds'),
          topUpAwaitingPaymentSeconds: bounded(POLLING_LIMITS.topUpAwaitingPaymentSeconds, ' seconds'),
        })
        .optional(),
      alerts: z
        .strictObject({
          trafficRemainingPercent: bounded(ALERT_LIMITS.trafficRemainingPercent, ''),
          expiryWarningDays: bounded(ALERT_LIMITS.expiryWarningDays, ''),
        })
        .optional(),
      desktop: z
        .strictObject({
          closeToTray: z.boolean().optional(),
          startAtLogin: z.boolean().optional(),
          startMinimized: z.boolean().optional(),
        })
        .optional(),
      notifications: z
        .strictObject({
          'rotation-new-ip': z.boolean().optional(),
          'rotation-same-ip': z.boolean().optional(),
          'rotation-failed': z.boolean().optional(),
          'relocation-done': z.boolean().optional(),
        })
        .optional(),
      shortcut: z
        .strictObject({
          enabled: z.boolean().optional(),
          accelerator: z
            .string()
            .trim()
            .max(ACCELERATOR_MAX)
            .regex(
              ACCELERATOR_PATTERN,
              'A shortcut is one or more modifiers and a key, e.g. CommandOrControl+Alt+R',
            )
            .optional(),
        })
        .optional(),
      proxyTest: z
        .strictObject({
          ipEchoUrl: z
            .url({ protocol: /^https?$/, error: 'An http:// or https:// URL' })
            .max(2048, 'At most 2048 characters')
            .optional(),
        })
        .optional(),
    }),
  ),
} as const satisfies DomainCalls<'settings'>;

export const settingsEvents = {
  /** After every change, whoever made it (another window, the tray, web mode). */
  'settings:changed': event<SettingsView>(),
} as const satisfies DomainEvents<'settings'>;
