import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { IpcError, ProfileSummary } from '../../src-shared/contract';

/**
 * The control socket: how a one-shot process (the CLI) asks the process that owns the background
 * jobs of a data folder (the desktop app or web mode) to make a contract call, so that
 * single-flight per port, cooldowns, receipts and the tray hold whoever asks.
 *
 * Newline-delimited JSON over a Unix domain socket (`<dataDir>/control.sock`, mode 0600, in a
 * 0700 folder) or, on Windows, a named pipe derived from the data folder. Every request carries the
 * token of `<dataDir>/control.token` (mode 0600, rewritten at each start of the server):
 *
 *     {"id":1,"token":"…","op":"call","scopes":["read"],"channel":"ports:list"}
 *     {"id":1,"ok":true,"value":[…]}
 *
 * `op: "hello"` answers who is listening (its pid, mode and active profile) without a grant.
 */

const CONTROL_SOCKET_FILE_NAME = 'control.sock';
const CONTROL_TOKEN_FILE_NAME = 'control.token';

/** What one client may cost the owner. A client over a limit gets one error line and is dropped. */
export interface ControlLimits {
  /** Largest request line (bytes, newline excluded). */
  maxLineBytes: number;
  /** Connections open at once. */
  maxConnections: number;
  /** Calls in flight on one connection. */
  maxCallsPerConnection: number;
  /** A connection with no traffic and no call in flight for this long is closed. */
  idleMs: number;
}

export const CONTROL_LIMITS: ControlLimits = {
  maxLineBytes: 1024 * 1024,
  maxConnections: 16,
  maxCallsPerConnection: 8,
  idleMs: 60_000,
};

/** `sun_path` holds 104 (macOS) or 108 (Linux) bytes with its NUL: longer paths go to a short folder. */
const UNIX_SOCKET_PATH_MAX = 100;

const folderKey = (dataDir: string): string =>
  createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 24);

/**
 * Where the owner of `dataDir` listens: `<dataDir>/control.sock`; when that path is too long for a
 * Unix socket, `<tmpdir>/proxy-manager-<uid>/<hash of dataDir>.sock` (a 0700 folder of this user);
 * on Windows the named pipe `\\.\pipe\proxy-manager-<hash of dataDir>`.
 */
export function controlEndpoint(dataDir: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return `\\\\.\\pipe\\proxy-manager-${folderKey(dataDir)}`;
  const inFolder = join(resolve(dataDir), CONTROL_SOCKET_FILE_NAME);
  if (Buffer.byteLength(inFolder) <= UNIX_SOCKET_PATH_MAX) return inFolder;
  return join(shortSocketFolder(), `${folderKey(dataDir)}.sock`);
}

/** The fallback folder for sockets whose path in the data folder would be too long. */
function shortSocketFolder(): string {
  return join(tmpdir(), `proxy-manager-${process.getuid?.() ?? 'user'}`);
}

export function controlTokenFile(dataDir: string): string {
  return join(dataDir, CONTROL_TOKEN_FILE_NAME);
}

export type ControlResponse =
  { id: number | null; ok: true; value: unknown } | { id: number | null; ok: false; error: IpcError };

/** The answer to `op: "hello"`. */
export interface OwnerHello {
  pid: number;
  mode: 'desktop' | 'web';
  activeProfile: Pick<ProfileSummary, 'name' | 'kind'> | null;
  /** `keyFingerprint` of the active profile's key and origin (never the key); null without one. */
  keyFingerprint: string | null;
}
