import { randomBytes, timingSafeEqual } from 'node:crypto';
import { AUTOMATION_ORIGINS } from '../core/runtime/call-origin';
import { promises as fs } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { createGuardedDispatcher, type GuardedDispatch } from '../dispatch/guarded-dispatcher';
import { writeFileAtomic } from '../lib/atomic-file';
import {
  type AppState,
  type ContractHandlers,
  type IpcError,
  type Scope,
  SCOPES,
} from '../../src-shared/contract';
import {
  CONTROL_LIMITS,
  type ControlLimits,
  type ControlResponse,
  controlEndpoint,
  controlTokenFile,
  type OwnerHello,
} from './control-protocol';

const controlRequestSchema = z.strictObject({
  id: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
  token: z.string().max(200),
  op: z.enum(['call', 'hello']).default('call'),
  scopes: z.array(z.enum(SCOPES)).max(SCOPES.length).default([]),
  channel: z.string().max(100).optional(),
  input: z.unknown().optional(),
  /** The surface the call came from (a receipt records it as its trigger). */
  origin: z.enum(AUTOMATION_ORIGINS).optional(),
});

/** A control client as the guarded dispatcher sees it: the token was right, and the grant it asked for. */
export interface ControlSender {
  kind: 'control';
  tokenValid: boolean;
  grant: ReadonlySet<Scope>;
}

/** The guarded dispatcher for control clients: each call runs with the scopes its client asked for. */
export function createControlDispatcher(
  handlers: ContractHandlers,
  log: (line: string) => void,
): GuardedDispatch<ControlSender> {
  return createGuardedDispatcher<ControlSender>({
    handlers,
    isTrustedSender: (sender) => sender.tokenValid,
    grantOf: (sender) => sender.grant,
    log,
  });
}

export interface ControlServerOptions {
  dataDir: string;
  dispatch: GuardedDispatch<ControlSender>;
  log: (line: string) => void;
  /** Overrides of the limits (tests); see `CONTROL_LIMITS`. */
  limits?: Partial<ControlLimits>;
  /** Injected for tests; default 32 random bytes, hex. */
  token?: string;
  /** The active profile's `keyFingerprint` for the hello (a command with the same key comes here). */
  keyFingerprint?: () => Promise<string | null>;
}

export interface ControlServer {
  /** The socket path or pipe name. */
  endpoint: string;
  tokenFile: string;
  close(): Promise<void>;
}

const HELLO_GRANT: ReadonlySet<Scope> = new Set<Scope>(['read']);

/**
 * Listens on the data folder's control socket for contract calls from the CLI and runs them through
 * `dispatch` with the grant each request asks for. Only the process that owns the background jobs
 * may run it (see `serveControlWhileOwner`): it replaces a socket left by a crashed owner.
 */
