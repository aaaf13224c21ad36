import type { Clock } from '../core/runtime/clock';
import { keyFingerprint } from '../core/profiles/key-fingerprint';
import type { AutomationOrigin } from '../core/runtime/call-origin';
import { ControlConnection, OwnerNotAnswering } from '../control/control-client';
import type { OwnerHello } from '../control/control-protocol';
import type { AppCore } from '../core/app-core';
import type { JobsOwner } from '../core/storage/instance-lock';
import type { CallChannel, IpcError, IpcResult, Scope } from '../../src-shared/contract';

/** Which profile the command asks for, as everywhere else in the app. */
export type ProfileSelection =
  | { kind: 'active' }
  | { kind: 'named'; name: string }
  | { kind: 'demo' }
  /** `PROXY_MANAGER_API_KEY` with `PROXY_MANAGER_BASE_URL`: this run only, nothing saved. */
  | { kind: 'environment'; apiKey: string; baseUrl: string };

/** Where the command's calls go: the owner of the background jobs, or a core in this process. */
export interface CliBackend {
  readonly via: 'owner' | 'local';
  call(channel: CallChannel, input: unknown): Promise<IpcResult<unknown>>;
  close(): Promise<void>;
}

export interface BackendOptions {
  dataDir: string;
  selection: ProfileSelection;
  grant: ReadonlySet<Scope>;
  /** The scopes of every channel the command may call: all `read` means it cannot disturb jobs. */
  scopes: ReadonlySet<Scope>;
  demoLatency: 'fast' | 'realistic';
  /** The one-shot core's clock (what "expires in 2 days" is judged against). Default: the system clock. */
  clock?: Clock;
  log: (line: string) => void;
  /** The surface the calls come from: rotation receipts record it as their trigger. */
  origin: AutomationOrigin;
  /** A long-running session's core, started once and kept (see `sessionBackend`); default: one per command. */
  sharedCore?: () => Promise<AppCore>;
}

/** The command cannot run where it would break what the running app promises (exit code 1). */
class BackendRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackendRefused';
  }
}

function describeOwner(mode: string, pid: number, hostname?: string): string {
  const what = mode === 'web' ? 'web mode server' : 'desktop app';
  return `the ${what} (pid ${pid}${hostname ? ` on ${hostname}` : ''})`;
}

function matches(selection: ProfileSelection, hello: OwnerHello): boolean {
  const active = hello.activeProfile;
  switch (selection.kind) {
    case 'active':
      return true;
    case 'named':
      return active?.kind === 'account' && active.name === selection.name;
    case 'demo':
      return active?.kind === 'demo';
    case 'environment':
      // The owner's account when it holds the same key for the same service: compared by
      // fingerprint, so that the key is never shown to it (nor its key to this process).
      return hello.keyFingerprint !== null && hello.keyFingerprint === environmentFingerprint(selection);
  }
}

function environmentFingerprint(selection: { apiKey: string; baseUrl: string }): string | null {
  let origin: string;
  try {
    origin = new URL(selection.baseUrl).origin;
  } catch {
    return null;
  }
  return keyFingerprint(selection.apiKey, origin);
}

function selectionText(selection: ProfileSelection): string {
  switch (selection.kind) {
    case 'active':
      return 'the active profile';
    case 'named':
      return `profile "${selection.name}"`;
    case 'demo':
      return 'demo mode';
    case 'environment':
      return 'the key from PROXY_MANAGER_API_KEY';
  }
}

/**
 * Picks where the command runs. The process that owns the data folder's background jobs (its
 * instance lock) answers on the control socket: calls go there, so single-flight, cooldowns,
 * receipts and the tray hold whoever asks. When nobody owns the jobs, a core runs in this process
 * for the one command, without background jobs, and is disposed at the end.
 *
 * A command for another profile than the owner's active one, or one the owner cannot be asked
 * (an owner that does not answer), runs here only when it is read-only; otherwise it is refused
 * with a sentence naming the owner.
 */
export async function openBackend(options: BackendOptions): Promise<CliBackend> {
  const readOnly = [...options.scopes].every((scope) => scope === 'read');
  const connection = await ControlConnection.open(options.dataDir);
  if (connection) {
    let hello: OwnerHello | null = null;
    try {
      hello = await connection.hello();
    } catch (error) {
      if (!(error instanceof OwnerNotAnswering)) throw error;
      connection.close();
    }
    if (hello) {
      if (matches(options.selection, hello)) return ownerBackend(connection, options.grant, options.origin);
      connection.close();
      if (!readOnly && options.selection.kind !== 'demo') {
        const active = hello.activeProfile
          ? `${hello.activeProfile.kind === 'demo' ? 'demo mode' : `profile "${hello.activeProfile.name}"`}`
          : 'no profile';
        throw new BackendRefused(
          `${capitalize(describeOwner(hello.mode, hello.pid))} runs the background jobs with ${active} active; ` +
            `a change made with ${selectionText(options.selection)} from here would bypass its single-flight and cooldowns. ` +
            (options.selection.kind === 'named'
              ? `Switch it first (proxy-manager profiles use "${options.selection.name}") or drop --profile.`
              : 'Run it without a key in the environment, or stop that process first.'),
        );
      }
      // Read-only, or the demo's own sandbox (no account of the owner's is touched).
      return localBackend(options);
    }
  }
  const holder = await readJobsOwnerOf(options.dataDir);
  if (holder && !readOnly) {
    throw new BackendRefused(
      `${capitalize(describeOwner(holder.mode, holder.pid, holder.hostname))} runs the background jobs of ` +
        `${options.dataDir} but does not answer on its control socket; this command changes something only ` +
        'that process may do. Try again once it has started, or quit it.',
    );
  }
  return localBackend(options);
}

