import { join } from 'node:path';
import { probeBaseUrl, ProxyServiceClient } from '../api';
import { DEFAULT_API_KEYS, startSandbox } from '../sandbox';
import { AppCore, type DemoSandbox } from './app-core';
import { ProfilesService } from './profiles/profiles-service';
import { probeKeychain, type KeychainProbeResult } from './secrets/keychain-probe';
import { KeychainSecretStore } from './secrets/keychain-secret-store';
import { SessionSecretStore } from './secrets/session-secret-store';
import { SettingsStore } from './settings/settings-store';

export interface NodeAppCoreOptions {
  mode: 'desktop' | 'web';
  dataDir: string;
  /** Demo sandbox latency; `realistic` (rotation takes 5-15 s) unless tests ask for `fast`. */
  demoLatency?: 'fast' | 'realistic';
  /** How long to wait for the OS keychain at start (a locked keyring may be asking for a password). */
  keychainProbeTimeoutMs?: number;
  log?: (line: string) => void;
}

/**
 * Wires the real services (settings file, OS keychain, undici client, in-process sandbox) into an
 * `AppCore`. The one composition root for both the Electron shell and web mode.
 */
export async function createNodeAppCore(options: NodeAppCoreOptions): Promise<AppCore> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const settings = await SettingsStore.open({ dataDir: options.dataDir });
  const keychain: KeychainProbeResult = await probeKeychain({
    timeoutMs: options.keychainProbeTimeoutMs ?? 10_000,
  });
  const profiles = new ProfilesService({
    settings,
    keychain: new KeychainSecretStore(),
    session: new SessionSecretStore(),
    keychainStatus: () => keychain,
  });
  const startDemoSandbox = async (): Promise<DemoSandbox> => {
    // The demo keeps its state in the data folder, so what the user did in the demo is there next time.
    const sandbox = await startSandbox({
      port: 0,
      latency: options.demoLatency ?? 'realistic',
      seed: 1,
      dataFile: join(options.dataDir, 'demo-sandbox.json'),
      logError: log,
    });
    return { baseUrl: sandbox.baseUrl, apiKey: DEFAULT_API_KEYS[0]?.key ?? '', close: () => sandbox.close() };
  };
  const core = new AppCore({
    mode: options.mode,
    settings,
    profiles,
    keychainStatus: () => keychain,
    createClient: (config) => new ProxyServiceClient(config),
    probeBaseUrl: (baseUrl) => probeBaseUrl(baseUrl),
    startDemoSandbox,
    log,
  });
  return core;
}