export async function startControlServer(options: ControlServerOptions): Promise<ControlServer> {
  const limits: ControlLimits = { ...CONTROL_LIMITS, ...options.limits };
  const { dataDir, dispatch, log } = options;
  const endpoint = controlEndpoint(dataDir);
  const tokenFile = controlTokenFile(dataDir);
  const token = options.token ?? randomBytes(32).toString('hex');
  const tokenBytes = Buffer.from(token);
  const posix = process.platform !== 'win32';

  await privateFolder(dataDir, log);
  if (posix && dirname(endpoint) !== resolve(dataDir)) await privateFolder(dirname(endpoint), log);
  // A new token at each start: a client holding an old one is refused.
  await writeFileAtomic(tokenFile, `${token}\n`, { mode: 0o600 });
  /*
   * Bound under a private temporary name, narrowed to 0600, then renamed over the public one: the
   * socket never shows with looser rights, a client never finds the path missing, and when this
   * server closes, the name Node removes is the temporary one, never a newer owner's socket.
   */
  const bindPath = posix ? join(dirname(endpoint), `.c-${randomBytes(3).toString('hex')}`) : endpoint;

  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    if (sockets.size >= limits.maxConnections) {
      socket.end(line({ id: null, ok: false, error: busy('Too many control connections at once.') }));
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(socket);
  });
  server.maxConnections = limits.maxConnections + 1;

  function serveConnection(socket: Socket): void {
    let buffered: Buffer[] = [];
    let bufferedBytes = 0;
    let inFlight = 0;
    socket.setTimeout(limits.idleMs);
    socket.on('timeout', () => {
      if (inFlight === 0) socket.destroy();
    });
    socket.on('error', () => socket.destroy());
    const send = (response: ControlResponse): void => {
      if (!socket.destroyed && socket.writable) socket.write(line(response));
    };
    const refuse = (response: ControlResponse): void => {
      if (!socket.destroyed) socket.end(line(response));
      socket.destroySoon();
    };
    socket.on('data', (chunk: Buffer) => {
      let start = 0;
      for (let index = chunk.indexOf(10); index >= 0; index = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, index);
        start = index + 1;
        if (bufferedBytes + piece.length > limits.maxLineBytes) {
          refuse({ id: null, ok: false, error: tooLarge(limits) });
          return;
        }
        const text = Buffer.concat([...buffered, piece]).toString('utf8');
        buffered = [];
        bufferedBytes = 0;
        if (text.trim() !== '') handleLine(text);
        if (socket.destroyed) return;
      }
      const rest = chunk.subarray(start);
      bufferedBytes += rest.length;
      if (bufferedBytes > limits.maxLineBytes) {
        refuse({ id: null, ok: false, error: tooLarge(limits) });
        return;
      }
      if (rest.length > 0) buffered.push(rest);
    });

    function handleLine(text: string): void {
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        refuse({
          id: null,
          ok: false,
          error: { code: 'bad_request', message: 'A request is one JSON line.' },
        });
        return;
      }
      const parsed = controlRequestSchema.safeParse(raw);
      if (!parsed.success) {
        const id = typeof (raw as { id?: unknown })?.id === 'number' ? (raw as { id: number }).id : null;
        refuse({ id, ok: false, error: { code: 'bad_request', message: 'Not a control request.' } });
        return;
      }
      const request = parsed.data;
      const given = Buffer.from(request.token);
      if (given.length !== tokenBytes.length || !timingSafeEqual(given, tokenBytes)) {
        log('[control] refused a request with a wrong token');
        refuse({
          id: request.id,
          ok: false,
          error: { code: 'forbidden', message: 'Wrong control token (the app was restarted?).' },
        });
        return;
      }
      if (inFlight >= limits.maxCallsPerConnection) {
        send({ id: request.id, ok: false, error: busy('Too many calls in flight on this connection.') });
        return;
      }
      inFlight += 1;
      void answer(request)
        .then(
          (response) => send(response),
          // `dispatch` never throws; this is for `hello`'s own reading of the state.
          () =>
            send({
              id: request.id,
              ok: false,
              error: { code: 'internal_error', message: 'The app could not answer.' },
            }),
        )
        .finally(() => {
          inFlight -= 1;
        });
    }
  }

  async function answer(request: ReturnType<typeof controlRequestSchema.parse>): Promise<ControlResponse> {
    if (request.op === 'hello') {
      const result = await dispatch(
        { kind: 'control', tokenValid: true, grant: HELLO_GRANT },
        'app:getState',
        undefined,
      );
      if (!result.ok) return { id: request.id, ok: false, error: result.error };
      const state = result.value as AppState;
      const hello: OwnerHello = {
        pid: process.pid,
        mode: state.mode,
        activeProfile: state.activeProfile
          ? { name: state.activeProfile.name, kind: state.activeProfile.kind }
          : null,
        keyFingerprint: (await options.keyFingerprint?.().catch(() => null)) ?? null,
      };
      return { id: request.id, ok: true, value: hello };
    }
    const sender: ControlSender = { kind: 'control', tokenValid: true, grant: new Set(request.scopes) };
    const result = await dispatch(
      sender,
      request.channel ?? '',
      request.input,
      request.origin ? { origin: request.origin } : undefined,
    );
    return { id: request.id, ...result };
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(bindPath, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  if (posix) {
    // The folder is private already; this keeps the socket so if the folder is opened up later.
    await fs.chmod(bindPath, 0o600);
    await fs.rename(bindPath, endpoint);
  }
  server.on('error', (error) => log(`[control] ${error.message}`));
  log(`[control] listening on ${endpoint}`);

  let closed: Promise<void> | null = null;
  return {
    endpoint,
    tokenFile,
    close: () => {
      closed ??= (async () => {
        const stopped = new Promise<void>((resolveClose) => server.close(() => resolveClose()));
        for (const socket of sockets) socket.destroy();
        await stopped;
        // Only while the token is ours: a newer owner (this process lost the jobs lock) has replaced
        // both the token and the socket, and keeps them.
        const current = await fs.readFile(tokenFile, 'utf8').catch(() => null);
        if (current?.trim() === token) {
          if (posix) await fs.rm(endpoint, { force: true });
          await fs.rm(tokenFile, { force: true });
        }
      })();
      return closed;
    },
  };
}

function line(response: ControlResponse): string {
  return `${JSON.stringify(response)}\n`;
}

function busy(message: string): IpcError {
  return { code: 'busy', message };
}

function tooLarge(limits: ControlLimits): IpcError {
  return { code: 'too_large', message: `A request line is at most ${limits.maxLineBytes} bytes.` };
}

/** Creates `folder` (0700) or narrows it to 0700: the socket must not be reachable by other users. */
async function privateFolder(folder: string, log: (line: string) => void): Promise<void> {
  await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const stat = await fs.stat(folder);
  if ((stat.mode & 0o077) === 0) return;
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
    throw new Error(`${folder} belongs to another user; the control socket is not started there.`);
  }
  await fs.chmod(folder, 0o700);
  log(`[control] made ${folder} private to this user (0700) for the control socket`);
}
