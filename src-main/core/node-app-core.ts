import { join } from 'node:path';
import { probeBaseUrl, ProxyServiceClient } from '../api';
import { DEFAULT_API_KEYS, startSandbox } from '@proxy-manager/sandbox';
import type { AppCore } from './app-core';
import { AsnLookup } from './health/asn-lookup';
import type { AppCoreDependencies } from './app-core-dependencies';
import { AuditLog } from './automation/audit-log';
import { TokenStore } from './automation/token-store';
import { buildAppCore, type DemoSandbox } from './create-app-core';
import type { DesktopNotifications } from './notifications/notifications-wiring';
import { probeKeychain, type KeychainProbeResult } from './secrets/keychain-probe';
import { KeychainSecretStore } from './secrets/keychain-secret-store';
import { SettingsStore } from './settings/settings-store';
import type { JobsOwnership } from './runtime/background-jobs';
import { InstanceLock, lockOwnership } from './storage/instance-lock';
import { JobStateStore } from './storage/job-state-store';
import { processUpdatesWiring } from './updates/process-installation';
import type { UpdatesWiring } from './updates/wire-updates';

export interface NodeAppCoreOptions {
  mode: 'desktop' | 'web';
  dataDir: string;
  /** Demo sandbox latency; `realistic` (rotation takes 5-15 s) unless tests ask for `fast`. */
  demoLatency?: 'fast' | 'realistic';
  /** How long to wait for the OS keychain at start (a locked keyring may be asking for a password). */
  keychainProbeTimeoutMs?: number;
  /** Desktop: OS notifications (see `AppCoreDependencies`). */
  notifications?: DesktopNotifications;
  onDesktopParts?: AppCoreDependencies['onDesktopParts'];
  /** Whether the user sees the app at start (default true); later changes: `core.windowVisibility`. */
  windowVisible?: boolean;
  /** Desktop: the shell's link opener (see `AppCoreDependencies.openExternal`). */
  openExternal?: (url: string) => Promise<void>;
  /**
   * False for a one-shot process (a CLI command): it takes no jobs lock and never runs background
   * jobs, like a process that does not own them. Default true.
   */
  backgroundJobs?: boolean;
  /** Desktop: see `AppCoreDependencies.saveFile`. */
  saveFile?: (fileName: string, content: string) => Promise<string | null>;
  /** The core's clock (a command's tests pass a fake one on the sandbox's time). Default: the system clock. */
  clock?: AppCoreDependencies['clock'];
  log?: (line: string) => void;
  /** Desktop: what only the shell can do for an update (open an installer, restart). */
  updates?: Pick<UpdatesWiring, 'openPath' | 'relaunch' | 'currentVersion'>;
  /**
   * A one-shot command for the demo or a key from the environment needs no keychain: the probe (a
   * write, a read and a delete over D-Bus, and the noise a missing session bus prints) is skipped.
   */
  skipKeychainProbe?: boolean;
  /** How a base URL from the environment is probed (the CLI remembers its probes). Default: each time. */
  probeBaseUrl?: AppCoreDependencies['probeBaseUrl'];
}

const ONE_SHOT_OWNERSHIP: JobsOwnership = {
  status: () => ({
    owner: false,
    message:
      'Background jobs (schedules, usage alerts, payment watching) run in the desktop app or web mode, not in a one-shot command: start one of them and try again.',
  }),
  onChange: () => () => undefined,
  oneShot: true,
};

/**
 * Wires the real dependencies (settings file, OS keychain, undici client, in-process sandbox) into
 * the core. The one entry point for both the Electron shell and web mode.
 */
export async function createNodeAppCore(options: NodeAppCoreOptions): Promise<AppCore> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const settings = await SettingsStore.open({ dataDir: options.dataDir });
  const keychain: KeychainProbeResult = options.skipKeychainProbe
    ? {
        available: false,
        reason: 'Not used by this process.',
        detail: 'not probed (demo or a key from the environment)',
      }
    : await probeKeychain({ timeoutMs: options.keychainProbeTimeoutMs ?? 10_000 });
  const jobState = await JobStateStore.open({ dataDir: options.dataDir });
  // One process per data folder runs schedules, pollers and watchers; the others serve reads.
  const lock =
    options.backgroundJobs === false
      ? null
      : new InstanceLock({ dataDir: options.dataDir, mode: options.mode, log });
  await lock?.acquire();
  const startDemoSandbox = async (): Promise<DemoSandbox> => {
    // The demo keeps its state in the data folder, so what the user did in the demo is there next time.
    const sandbox = await startSandbox({
      port: 0,
      latency: options.demoLatency ?? 'realistic',
      seed: 1,
      dataFile: join(options.dataDir, 'demo-sandbox.json'),
      logError: log,
    });
    return {
      baseUrl: sandbox.baseUrl,
      apiKey: DEFAULT_API_KEYS[0]?.key ?? '',
      controlUrl: sandbox.controlUrl,
      close: () => sandbox.close(),
    };
  };
  return buildAppCore({
    mode: options.mode,
    settings,
    keychain: new KeychainSecretStore(),
    keychainStatus: () => keychain,
    createClient: (config) => new ProxyServiceClient(config),
    probeBaseUrl: options.probeBaseUrl ?? ((baseUrl) => probeBaseUrl(baseUrl)),
    startDemoSandbox,
    jobsOwnership: lock ? lockOwnership(lock) : ONE_SHOT_OWNERSHIP,
    jobState,
    catalogCacheFile: join(options.dataDir, 'catalog-cache.json'),
    alertDeliveryDatabase: join(options.dataDir, 'alert-delivery.sqlite'),
    healthDatabaseFile: join(options.dataDir, 'health.sqlite'),
    asnDataFile: AsnLookup.defaultFile(),
    automation: {
      tokens: new TokenStore({ dataDir: options.dataDir, now: () => Date.now(), log }),
      audit: new AuditLog({ dataDir: options.dataDir, log }),
    },
    releaseResources: async () => {
      await jobState.flush();
      await lock?.release();
    },
    ...(options.notifications ? { notifications: options.notifications } : {}),
    ...(options.onDesktopParts ? { onDesktopParts: options.onDesktopParts } : {}),
    ...(options.windowVisible !== undefined ? { windowVisible: options.windowVisible } : {}),
    ...(options.openExternal ? { openExternal: options.openExternal } : {}),
    ...(options.saveFile ? { saveFile: options.saveFile } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    updates: processUpdatesWiring(options.dataDir, options.updates),
    log,
  });
}
