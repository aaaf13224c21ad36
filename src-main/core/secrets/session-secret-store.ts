import { assertAccountName, type SecretStore } from './secret-store';

/**
 * Keeps secrets in this process's memory only: the "keep the key for this session" choice when
 * no keychain is usable. Nothing is ever written anywhere; the secrets are gone when the app quits.
 */
export class SessionSecretStore implements SecretStore {
  readonly kind = 'session' as const;
  private readonly secrets = new Map<string, string>();

  get(account: string): Promise<string | null> {
    return settle(() => {
      assertAccountName(account);
      return this.secrets.get(account) ?? null;
    });
  }

  set(account: string, secret: string): Promise<void> {
    return settle(() => {
      assertAccountName(account);
      this.secrets.set(account, secret);
    });
  }

  delete(account: string): Promise<boolean> {
    return settle(() => {
      assertAccountName(account);
      return this.secrets.delete(account);
    });
  }

  /** Forgets every secret (for example when the app leaves a demo or signs out everywhere). */
  clear(): void {
    this.secrets.clear();
  }
}

/** Same contract as the keychain store: failures reject, they never throw synchronously. */
function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
