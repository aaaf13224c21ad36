import type { BaseUrlProbeResult, ProxyServiceClient } from '../../api';
import type {
  AppState,
  ConnectionTestResult,
  DomainHandlers,
  ParsedCallInput,
} from '../../../src-shared/contract';
import type { DomainService } from '../domain-service';
import type { ClientConfig } from '../session/client-pool';
import { type ConnectionMonitor, describeFailure, probeKey } from '../session/connection-monitor';

export interface ConnectionServiceOptions {
  probeBaseUrl: (baseUrl: string) => Promise<BaseUrlProbeResult>;
  /** For the test of a key the user typed (not a stored one): a client outside the pool. */
  createClient: (config: ClientConfig) => ProxyServiceClient;
  monitor: Pick<ConnectionMonitor, 'check'>;
  state: { getState(): Promise<AppState> };
  /** A saved profile with this base URL and key (compared in main), for the duplicate warning. */
  findDuplicate?: (baseUrl: string, apiKey: string) => Promise<{ profileId: string; name: string } | null>;
}

/** `connection:test` (a base URL and key the user typed, before saving) and `connection:check`. */
export class ConnectionService implements DomainService<'connection'> {
  constructor(private readonly options: ConnectionServiceOptions) {}

  handlers(): DomainHandlers<'connection'> {
    return {
      'connection:test': (input) => this.test(input),
      'connection:check': () => this.check(),
    };
  }

  /** Checks the active profile's connection again; the answer is the new app state. */
  async check(): Promise<AppState> {
    await this.options.monitor.check();
    return this.options.state.getState();
  }

  /**
   * Probes the base URL's readings (the public catalog: no key), then makes one authenticated call
   * with the key typed alongside it, to the address the probe adopted (the one typed, or it with
   * `/api/v1`). Says whether a saved profile already has this address and key. Saves nothing.
   */
  async test(input: ParsedCallInput<'connection:test'>): Promise<ConnectionTestResult> {
    const probe = await this.options.probeBaseUrl(input.baseUrl);
    const probes = probe.readings.map((reading) => ({
      pathStyle: reading.style,
      pathStyles: reading.styles,
      url: reading.url,
      ok: reading.ok,
      detail: reading.summary,
    }));
    const address = { baseUrl: probe.baseUrl, suffixAdded: probe.suffixAdded };
    if (probe.adopted === null) {
      return {
        ok: false,
        pathStyle: null,
        ...address,
        duplicateOf: null,
        message: notAnswered(probe.requestedBaseUrl, probe.readings),
        probes,
        authenticated: { ok: false, message: 'Not tried: the base URL did not answer.' },
      };
    }
    const duplicateOf = this.options.findDuplicate
      ? await this.options.findDuplicate(probe.baseUrl, input.apiKey).catch(() => null)
      : null;
    const client = this.options.createClient({
      baseUrl: probe.baseUrl,
      pathStyle: probe.adopted,
      apiKey: input.apiKey,
    });
    try {
      const answer = await probeKey(client);
      if (answer.ok) {
        return {
          ok: true,
          pathStyle: probe.adopted,
          ...address,
          duplicateOf,
          message: `Connected. ${probe.summary}`,
          probes,
          authenticated: { ok: true, message: answer.message },
        };
      }
      return {
        ok: false,
        pathStyle: probe.adopted,
        ...address,
        duplicateOf,
        message: `The base URL answers, but the key did not work. ${probe.summary}`,
        probes,
        authenticated: { ok: false, message: describeFailure(answer.error) },
      };
    } finally {
      await client.close().catch(() => undefined);
    }
  }
}

/**
 * Why a base URL is not a proxy service, in the user's words: nothing answered (the host, the
 * network), or something answered that is not the service (a website, a wrong path). The details of
 * each address tried are in the report's list below it.
 */
function notAnswered(baseUrl: string, readings: readonly { error: { kind: string } | null }[]): string {
  const unreachable =
    readings.length > 0 && readings.every((r) => r.error?.kind === 'network' || r.error?.kind === 'timeout');
  if (unreachable) {
    return `Could not reach ${baseUrl}: check the address, and that this computer is online and can reach it.`;
  }
  return `${baseUrl} answered, but not as a proxy service. Check the base URL your provider gave you (it usually ends in /api/v1).`;
}
