import type { MobilePort, ProxyServiceClient, SubUser } from '../../api';
import type {
  DomainHandlers,
  IpcFieldError,
  ProxyExit,
  ProxyTestResult,
  ProxyTestTarget,
} from '../../../src-shared/contract';
import { mapBounded } from '../../lib/map-bounded';
import { toIpcError } from '../wire-error';
import type { DomainService } from '../domain-service';
import { AppError } from '../errors';
import type { Clock } from '../runtime/clock';
import type { ApiCaller } from '../session/api-caller';
import { targetedUsername, validateTargeting } from '../subscriptions/proxy-string';
import { type ProbeOutcome, type ProbeRequest, probeProxy } from './proxy-probe';

/** Tests of one "Test all" that run at once: enough to be quick, few enough not to look like abuse. */
const DEFAULT_TEST_CONCURRENCY = 4;
/** A test that has not finished by then is stopped and reported as a timeout. */
const DEFAULT_TEST_DEADLINE_MS = 15_000;
/** The rotation receipt waits for its check: shorter, as the user waits for the receipt. */
const DEFAULT_VERIFY_DEADLINE_MS = 10_000;
/**
 * The demo's echo: the sandbox gateway answers every request itself, whatever the host, and never
 * connects anywhere (`.invalid` can never resolve, so nothing would leave the machine anyway).
 */
export const SANDBOX_ECHO_URL = 'http://ip-echo.sandbox.invalid/';

export interface ProxyTestServiceOptions {
  api: Pick<ApiCaller, 'active' | 'forProfile'>;
  clock: Clock;
  /** The echo URL for a profile: the sandbox's for the demo, the `proxyTest.ipEchoUrl` setting otherwise. */
  echoUrlFor: (profileId: string) => string;
  deadlineMs?: number;
  verifyDeadlineMs?: number;
  concurrency?: number;
  monotonic?: () => number;
  /** Told of every test's result (the overview keeps each port's last one). */
  onResult?: (profileId: string, result: ProxyTestResult) => void;
}

/** Credentials as found for a target: they stay in main and go only to the proxy. */
interface ResolvedProxy {
  request: Omit<ProbeRequest, 'echoUrl' | 'deadlineMs'>;
}

/** Reads the credentials of targets through one client, asking for each port or sub-user list once. */
class CredentialLookup {
  private readonly ports = new Map<string, Promise<MobilePort>>();
  private readonly subUsers = new Map<string, Promise<SubUser[]>>();
  private readonly subscriptions = new Map<
    string,
    Promise<{ endpoint: MobilePort['endpoint']; username: string; password: string }>
  >();

  constructor(private readonly client: ProxyServiceClient) {}

  async resolve(target: ProxyTestTarget): Promise<ResolvedProxy> {
    if (target.kind === 'port') {
      const port = await this.port(target.portId);
      return { request: this.toRequest(target.protocol, port.endpoint, port.username, port.password) };
    }
    const fields = validateTargeting(target.targeting ?? {}).map((error): IpcFieldError => ({
      field: `target.targeting.${error.field}`,
      message: error.message,
    }));
    if (fields.length > 0) {
      throw new AppError('invalid_input', fields.map((field) => field.message).join(' '), fields);
    }
    const subscription = await this.subscription(target.subscriptionId);
    let user = { username: subscription.username, password: subscription.password };
    if (target.subUserId !== undefined) {
      const found = (await this.subUsersOf(target.subscriptionId)).find((sub) => sub.id === target.subUserId);
      if (!found) {
        throw new AppError('invalid_input', 'This sub-user no longer exists in the subscription.', [
          { field: 'target.subUserId', message: 'Unknown sub-user.' },
        ]);
      }
      user = { username: found.username, password: found.password };
    }
    return {
      request: this.toRequest(
        target.protocol,
        subscription.endpoint,
        targetedUsername(user.username, target.targeting ?? {}),
        user.password,
      ),
    };
  }

  private toRequest(
    protocol: ProbeRequest['protocol'],
    endpoint: MobilePort['endpoint'],
    username: string,
    password: string,
  ): ResolvedProxy['request'] {
    return {
      protocol,
      host: endpoint.host,
      port: protocol === 'http' ? endpoint.httpPort : endpoint.socksPort,
      username,
      password,
    };
  }

  private port(portId: string): Promise<MobilePort> {
    let found = this.ports.get(portId);
    if (!found) {
      found = this.client.getMobilePort(portId);
      this.ports.set(portId, found);
    }
    return found;
  }

  private subscription(subscriptionId: string) {
    let found = this.subscriptions.get(subscriptionId);
    if (!found) {
      found = this.client.getSubscription(subscriptionId);
      this.subscriptions.set(subscriptionId, found);
    }
    return found;
  }

