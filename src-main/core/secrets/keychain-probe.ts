import { randomBytes } from 'node:crypto';
import {
  createOsKeychainEntry,
  describeKeychainFailure,
  KEYCHAIN_SERVICE,
  type KeychainEntry,
  type KeychainEntryFactory,
} from './keychain-secret-store';

export type KeychainProbeResult =
  | { available: true }
  | {
      available: false;
      /** One sentence for the user. */
      reason: string;
      /** The binding's own message, for logs and a "details" disclosure. */
      detail: string;
    };

export interface KeychainProbeOptions {
  service?: string;
  entryFactory?: KeychainEntryFactory;
  /**
   * How long to wait for the keychain; default 60 s, because a locked desktop keyring asks the
   * user for a password before it answers. Ignored when `signal` is given.
   */
  timeoutMs?: number;
  /** Ends the probe early (tests; app shutdown). */
  signal?: AbortSignal;
}

const DEFAULT_KEYCHAIN_PROBE_TIMEOUT_MS = 60_000;

const TIMEOUT_REASON = 'The system keychain did not answer in time; it may be waiting for you to unlock it.';

class ProbeFailure extends Error {}

/**
 * Tells whether the OS keychain can hold the API key, by writing, reading back and deleting a
 * random probe entry. Reading alone proves nothing: without a Secret Service a read of a missing
 * entry can still answer "none". Never throws: a broken keychain is an answer, not a crash.
 */
export async function probeKeychain(options: KeychainProbeOptions = {}): Promise<KeychainProbeResult> {
  const service = options.service ?? KEYCHAIN_SERVICE;
  const entryFactory = options.entryFactory ?? createOsKeychainEntry;
  const signal =
    options.signal ?? AbortSignal.timeout(options.timeoutMs ?? DEFAULT_KEYCHAIN_PROBE_TIMEOUT_MS);
  const account = `probe:${randomBytes(8).toString('hex')}`;
  const value = randomBytes(16).toString('hex');
  let entry: KeychainEntry | undefined;
  let written = false;
  try {
    entry = await untilAborted(signal, Promise.resolve(entryFactory(service, account)));
    await untilAborted(signal, entry.setPassword(value, signal));
    written = true;
    const read = await untilAborted(signal, entry.getPassword(signal));
    if (read !== value) throw new ProbeFailure('the probe entry read back differs from what was written');
    const deleted = await untilAborted(signal, entry.deleteCredential(signal));
    written = false;
    if (!deleted) throw new ProbeFailure('the probe entry was written but could not be found to delete');
    return { available: true };
  } catch (error) {
    if (written && entry && !signal.aborted) await entry.deleteCredential().catch(() => false);
    const detail = error instanceof Error ? error.message : String(error);
    if (signal.aborted) return { available: false, reason: TIMEOUT_REASON, detail: 'probe aborted' };
    const reason =
      error instanceof ProbeFailure
        ? 'The system keychain does not keep what is saved in it.'
        : describeKeychainFailure(error);
    return { available: false, reason, detail };
  }
}

/** Settles with `work`, or rejects as soon as `signal` aborts (even if `work` never settles). */
function untilAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(new ProbeFailure('probe aborted'));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new ProbeFailure('probe aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
