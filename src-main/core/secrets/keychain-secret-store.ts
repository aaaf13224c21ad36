import { assertAccountName, SecretStoreError, type SecretStore } from './secret-store';

/** The service name under which every secret of the app is filed in the OS keychain. */
export const KEYCHAIN_SERVICE = 'proxy-manager';

/** The part of `@napi-rs/keyring`'s `AsyncEntry` that the app uses (a fake in tests). */
export interface KeychainEntry {
  setPassword(password: string, signal?: AbortSignal): Promise<void>;
  getPassword(signal?: AbortSignal): Promise<string | null>;
  deleteCredential(signal?: AbortSignal): Promise<boolean>;
}

export type KeychainEntryFactory = (
  service: string,
  account: string,
) => KeychainEntry | Promise<KeychainEntry>;

/**
 * Entries in the OS keychain (macOS Keychain, Windows Credential Manager, the Secret Service on
 * Linux). The binding is loaded on first use, so that a platform without a prebuilt binary
 * still starts and gets the "keep the key for this session" offer instead of a crash.
 */
export const createOsKeychainEntry: KeychainEntryFactory = async (service, account) => {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  // Without a store pinned, the binding falls back on Linux to the kernel keyring, which forgets
  // everything at reboot while the user believes the key is saved. A missing Secret Service
  // must instead be reported, so that the user knowingly chooses session-only storage.
  return new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
};

export interface KeychainSecretStoreOptions {
  /** Default `proxy-manager`; tests use their own so that they never touch the app's entries. */
  service?: string;
  entryFactory?: KeychainEntryFactory;
}

/** Secrets in the OS keychain. Every failure becomes a `SecretStoreError` with a human reason. */
export class KeychainSecretStore implements SecretStore {
  readonly kind = 'keychain' as const;
  readonly service: string;
  private readonly entryFactory: KeychainEntryFactory;

  constructor(options: KeychainSecretStoreOptions = {}) {
    this.service = options.service ?? KEYCHAIN_SERVICE;
    this.entryFactory = options.entryFactory ?? createOsKeychainEntry;
  }

  get(account: string): Promise<string | null> {
    return this.withEntry('read from', account, (entry) => entry.getPassword());
  }

  set(account: string, secret: string): Promise<void> {
    return this.withEntry('save to', account, (entry) => entry.setPassword(secret));
  }

  delete(account: string): Promise<boolean> {
    return this.withEntry('delete from', account, (entry) => entry.deleteCredential());
  }

  private async withEntry<T>(
    action: string,
    account: string,
    work: (entry: KeychainEntry) => Promise<T>,
  ): Promise<T> {
    assertAccountName(account);
    try {
      // A fresh entry per call: a cached one would keep a dead connection after the keyring
      // daemon restarts or the user unlocks it.
      const entry = await this.entryFactory(this.service, account);
      return await work(entry);
    } catch (error) {
      throw new SecretStoreError(
        'keychain_unavailable',
        `Could not ${action} the system keychain. ${describeKeychainFailure(error)}`,
        { cause: error },
      );
    }
  }
}

/** A sentence a user can act on, for an error thrown by the keyring binding. */
export function describeKeychainFailure(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (/DBUS_SESSION_BUS_ADDRESS|autolaunch|Failed to connect to socket|NoServer|FileNotFound/i.test(text)) {
    return 'No D-Bus session is running, so no Secret Service (GNOME Keyring, KWallet, KeePassXC) can be reached.';
  }
  if (/org\.freedesktop\.secrets|ServiceUnknown|NameHasNoOwner/i.test(text)) {
    return 'No Secret Service (GNOME Keyring, KWallet, KeePassXC) is running in this session.';
  }
  if (/no result found|locked|prompt|dismiss|NoDefaultCollection/i.test(text)) {
    return 'The keyring is locked or has no default collection: unlock it (or create a login keyring) and try again.';
  }
  if (/AccessDenied|access denied|not permitted|NoAccess/i.test(text)) {
    return 'The system keychain refused access to this app.';
  }
  return 'The system keychain reported an error.';
}
