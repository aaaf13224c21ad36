import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventSink } from '../events';
import type { Clock } from '../runtime/clock';
import type { SettingsStore } from '../settings/settings-store';
import type { JobSection } from '../storage/job-section';
import type { Installation } from './install-kind';
import { DEFAULT_UPDATE_FEED_URL, TRUSTED_UPDATE_KEYS } from './update-config';
import { UpdateHttp } from './update-http';
import { type UpdateMemory, UpdatesService } from './updates-service';

/** What the process running the core knows of its own installation (`AppCoreDependencies.updates`). */
export interface UpdatesWiring {
  currentVersion: string;
  installation: Installation;
  /** Where installers are kept; the shell and web mode pass `<data folder>/updates`. */
  downloadsDir: string;
  /** Default `DEFAULT_UPDATE_FEED_URL` (or `PROXY_MANAGER_UPDATE_FEED_URL`). */
  feedUrl?: string;
  /** Tests put their own keys in; the app trusts `TRUSTED_UPDATE_KEYS`. */
  trustedKeys?: readonly string[];
  /** Tests inject a client that waits for nothing; default one per proxy setting. */
  createHttp?: (proxyUrl: string | null) => UpdateHttp;
  openPath?: (path: string) => Promise<void>;
  relaunch?: () => void;
  /** Whether the daily check runs (as a background job); default true. */
  dailyChecks?: boolean;
}

interface UpdatesParts {
  wiring: UpdatesWiring | undefined;
  settings: SettingsStore;
  memory: JobSection<UpdateMemory>;
  clock: Clock;
  events: EventSink;
  demoRunning: () => boolean;
  log: (line: string) => void;
}

/**
 * Builds `updates:*`. Without wiring (the core's tests, benchmarks) the service answers its calls
 * but has no daily check, knows no installer and reports version 0.0.0.
 */
export function wireUpdates(parts: UpdatesParts): UpdatesService {
  const wiring = parts.wiring;
  return new UpdatesService({
    currentVersion: wiring?.currentVersion ?? '0.0.0',
    installation: wiring?.installation ?? { kind: 'unpackaged', platform: null, appImagePath: null },
    feedUrl: wiring?.feedUrl ?? process.env.PROXY_MANAGER_UPDATE_FEED_URL ?? DEFAULT_UPDATE_FEED_URL,
    trustedKeys: wiring?.trustedKeys ?? TRUSTED_UPDATE_KEYS,
    clock: parts.clock,
    memory: parts.memory,
    preferences: {
      get: () => parts.settings.get().updates,
      set: async (patch) =>
        (await parts.settings.update((draft) => void Object.assign(draft.updates, patch))).updates,
    },
    demoRunning: parts.demoRunning,
    events: parts.events,
    downloadsDir: wiring?.downloadsDir ?? join(tmpdir(), 'proxy-manager-updates'),
    createHttp:
      wiring?.createHttp ??
      ((proxyUrl) => new UpdateHttp({ proxyUrl, sleep: (ms, signal) => parts.clock.sleep(ms, signal) })),
    ...(wiring?.openPath ? { openPath: wiring.openPath } : {}),
    ...(wiring?.relaunch ? { relaunch: wiring.relaunch } : {}),
    log: parts.log,
  });
}
