import { z } from 'zod';
import { call, type DomainCalls, type DomainEvents, event } from './define';
import { noInput } from './shared-inputs';

/** How this copy was installed: what an update does (replace the AppImage, or hand over an installer). */
type UpdateInstallKind = 'appimage' | 'deb' | 'rpm' | 'dmg' | 'nsis' | 'unpackaged';

export interface UpdatePreferences {
  /** Check at start and once a day. */
  checkAutomatically: boolean;
  /** Also check while the demo runs (off: the demo never reaches out on its own). */
  checkInDemo: boolean;
  /** `http://host:port` of a proxy for update checks and downloads; null: direct. */
  proxyUrl: string | null;
}

interface AvailableUpdate {
  version: string;
  /** The release notes, as plain text. */
  notes: string;
  releasedAt: string;
  /** The installer's size for this installation, in bytes; null: the feed has no build for it. */
  size: number | null;
}

export interface UpdateStatus {
  currentVersion: string;
  installKind: UpdateInstallKind;
  preferences: UpdatePreferences;
  phase: 'idle' | 'checking' | 'downloading' | 'ready';
  /** ISO 8601 of the last check, whatever its outcome (see `problem`). */
  lastCheckedAt: string | null;
  /** A newer release this installation is offered; null when up to date (or not yet checked). */
  available: AvailableUpdate | null;
  /** A newer release exists but a staged rollout has not reached this installation yet. */
  heldBack: { version: string; rollout: number } | null;
  /** While downloading. */
  progress: { receivedBytes: number; totalBytes: number; percent: number } | null;
  /**
   * Downloaded and verified: `restart` (the AppImage was replaced in place) or `installer` (a file
   * to open, with the command that installs it where there is one: deb and rpm).
   */
  ready:
    | { kind: 'restart'; version: string }
    | { kind: 'installer'; version: string; path: string; command: string | null }
    | null;
  /**
   * Why the last check or download was not believed or failed, in one sentence. `reason` is one of
   * the refusal codes (`bad_signature`, `unknown_key`, `expired`, `rollback`, `hash_mismatch`,
   * `size_mismatch`, `malformed`, `too_large`, `wrong_product`) or `failed` (network, disk).
   */
  problem: { reason: string; message: string } | null;
}

const proxyUrl = z
  .url({ protocol: /^https?$/, error: 'A proxy address such as http://127.0.0.1:3128' })
  .max(2048, 'At most 2048 characters')
  .refine((url) => {
    if (!URL.canParse(url)) return true;
    const parsed = new URL(url);
    return parsed.username === '' && parsed.password === '';
  }, 'No user name or password in the address (it would be stored in settings.json)');

export const updatesCalls = {
  'updates:status': call<UpdateStatus>('read')(noInput),
  /** Asks the feed now (whatever the automatic switch and the demo say). */
  'updates:check': call<UpdateStatus>('read')(noInput),
  /** Downloads and verifies the offered release; an AppImage is replaced in place. */
  'updates:download': call<UpdateStatus>('admin')(noInput),
  /** Checks the downloaded installer again and hands it to the OS. */
  'updates:openInstaller': call<UpdateStatus>('admin')(noInput),
  /** After an AppImage was replaced: start the new one (desktop only). */
  'updates:restart': call<UpdateStatus>('admin')(noInput),
  'updates:setPreferences': call<UpdateStatus>('manage')(
    z.strictObject({
      checkAutomatically: z.boolean().optional(),
      checkInDemo: z.boolean().optional(),
      proxyUrl: proxyUrl.nullable().optional(),
    }),
  ),
} as const satisfies DomainCalls<'updates'>;

export const updatesEvents = {
  'updates:changed': event<UpdateStatus>(),
} as const satisfies DomainEvents<'updates'>;