  private subUsersOf(subscriptionId: string): Promise<SubUser[]> {
    let found = this.subUsers.get(subscriptionId);
    if (!found) {
      found = this.client.listSubUsers(subscriptionId).then((list) => list.data);
      this.subUsers.set(subscriptionId, found);
    }
    return found;
  }
}

/**
 * "Test this proxy": one request through a port or a subscription's proxy (HTTP or SOCKS5) to an IP
 * echo, read in main with credentials looked up in main; the renderer sends ids and gets exit IPs,
 * timings and explained refusals back, never a password.
 */
export class ProxyTestService implements DomainService<'proxy'> {
  private readonly deadlineMs: number;
  private readonly concurrency: number;

  constructor(private readonly options: ProxyTestServiceOptions) {
    this.deadlineMs = options.deadlineMs ?? DEFAULT_TEST_DEADLINE_MS;
    this.concurrency = options.concurrency ?? DEFAULT_TEST_CONCURRENCY;
  }

  handlers(): DomainHandlers<'proxy'> {
    return {
      'proxy:test': ({ target }) => this.test(target),
      'proxy:testMany': ({ targets }) => this.testMany(targets),
    };
  }

  /** One target of the active profile: its credentials looked up in main, then the request sent through it. */
  async test(target: ProxyTestTarget): Promise<ProxyTestResult> {
    const { profileId, value } = await this.options.api.active('authenticated', (client) =>
      new CredentialLookup(client).resolve(target),
    );
    return this.run(profileId, target, value);
  }

  /** Each target's lookup and test; one target's failure never stops the others. */
  async testMany(targets: readonly ProxyTestTarget[]): Promise<ProxyTestResult[]> {
    const { profileId, value: resolved } = await this.options.api.active('authenticated', (client) => {
      const lookup = new CredentialLookup(client);
      return mapBounded(targets, this.concurrency, (target) =>
        lookup.resolve(target).then(
          (found) => ({ ok: true as const, found }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
      );
    });
    return mapBounded(targets, this.concurrency, (target, index) => {
      const entry = resolved[index];
      if (entry?.ok) return this.run(profileId, target, entry.found);
      return Promise.resolve(this.lookupFailure(profileId, target, entry?.error));
    });
  }

  /**
   * The exit of a port (IP, and ASN and country when the echo says them), read through the port
   * itself (HTTP): the rotation receipt's check that a rotation really changed the IP. Null when the
   * test failed (the receipt then says nothing).
   */
  readonly verifyExitIp = async (profileId: string, port: MobilePort): Promise<ProxyExit | null> => {
    const outcome = await this.probe(
      profileId,
      {
        protocol: 'http',
        host: port.endpoint.host,
        port: port.endpoint.httpPort,
        username: port.username,
        password: port.password,
      },
      this.options.verifyDeadlineMs ?? DEFAULT_VERIFY_DEADLINE_MS,
    );
    return outcome.exit ?? null;
  };

  private probe(
    profileId: string,
    request: ResolvedProxy['request'],
    deadlineMs = this.deadlineMs,
  ): Promise<ProbeOutcome> {
    return probeProxy(
      { ...request, echoUrl: this.options.echoUrlFor(profileId), deadlineMs },
      { clock: this.options.clock, ...(this.options.monotonic ? { monotonic: this.options.monotonic } : {}) },
    );
  }

  private async run(
    profileId: string,
    target: ProxyTestTarget,
    resolved: ResolvedProxy,
  ): Promise<ProxyTestResult> {
    const outcome = await this.probe(profileId, resolved.request);
    return this.reported(profileId, {
      target,
      proxy: {
        protocol: resolved.request.protocol,
        host: resolved.request.host,
        port: resolved.request.port,
      },
      echoUrl: this.options.echoUrlFor(profileId),
      checkedAt: new Date(this.options.clock.now()).toISOString(),
      ...outcome,
    });
  }

  private reported(profileId: string, result: ProxyTestResult): ProxyTestResult {
    this.options.onResult?.(profileId, result);
    return result;
  }

  private lookupFailure(profileId: string, target: ProxyTestTarget, error: unknown): ProxyTestResult {
    const ipc = toIpcError(error, () => undefined);
    const targeting = error instanceof AppError && error.code === 'invalid_input';
    return this.reported(profileId, {
      target,
      proxy: { protocol: target.protocol, host: '', port: 0 },
      echoUrl: this.options.echoUrlFor(profileId),
      checkedAt: new Date(this.options.clock.now()).toISOString(),
      ok: false,
      exit: null,
      timings: { connectMs: null, firstByteMs: null, totalMs: 0 },
      failure: {
        kind: targeting ? 'targeting' : 'lookup',
        status: null,
        message: targeting ? ipc.message : 'The proxy credentials could not be read from the service.',
        detail: ipc.message,
      },
    });
  }
}
