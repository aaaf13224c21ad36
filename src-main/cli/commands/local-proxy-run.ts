import { ipcCalls, type LocalProxyUpstream } from '../../../src-shared/contract';
import { AppError } from '../../core/errors';
import { type ProfileSelection, startLocalCore } from '../cli-backend';
import { EXIT, type ExitCode } from '../command-spec';
import type { Output } from '../output';
import type { Selection } from '../program';
import { describeUpstream, passwordFromEnvironment } from './local-proxy-commands';

/**
 * `proxy-manager local-proxy run`: a local proxy listening in this process, in the foreground, for a
 * machine where neither the desktop app nor web mode runs (a server, a container, a script). It runs
 * a saved local proxy by id, or one for an upstream given as flags, with a core of its own (no
 * background jobs), and prints one line on stdout once it accepts connections:
 *
 *   LOCAL_PROXY_READY {"listen":"127.0.0.1:24001","url":"http://127.0.0.1:24001",...}
 *
 * Requests the upstream refused are written to stderr as they happen. Ctrl-C (SIGINT) or SIGTERM
 * closes it.
 */
export interface LocalProxyRunOptions {
  selection: Selection;
  out: Output;
  profile: ProfileSelection;
  dataDir: string;
  /** Ends the run; default: the first SIGINT or SIGTERM. */
  until?: Promise<void>;
}

const TARGETING_FLAGS = ['country', 'state', 'city', 'asn', 'zip', 'session'] as const;

class RunUsage extends Error {}

function text(options: Record<string, unknown>, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

function whole(options: Record<string, unknown>, name: string, flag: string): number | undefined {
  const value = text(options, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new RunUsage(`--${flag}: a whole number`);
  return Number(value);
}

/** The upstream the flags name, or null when they name none. */
function upstreamOf(options: Record<string, unknown>): LocalProxyUpstream | null {
  const portId = text(options, 'portId');
  const subscriptionId = text(options, 'subscriptionId');
  const targeting: Record<string, string | number> = {};
  for (const name of TARGETING_FLAGS) {
    const raw = name === 'asn' ? whole(options, 'asn', 'asn') : text(options, name);
    // `us` is the United States as much as `US` is: the service's codes are upper case.
    const value = name === 'country' && typeof raw === 'string' ? raw.toUpperCase() : raw;
    if (value !== undefined) targeting[name] = value;
  }
  const subUserId = text(options, 'subUser');
  if (portId !== undefined) {
    if (subscriptionId !== undefined || subUserId !== undefined || Object.keys(targeting).length > 0) {
      throw new RunUsage(
        '--port-id takes no --subscription-id, --sub-user or targeting (a port exits where it is)',
      );
    }
    return { kind: 'port', portId };
  }
  if (subscriptionId === undefined) {
    if (subUserId !== undefined || Object.keys(targeting).length > 0) {
      throw new RunUsage('--sub-user and targeting go with --subscription-id');
    }
    return null;
  }
  return {
    kind: 'subscription',
    subscriptionId,
    ...(subUserId !== undefined ? { subUserId } : {}),
    ...(Object.keys(targeting).length > 0 ? { targeting } : {}),
  };
}

/** The first SIGINT or SIGTERM; the handlers are removed once it came. */
export function nextSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.removeListener('SIGINT', done);
      process.removeListener('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

export async function runLocalProxy(run: LocalProxyRunOptions): Promise<ExitCode> {
  const { options, args } = run.selection;
  const { out } = run;
  const id = args[0];
  let spec: {
    upstream: LocalProxyUpstream | null;
    listenPort: number | undefined;
    bindAddress: string | undefined;
    auth: { username: string; password: string } | undefined;
  };
  try {
    const upstream = upstreamOf(options);
    if (id !== undefined && upstream)
      throw new RunUsage('give a saved local proxy’s id or an upstream, not both');
    if (id === undefined && !upstream) {
      throw new RunUsage('name a saved local proxy (its id) or an upstream (--port-id or --subscription-id)');
    }
    const username = text(options, 'username');
    const passwordVariable = text(options, 'passwordEnv');
    if ((username === undefined) !== (passwordVariable === undefined)) {
      throw new RunUsage('--username and --password-env go together');
    }
    spec = {
      upstream,
      listenPort: whole(options, 'listenPort', 'listen-port'),
      bindAddress: text(options, 'bind'),
      auth:
        username !== undefined && passwordVariable !== undefined
          ? { username, password: passwordFromEnvironment(passwordVariable) as string }
          : undefined,
    };
    // The contract's own rules (ports, addresses, targeting, the network rule), as `add` applies them.
    const checked = ipcCalls['localProxies:add'].input.safeParse({
      upstream: upstream ?? { kind: 'port', portId: id },
      ...(spec.listenPort !== undefined ? { listenPort: spec.listenPort } : {}),
      ...(spec.bindAddress !== undefined ? { bindAddress: spec.bindAddress } : {}),
      ...(options.allowNetwork === true ? { allowNetwork: true } : {}),
      ...(spec.auth ? { auth: spec.auth } : {}),
    });
    if (!checked.success && (spec.bindAddress !== undefined || upstream)) {
      throw new RunUsage(
        checked.error.issues
          .map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`)
          .join('; '),
      );
    }
  } catch (error) {
    if (!(error instanceof RunUsage) && !(error instanceof Error && error.name === 'UsageError')) throw error;
    out.error(error.message);
    return EXIT.usage;
  }

  const core = await startLocalCore({
    dataDir: run.dataDir,
    selection: run.profile,
    demoLatency: options.demoLatency === 'fast' ? 'fast' : 'realistic',
    log: options.verbose === true ? (line) => out.note(line) : () => undefined,
  }).catch((error: unknown) => {
    out.error(error instanceof Error ? error.message : String(error));
    return null;
  });
  if (!core) return EXIT.failed;
  try {
    const running = await core.services.localProxies.runDetached({
      id,
      upstream: spec.upstream ?? undefined,
      listenPort: spec.listenPort,
      bindAddress: spec.bindAddress,
      allowNetwork: options.allowNetwork === true ? true : undefined,
      auth: spec.auth,
      onFailure: (failure) =>
        out.note(`${failure.at} ${failure.message}${failure.detail ? ` (${failure.detail})` : ''}`),
    });
    const address = `${running.listen.host.includes(':') ? `[${running.listen.host}]` : running.listen.host}:${running.listen.port}`;
    out.out(
      `LOCAL_PROXY_READY ${JSON.stringify({
        listen: address,
        url: running.url,
        socks5: running.url.replace(/^http:/, 'socks5:'),
        id: running.id,
        label: running.label,
        upstream: running.upstream,
      })}`,
    );
    out.note(
      `${running.label}: ${running.url} (HTTP and SOCKS5) -> ${describeUpstream(running.upstream)}. Ctrl-C stops it.`,
    );
    await (run.until ?? nextSignal());
    const stats = running.stats();
    await running.close();
    out.note(`Stopped after ${stats.requests} requests (${stats.failures} failed).`);
    return EXIT.done;
  } catch (error) {
    const known = error instanceof AppError || (error instanceof Error && 'code' in error);
    out.error(
      error instanceof Error
        ? `${error.message}${known && id !== undefined && (error as AppError).code === 'port_in_use' ? ' If the desktop app or web mode runs, it may be listening there already (local-proxy list).' : ''}`
        : String(error),
    );
    return EXIT.failed;
  } finally {
    await core.dispose();
  }
}