async function readJobsOwnerOf(dataDir: string): Promise<JobsOwner | null> {
  const { readJobsOwner } = await import('../core/storage/instance-lock');
  return readJobsOwner(dataDir);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function ownerBackend(
  connection: ControlConnection,
  grant: ReadonlySet<Scope>,
  origin: AutomationOrigin,
): CliBackend {
  const scopes = [...grant];
  return {
    via: 'owner',
    call: (channel, input) => connection.call(channel, input, scopes, origin),
    close: () => {
      connection.close();
      return Promise.resolve();
    },
  };
}

/**
 * A core in this process: no jobs lock, no background jobs, no connection check; started for the
 * selected profile. `local-proxy run` keeps one for as long as it listens.
 */
export async function startLocalCore(
  options: Pick<BackendOptions, 'dataDir' | 'selection' | 'demoLatency' | 'log' | 'clock'>,
): Promise<AppCore> {
  // Loaded only here: `--help`, completion and calls through the owner never pay for the core.
  const [{ createNodeAppCore }, { probeBaseUrl }, { rememberedProbe }] = await Promise.all([
    import('../core/node-app-core'),
    import('../api/base-url-probe'),
    import('./remembered-probe'),
  ]);
  const core = await createNodeAppCore({
    probeBaseUrl: rememberedProbe(options.dataDir, (baseUrl) => probeBaseUrl(baseUrl)),
    skipKeychainProbe: options.selection.kind === 'demo' || options.selection.kind === 'environment',
    mode: 'web',
    dataDir: options.dataDir,
    demoLatency: options.demoLatency,
    backgroundJobs: false,
    windowVisible: false,
    ...(options.clock ? { clock: options.clock } : {}),
    log: options.log,
  });
  try {
    const { selection } = options;
    await core.start({
      ...(selection.kind === 'environment'
        ? { environment: { apiKey: selection.apiKey, baseUrl: selection.baseUrl } }
        : {}),
      ...(selection.kind === 'named' ? { profileName: selection.name } : {}),
      demo: selection.kind === 'demo',
      checkConnection: false,
    });
  } catch (error) {
    await core.dispose();
    throw error;
  }
  return core;
}

/** A core in this process for one command. */
async function localBackend(options: BackendOptions): Promise<CliBackend> {
  const [core, { createGuardedDispatcher }, { createIpcHandlers }] = await Promise.all([
    options.sharedCore ? options.sharedCore() : startLocalCore(options),
    import('../dispatch/guarded-dispatcher'),
    import('../dispatch/handler-table'),
  ]);
  const dispatch = createGuardedDispatcher<'cli'>({
    handlers: createIpcHandlers(core),
    isTrustedSender: () => true,
    grantOf: () => options.grant,
    log: options.log,
  });
  return {
    via: 'local',
    call: (channel, input) => dispatch('cli', channel, input, { origin: options.origin }),
    close: () => (options.sharedCore ? Promise.resolve() : core.dispose()),
  };
}

/** Where a long-running session's calls go: the same choice as a command's, made again for each call. */
export interface SessionBackend {
  /** One call with `grant` (the MCP session's scopes, a REST token's). */
  call(channel: CallChannel, input: unknown, grant: ReadonlySet<Scope>): Promise<IpcResult<unknown>>;
  close(): Promise<void>;
}

/**
 * For the MCP server and `serve`, which run for long: each call goes to the owner of the background
 * jobs when one answers then (an app started later is used from then on), else to a core in this
 * process, started at the first such call and kept until `close`. The rules of `openBackend` hold
 * per call (a change for another profile than the owner's is refused).
 */
export function sessionBackend(
  options: Omit<BackendOptions, 'scopes' | 'sharedCore' | 'grant'>,
): SessionBackend {
  let core: Promise<AppCore> | null = null;
  const sharedCore = (): Promise<AppCore> => {
    core ??= startLocalCore(options).catch((error: unknown) => {
      core = null;
      throw error;
    });
    return core;
  };
  return {
    call: async (channel, input, grant) => {
      const { ipcCalls } = await import('../../src-shared/contract');
      let backend: CliBackend;
      try {
        backend = await openBackend({
          ...options,
          grant,
          scopes: new Set([ipcCalls[channel].scope]),
          sharedCore,
        });
      } catch (error) {
        const known = startError(error);
        return {
          ok: false,
          error: known ?? {
            code: 'internal_error',
            message: error instanceof Error ? error.message : String(error),
          },
        };
      }
      try {
        return await backend.call(channel, input);
      } finally {
        await backend.close().catch(() => undefined);
      }
    },
    close: async () => {
      const running = core;
      core = null;
      if (running) await (await running.catch(() => null))?.dispose();
    },
  };
}

/** An error of the app (an `AppError` thrown while starting the core) as the contract's error. */
export function startError(error: unknown): IpcError | null {
  if (error instanceof BackendRefused) return { code: 'owner_refused', message: error.message };
  if (error instanceof Error && typeof (error as { code?: unknown }).code === 'string') {
    const code = (error as unknown as { code: string }).code;
    if (/^[a-z_]+$/.test(code)) return { code, message: error.message };
  }
  return null;
}
