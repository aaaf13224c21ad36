/** Where a secret lives: the OS keychain (persisted) or this process's memory (gone at exit). */
type SecretStoreKind = 'keychain' | 'session';

/**
 * A small store of secrets by account name (one API key per profile). Implementations never
 * put a secret into an error message or a log line.
 */
export interface SecretStore {
  readonly kind: SecretStoreKind;
  /** The secret, or null when none is stored for this account. */
  get(account: string): Promise<string | null>;
  /** Stores the secret, replacing any previous one for this account. */
  set(account: string, secret: string): Promise<void>;
  /** True when a secret was deleted, false when there was none. */
  delete(account: string): Promise<boolean>;
}

export type SecretStoreErrorCode = 'keychain_unavailable' | 'invalid_account';

/** A store could not do what was asked. The message is for people and never holds the secret. */
export class SecretStoreError extends Error {
  constructor(
    readonly code: SecretStoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SecretStoreError';
  }
}

export function assertAccountName(account: string): void {
  if (account.length === 0 || account.length > 256) {
    throw new SecretStoreError('invalid_account', 'A secret needs an account name of 1 to 256 characters');
  }
}
