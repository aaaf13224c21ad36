import { z } from 'zod';
import { PATH_STYLES } from '../../api/base-url';

/** The version written into the file; bump it (and add a migration) when the shape changes. */
export const SETTINGS_VERSION = 1;

// How `{baseUrl}` and the spec's `/v1/...` paths are joined is the API client's notion; settings keep it.
export { PATH_STYLES, type PathStyle } from '../../api/base-url';

export const KEY_STORAGES = ['keychain', 'session'] as const;
export type KeyStorage = (typeof KEY_STORAGES)[number];

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const profileSchema = z.object({
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(60),
  baseUrl: z.url({ protocol: /^https?$/ }).max(2048),
  pathStyle: z.enum(PATH_STYLES).default('literal'),
  /** Where the key was put; session keys are gone after a restart and must be entered again. */
  keyStorage: z.enum(KEY_STORAGES).default('keychain'),
  createdAt: z.iso.datetime(),
});
export type Profile = z.infer<typeof profileSchema>;

// Polling floors are the spec's recommendations (10 s while verifying, 30 s while awaiting
// payment): the app never polls the service faster than it asks.
const pollingSchema = z.object({
  usageMinutes: z.int().min(1).max(1440).default(15),
  topUpVerifyingSeconds: z.int().min(10).max(600).default(10),
  topUpAwaitingPaymentSeconds: z.int().min(30).max(600).default(30),
});

const alertsSchema = z.object({
  /** Warn when a traffic subscription has this share of its traffic left, or less. */
  trafficRemainingPercent: z.number().min(0).max(100).default(10),
  /** Warn this many days before a subscription or port expires. */
  expiryWarningDays: z.int().min(0).max(365).default(3),
});

/**
 * Scheduled rotations belong to a later slice: only the members every schedule has are fixed
 * here, others pass through untouched. Never a rotation link (it carries the key).
 */
export const rotationScheduleSchema = z.looseObject({
  portId: z.string().min(1),
  profileId: z.string().min(1),
});
export type RotationSchedule = z.infer<typeof rotationScheduleSchema>;

const uiSchema = z.object({
  theme: z.enum(THEMES).default('system'),
  /** A screen id; the renderer falls back to its first screen when it does not know it. */
  lastScreen: z.string().min(1).max(64).default('ports'),
});

export const settingsSchema = z
  .object({
    version: z.literal(SETTINGS_VERSION),
    profiles: z.array(profileSchema).default([]),
    activeProfileId: z.string().nullable().default(null),
    polling: pollingSchema.prefault({}),
    alerts: alertsSchema.prefault({}),
    rotationSchedules: z.array(rotationScheduleSchema).default([]),
    /** Top-ups still being watched, by profile id, so that the watcher resumes after a restart. */
    pendingTopUps: z.record(z.string(), z.array(z.string().min(1).max(128))).default({}),
    ui: uiSchema.prefault({}),
  })
  .superRefine((settings, context) => {
    const seen = new Set<string>();
    settings.profiles.forEach((profile, index) => {
      if (seen.has(profile.id)) {
        context.addIssue({
          code: 'custom',
          path: ['profiles', index, 'id'],
          message: `duplicate profile id ${profile.id}`,
        });
      }
      seen.add(profile.id);
    });
  });

export type Settings = z.infer<typeof settingsSchema>;

/** Every member at its default, as a first start (or a recovery) sees them. */
export function defaultSettings(): Settings {
  return settingsSchema.parse({ version: SETTINGS_VERSION });
}

/**
 * Repairs what is consistent to repair rather than reject: an active profile that no longer
 * exists falls back to the first profile (or none).
 */
export function normalizeSettings(settings: Settings): Settings {
  const activeExists = settings.profiles.some((profile) => profile.id === settings.activeProfileId);
  if (settings.activeProfileId === null || activeExists) return settings;
  return { ...settings, activeProfileId: settings.profiles[0]?.id ?? null };
}
