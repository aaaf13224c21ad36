import type { BaseUrlProbeResult, ProxyServiceClient } from '../api';
import type { RaisedAlert } from './alerts/alert-center';
import type { AutomationStores } from './automation/automation-service';
import type { DemoSandbox } from './demo/demo-service';
import type { DesktopNotifications } from './notifications/notifications-wiring';
import type { RelocationNotice } from './ports/relocation-tracker';
import type { VerifyExitIp } from './ports/rotation-service';
import type { ProbeOutcome, ProbeRequest } from './proxy-test/proxy-probe';
import type { JobsOwnership } from './runtime/background-jobs';
import type { Clock } from './runtime/clock';
import type { RotationScheduler, ScheduledRunListener } from './schedules/rotation-scheduler';
import type { KeychainProbeResult } from './secrets/keychain-probe';
import type { SecretStore } from './secrets/secret-store';
import type { ClientConfig } from './session/client-pool';
import type { SettingsStore } from './settings/settings-store';
import type { JobStateStore } from './storage/job-state-store';
import type { TopUpNotice } from './topups/topup-watcher';
import type { TrayStateService } from './tray/tray-state';
import type { UpdatesWiring } from './updates/wire-updates';

/** Everything outside the core's own logic, so that tests can put a sandbox or a memory store in. */
export interface AppCoreDependencies {
  mode: 'desktop' | 'web';
  settings: SettingsStore;
  /** The OS keychain (tests: a memory store). */
  keychain: SecretStore;
  keychainStatus: () => KeychainProbeResult;
  createClient: (config: ClientConfig) => ProxyServiceClient;
  probeBaseUrl: (baseUrl: string) => Promise<BaseUrlProbeResult>;
  startDemoSandbox: () => Promise<DemoSandbox>;
  /** The data folder's automation tokens and audit log; absent: `automation:*` is refused. */
  automation?: AutomationStores;
  /** Whether this process runs the background jobs (the instance lock decides); default: it does. */
  jobsOwnership?: JobsOwnership;
  /** What background work must find again after a crash (`state.json`); default: memory only. */
  jobState?: JobStateStore;
  /** Where the public catalog's countries and cities are kept across restarts; memory only without it. */
  catalogCacheFile?: string;
  /** The health checks' history (SQLite); memory only without it. */
  healthDatabaseFile?: string;
  /** The offline ASN data set's CSV (`@ip-location-db/asn`); without it, ASNs come from the echo only. */
  asnDataFile?: string | null;
  /** Health checks' requests through the ports (tests: a probe with a fake clock's deadline). */
  probe?: (request: ProbeRequest) => Promise<ProbeOutcome>;
  /** Flushes the job state and releases the jobs lock; the last thing `dispose` does. */
  releaseResources?: () => Promise<void>;
  now?: () => Date;
  log?: (line: string) => void;
  /** Background work's clock (tests: a FakeClock). Default: the system clock. */
  clock?: Clock;
  /** 0-1; spreads background checks apart (tests: a constant, so each check comes on its minute). */
  random?: () => number;
  /**
   * Reads a port's exit IP through the port; fills receipts' `verification`. Default: the proxy
   * test's (`ProxyTestService.verifyExitIp`); tests may put another in.
   */
  verifyExitIp?: VerifyExitIp;
  /**
   * Told of every raised alert, besides the in-app list. OS notifications need nothing here: with
   * `notifications` the core routes alerts through its notification controller itself.
   */
  notifyAlert?: (alert: RaisedAlert) => void;
  /** Whether a window shows at start; the shell then tells changes through `core.windowVisibility`. */
  windowVisible?: boolean;
  /** Told when a tracked relocation ends (OS notifications). */
  notifyRelocation?: (notice: RelocationNotice) => void;
  /** Told after every scheduled run. */
  notifyScheduledRun?: ScheduledRunListener;
  /** Desktop only: where OS notifications go and whether a window has focus. */
  notifications?: DesktopNotifications;
  /** Desktop only: the tray's state and the scheduler, for the shell's tray and global shortcut. */
  onDesktopParts?: (parts: { tray: TrayStateService; scheduler: RotationScheduler }) => void;
  /**
   * Desktop: hands a checked link to the OS (Electron's `openExternal`, `shell/open-external.ts`) for `app:openExternal`. Absent
   * (web mode): the call is refused, the browser opens links itself.
   */
  openExternal?: (url: string) => Promise<void>;
  /** Desktop: a save dialog and the file written, for `app:saveFile`; the path, or null when cancelled. */
  saveFile?: (fileName: string, content: string) => Promise<string | null>;
  /**
   * Told when a watched top-up is credited, rejected or expired, or its purchase ends. With
   * `notifications` these also become OS notifications (the core's controller).
   */
  notifyTopUp?: (notice: TopUpNotice) => void;
  /** The installation's version and kind, for `updates:*` (docs/install.md); absent: no daily check. */
  updates?: UpdatesWiring;
  /**
   * Alert delivery's durable queue (`alert-delivery.sqlite` in the data folder); absent: an
   * in-memory one that does not survive the process.
   */
  alertDeliveryDatabase?: string;
  /** Alert delivery's retry jitter (tests pass a fixed one). */
  alertDeliveryRandom?: () => number;
}
