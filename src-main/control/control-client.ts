import { promises as fs } from 'node:fs';
import type { AutomationOrigin } from '../core/runtime/call-origin';
import { connect, type Socket } from 'node:net';
import type { IpcError, IpcResult, Scope } from '../../src-shared/contract';
import { controlEndpoint, type ControlResponse, controlTokenFile, type OwnerHello } from './control-protocol';

export interface ControlClientOptions {
  /** Give up connecting after this long (a socket nobody accepts on). Default 2 s. */
  connectTimeoutMs?: number;
}

/** The owner closed the connection, or never answered `hello`. */
export class OwnerNotAnswering extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OwnerNotAnswering';
  }
}

/**
 * One connection to the owner of a data folder's background jobs (see `control-protocol.ts`).
 * `open` answers null when nobody listens there (no token file, no socket, connection refused).
 */
export class ControlConnection {
  private nextId = 1;
  private buffer = '';
  private readonly pending = new Map<number, (response: ControlResponse) => void>();
  private closedReason: string | null = null;

  private constructor(
    private readonly socket: Socket,
    private readonly token: string,
  ) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.receive(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => this.fail('The app closed the control connection before answering.'));
  }

  static async open(dataDir: string, options: ControlClientOptions = {}): Promise<ControlConnection | null> {
    const token = await fs.readFile(controlTokenFile(dataDir), 'utf8').then(
      (text) => text.trim(),
      () => null,
    );
    if (!token) return null;
    const endpoint = controlEndpoint(dataDir);
    const socket = await new Promise<Socket | null>((resolve) => {
      const attempt = connect(endpoint);
      const timer = setTimeout(() => {
        attempt.destroy();
        resolve(null);
      }, options.connectTimeoutMs ?? 2_000);
      attempt.once('connect', () => {
        clearTimeout(timer);
        resolve(attempt);
      });
      attempt.once('error', () => {
        clearTimeout(timer);
        resolve(null);
      });
    });
    return socket ? new ControlConnection(socket, token) : null;
  }

  /** Who is listening; rejects with `OwnerNotAnswering` when it does not say within `timeoutMs`. */
  async hello(timeoutMs = 5_000): Promise<OwnerHello> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new OwnerNotAnswering('The app did not answer on its control socket.')),
        timeoutMs,
      );
    });
    try {
      const response = await Promise.race([this.send({ op: 'hello' }), timeout]);
      if (!response.ok) throw new OwnerNotAnswering(response.error.message);
      return response.value as OwnerHello;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A contract call run by the owner with `scopes` as the grant. Never throws. */
  async call(
    channel: string,
    input: unknown,
    scopes: readonly Scope[],
    origin?: AutomationOrigin,
  ): Promise<IpcResult<unknown>> {
    const response = await this.send({
      op: 'call',
      scopes: [...scopes],
      channel,
      input,
      ...(origin ? { origin } : {}),
    });
    return response.ok ? { ok: true, value: response.value } : { ok: false, error: response.error };
  }

  close(): void {
    this.closedReason ??= 'closed';
    this.socket.destroy();
  }

  private send(request: Record<string, unknown>): Promise<ControlResponse> {
    const id = this.nextId++;
    if (this.closedReason !== null) return Promise.resolve(lost(id, this.closedReason));
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.write(`${JSON.stringify({ id, token: this.token, ...request })}\n`);
    });
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    for (let index = this.buffer.indexOf('\n'); index >= 0; index = this.buffer.indexOf('\n')) {
      const text = this.buffer.slice(0, index);
      this.buffer = this.buffer.slice(index + 1);
      let response: ControlResponse;
      try {
        response = JSON.parse(text) as ControlResponse;
      } catch {
        continue;
      }
      if (response.id === null) {
        // The owner refused the connection itself (too many connections, a line too long).
        if (!response.ok) this.fail(response.error.message);
        continue;
      }
      const resolve = this.pending.get(response.id);
      this.pending.delete(response.id);
      resolve?.(response);
    }
  }

  private fail(reason: string): void {
    this.closedReason ??= reason;
    for (const [id, resolve] of this.pending) resolve(lost(id, reason));
    this.pending.clear();
  }
}

function lost(id: number, message: string): ControlResponse {
  const error: IpcError = {
    code: 'owner_disconnected',
    message: `${message} The call may or may not have taken effect.`,
    outcomeUnknown: true,
  };
  return { id, ok: false, error };
}
