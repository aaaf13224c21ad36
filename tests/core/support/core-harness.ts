import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeBaseUrl, ProxyServiceClient } from '../../../src-main/api';
import type { AppCore } from '../../../src-main/core/app-core';
import type { AppCoreDependencies } from '../../../src-main/core/app-core-dependencies';
import { buildAppCore, type DemoSandbox } from '../../../src-main/core/create-app-core';
import type { KeychainProbeResult } from '../../../src-main/core/secrets/keychain-probe';
import type { SecretStore } from '../../../src-main/core/secrets/secret-store';
import { SessionSecretStore } from '../../../src-main/core/secrets/session-secret-store';
import { SettingsStore } from '../../../src-main/core/settings/settings-store';
import type {
  AppState,
  CallChannel,
  CallInput,
  CallOutput,
  EventChannel,
  IpcResult,
} from '../../../src-shared/contract';
import { createGuardedDispatcher } from '../../../src-main/dispatch/guarded-dispatcher';
import { createIpcHandlers } from '../../../src-main/dispatch/handler-table';
import { DEMO_KEY, type TestSandbox } from '@proxy-manager/sandbox/testing';

/**
 * The whole core as `createNodeAppCore` builds it, against a test sandbox, with a memory store for
 * the OS keychain (the keychain binding has its own tests) and calls made through the guarded
 * dispatcher, as the renderer makes them.
 */
const noWait = () => Promise.resolve();

export interface Harness {
  core: AppCore;
  dataDir: string;
  events: AppState[];
  allEvents: { channel: EventChannel; payload: unknown }[];
  demoStarts: number;
  keychain: { status: KeychainProbeResult };
  /** A call through the guarded dispatcher, as the renderer makes it; a failure throws its `IpcError`. */
  call: <C extends CallChannel>(
    channel: C,
    ...input: undefined extends CallInput<C> ? [CallInput<C>?] : [CallInput<C>]
  ) => Promise<CallOutput<C>>;
  /** The same, with any input, answering the dispatcher's `{ok, value | error}` as it is. */
  dispatch: (channel: string, input: unknown) => Promise<IpcResult<unknown>>;
}

/** What the shell or a test may hand the core besides the harness's own dependencies. */
export type HarnessOptions = {
  keychainAvailable?: boolean;
  dataDir?: string;
  /** The OS keychain's stand-in; pass one to keep keys across two cores ("a restart"). */
  keychain?: SecretStore;
} & Partial<
  Pick<
    AppCoreDependencies,
    | 'mode'
    | 'clock'
    | 'random'
    | 'probe'
    | 'windowVisible'
    | 'notifications'
    | 'notifyTopUp'
    | 'onDesktopParts'
    | 'jobsOwnership'
    | 'jobState'
    | 'openExternal'
    | 'saveFile'
    | 'alertDeliveryDatabase'
    | 'automation'
  >
>;

/**
 * `sandbox` null: a core that reaches no service (the demo refuses to start). With `jobState`, the
 * store is flushed when the core is disposed, as the app does.
 */
export async function createHarness(
  sandbox: TestSandbox | null,
  options: HarnessOptions = {},
): Promise<Harness> {
  const { keychainAvailable, dataDir: givenDataDir, jobState, keychain: store, ...dependencies } = options;
  const dataDir = givenDataDir ?? mkdtempSync(join(tmpdir(), 'pm-core-'));
  const settings = await SettingsStore.open({ dataDir });
  const status: KeychainProbeResult =
    (keychainAvailable ?? true)
      ? { available: true }
      : { available: false, reason: 'No Secret Service here.', detail: 'test' };
  const keychain = { status };
  const harness = {
    dataDir,
    events: [] as AppState[],
    allEvents: [] as { channel: EventChannel; payload: unknown }[],
    demoStarts: 0,
    keychain,
  } as Harness;
  harness.core = buildAppCore({
    mode: 'web',
    ...dependencies,
    ...(jobState ? { jobState, releaseResources: () => jobState.flush() } : {}),
    settings,
    // The OS keychain is replaced by a memory store: the keychain binding has its own tests.
    keychain: store ?? new SessionSecretStore(),
    keychainStatus: () => keychain.status,
    createClient: (config) => new ProxyServiceClient({ ...config, sleep: noWait, retry: { maxAttempts: 2 } }),
    probeBaseUrl: (baseUrl) => probeBaseUrl(baseUrl),
    startDemoSandbox: (): Promise<DemoSandbox> => {
      if (!sandbox) return Promise.reject(new Error('no demo here'));
      harness.demoStarts += 1;
      return Promise.resolve({ baseUrl: sandbox.baseUrl, apiKey: DEMO_KEY, close: () => Promise.resolve() });
    },
    now: () => new Date('2026-03-10T12:00:00Z'),
  });
  harness.core.subscribe((channel, payload) => {
    harness.allEvents.push({ channel, payload });
    if (channel === 'app:stateChanged') harness.events.push(payload as AppState);
  });
  const dispatch = createGuardedDispatcher({
    handlers: createIpcHandlers(harness.core),
    isTrustedSender: () => true,
    log: () => undefined,
  });
  harness.dispatch = (channel, input) => dispatch('ui', channel, input);
  harness.call = (async (channel: CallChannel, input?: unknown) => {
    const result = await dispatch('ui', channel, input);
    if (!result.ok) throw Object.assign(new Error(result.error.message), result.error);
    return result.value;
  }) as Harness['call'];
  return harness;
}
