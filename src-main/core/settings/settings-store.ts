import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../lib/atomic-file';
import { withFileLock, type FileLockOptions } from '../storage/file-lock';
import {
  deepFreeze,
  describeIssue,
  fileStamp,
  findSecretLikeMember,
  freePath,
  readTextOrNull,
} from '../storage/json-file';
import {
  defaultSettings,
  normalizeSettings,
  SETTINGS_VERSION,
  settingsSchema,
  type Settings,
} from './settings-schema';

const SETTINGS_FILE_NAME = 'settings.json';

/** A raw settings object as read from disk, before the schema fills defaults. */
type RawSettings = Record<string, unknown>;

/**
 * Steps from one version to the next, by the version they start from. A file without a
 * `version` member is version 0 (written before the schema carried one); it has v1's shape.
 */
export type SettingsMigrations = Readonly<Record<number, (raw: RawSettings) => RawSettings>>;

export const SETTINGS_MIGRATIONS: SettingsMigrations = {
  0: (raw) => ({ ...raw, version: 1 }),
  // Version 1 had `rotationSchedules` and `pendingTopUps`, never read since job state moved to
  // `state.json` (the scheduler's and the top-up watcher's sections): they are dropped.
  1: (raw) => {
    const next: RawSettings = { ...raw, version: 2 };
    delete next.rotationSchedules;
    delete next.pendingTopUps;
    return next;
  },
};

/** What the store did with a file it could not use as it was; the app tells the user. */
export interface SettingsRecovery {
  /**
   * `corrupt`: the file was moved to `recoveredFrom` and the store started with defaults.
   * `newer-version`: written by a newer app; a copy was kept at `recoveredFrom` and what this
   * version understands was loaded (the rest is lost at the next save, but not from the copy).
   */
  kind: 'corrupt' | 'newer-version';
  recoveredFrom: string;
  /** One sentence for the user, naming the first problem found. */
  reason: string;
}

export type SettingsErrorCode = 'invalid_settings' | 'secret_in_settings' | 'settings_unreadable';

export class SettingsError extends Error {
  constructor(
    readonly code: SettingsErrorCode,
    message: string,
    readonly field?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SettingsError';
  }
}

export interface SettingsStoreOptions {
  /** The app's data folder (passed in by the shell, or a temp folder in tests). */
  dataDir: string;
  fileName?: string;
  /** Names the corrupt copies; injected so tests know them. */
  now?: () => Date;
  migrations?: SettingsMigrations;
  /** Default: `writeFileAtomic`. Injected by tests to observe write ordering. */
  writeFile?: (file: string, data: string) => Promise<void>;
  /**
   * The inter-process lock (`settings.json.lock`) held around each read-modify-write, so that
   * the desktop app and web mode on one data folder do not lose each other's updates. Tests
   * inject its clock, pid and liveness check.
   */
  lock?: FileLockOptions;
}

export type SettingsMutator = (draft: Settings) => Settings | void;

interface StoreIo {
  writeFile: (file: string, data: string) => Promise<void>;
  now: () => Date;
  migrations: SettingsMigrations;
  lock: FileLockOptions;
}

/**
 * The app's settings in one JSON file. Reads are synchronous snapshots (frozen); updates are
 * applied one at a time, in call order, each on the result of the previous one, and each is
 * written atomically before its promise resolves. A failed write leaves memory as it was.
 *
 * Another process (desktop and web mode share the data folder) may write the file too: each
 * update takes the inter-process lock, re-reads the file, and applies its mutation to what is
 * there when it changed since this store last read or wrote it. No update is lost to the other
 * process's, and the other process's changes become this store's snapshot.
 */
export class SettingsStore {
  readonly file: string;
  private current: Settings;
  /** The file's text as this store last read or wrote it: a different text was written by someone else. */
  private lastText: string | null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<(settings: Settings) => void>();

  private constructor(
    file: string,
    initial: Settings,
    initialText: string | null,
    readonly recovery: SettingsRecovery | null,
    private readonly io: StoreIo,
  ) {
    this.file = file;
    this.current = deepFreeze(initial);
    this.lastText = initialText;
  }

  /**
   * Loads the settings file (creating the data folder when needed). A file that is not JSON,
   * fails the schema or cannot be migrated is moved aside as `<name>.corrupt-<time>` and the
   * store starts with defaults; `recovery` then says so. Only a file that cannot be read at all
   * (permissions) is an error: it is left in place rather than replaced.
   */
  static async open(options: SettingsStoreOptions): Promise<SettingsStore> {
    const fileName = options.fileName ?? SETTINGS_FILE_NAME;
    const file = join(options.dataDir, fileName);
    const io: StoreIo = {
      now: options.now ?? (() => new Date()),
      writeFile: options.writeFile ?? ((target: string, data: string) => writeFileAtomic(target, data)),
      migrations: options.migrations ?? SETTINGS_MIGRATIONS,
      lock: { mode: 'settings-update', ...options.lock },
    };
    await fs.mkdir(options.dataDir, { recursive: true, mode: 0o700 });

    const text = await readSettingsText(file);
    if (text === null) return new SettingsStore(file, defaultSettings(), null, null, io);
    const found = await interpretSettingsText(file, text, io);
    // A corrupt file was moved away; a newer one stays (and its copy is made once, here).
    const kept = found.recovery?.kind === 'corrupt' ? null : text;
    return new SettingsStore(file, found.settings, kept, found.recovery, io);
  }

  /** The current settings: a frozen snapshot, never changed in place. */
  get(): Settings {
    return this.current;
  }

  /**
   * Applies `mutate` to a copy of the latest settings (after every earlier update), validates
   * the result, writes it and only then makes it current. Rejects, changing nothing, when the
   * result fails the schema, holds something that looks like a secret, or cannot be written.
   */
  update(mutate: SettingsMutator): Promise<Settings> {
    const run = this.queue.then(() =>
      withFileLock(
        `${this.file}.lock`,
        async () => {
          await this.adoptFileChanges();
          const draft = structuredClone<Settings>(this.current);
          const next = parseForSave(mutate(draft) ?? draft);
          const text = `${JSON.stringify(next, null, 2)}\n`;
          await this.io.writeFile(this.file, text);
          this.lastText = text;
          return this.setCurrent(next);
        },
        this.io.lock,
      ),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Reads the file again and makes what another process saved the current settings (telling
   * subscribers). Updates do this on their own; call it to show another process's change sooner.
   */
  reload(): Promise<Settings> {
    const run = this.queue.then(async () => {
      await this.adoptFileChanges();
      return this.current;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves once every update called so far has settled. */
  async flush(): Promise<void> {
    await this.queue;
  }

  /** Called after each saved update with the new settings; returns the unsubscribe function. */
  subscribe(listener: (settings: Settings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** When the file is not what this store last read or wrote, makes its contents current. */
  private async adoptFileChanges(): Promise<void> {
    const text = await readSettingsText(this.file);
    // Gone (deleted by hand) or unchanged: memory is the latest good state.
    if (text === null || text === this.lastText) return;
    const found = await interpretSettingsText(this.file, text, this.io);
    this.lastText = found.recovery?.kind === 'corrupt' ? null : text;
    // A damaged file was moved aside: keep what this store had rather than defaults.
    if (found.recovery?.kind === 'corrupt') return;
    this.setCurrent(found.settings);
  }

  private setCurrent(settings: Settings): Settings {
    this.current = deepFreeze(settings);
    const saved = this.current;
    // A failing listener must not turn a saved update into a rejected one.
    for (const listener of this.listeners) queueMicrotask(() => listener(saved));
    return saved;
  }
}

async function readSettingsText(file: string): Promise<string | null> {
  try {
    return await readTextOrNull(file);
  } catch (error) {
    throw new SettingsError('settings_unreadable', `Cannot read the settings file ${file}`, undefined, {
      cause: error,
    });
  }
}

/**
 * The settings a file's text holds. A file that is not JSON, fails the schema or cannot be
 * migrated is moved aside as `<name>.corrupt-<time>` (defaults then); one written by a newer
 * app is copied to `<name>.newer-<time>` and what this version understands of it is used.
 */
async function interpretSettingsText(
  file: string,
  text: string,
  io: StoreIo,
): Promise<{ settings: Settings; recovery: SettingsRecovery | null }> {
  const loaded = loadSettingsText(text, io.migrations);
  if (loaded.ok && loaded.fromVersion <= SETTINGS_VERSION)
    return { settings: loaded.settings, recovery: null };
  const stamp = fileStamp(io.now());
  if (loaded.ok) {
    const copy = await freePath(`${file}.newer-${stamp}`);
    await fs.copyFile(file, copy);
    const reason = `The settings file was written by a newer version of the app (settings version ${loaded.fromVersion}); a copy was kept.`;
    return { settings: loaded.settings, recovery: { kind: 'newer-version', recoveredFrom: copy, reason } };
  }
  const aside = await freePath(`${file}.corrupt-${stamp}`);
  await fs.rename(file, aside);
  return {
    settings: defaultSettings(),
    recovery: { kind: 'corrupt', recoveredFrom: aside, reason: loaded.reason },
  };
}

type LoadResult = { ok: true; settings: Settings; fromVersion: number } | { ok: false; reason: string };

function loadSettingsText(text: string, migrations: SettingsMigrations): LoadResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'The settings file was damaged (it is not valid JSON).' };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, reason: 'The settings file was damaged (it does not hold a settings object).' };
  }
  let current = raw as RawSettings;
  const fromVersion = current.version ?? 0;
  if (typeof fromVersion !== 'number' || !Number.isInteger(fromVersion) || fromVersion < 0) {
    return { ok: false, reason: 'The settings file was damaged (its version is not a whole number).' };
  }
  if (fromVersion > SETTINGS_VERSION) {
    current = { ...current, version: SETTINGS_VERSION };
  }
  for (let version = fromVersion; version < SETTINGS_VERSION; version += 1) {
    const step = migrations[version];
    if (!step) {
      return {
        ok: false,
        reason: `The settings file has version ${version}, which this app cannot upgrade.`,
      };
    }
    try {
      current = step(current);
    } catch {
      return { ok: false, reason: `The settings file could not be upgraded from version ${version}.` };
    }
  }
  const parsed = settingsSchema.safeParse(current);
  if (!parsed.success) {
    return { ok: false, reason: `The settings file was damaged (${describeIssue(parsed.error)}).` };
  }
  return { ok: true, settings: normalizeSettings(parsed.data), fromVersion };
}

function parseForSave(candidate: Settings): Settings {
  const parsed = settingsSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SettingsError(
      'invalid_settings',
      `Invalid settings: ${describeIssue(parsed.error)}`,
      issue ? issue.path.join('.') : undefined,
    );
  }
  const secretAt = findSecretLikeMember(parsed.data);
  if (secretAt !== null) {
    // Defence in depth for what the schema cannot tell (record keys, URLs carrying `key=`): the
    // message names the member, never its value.
    throw new SettingsError(
      'secret_in_settings',
      `Settings never hold secrets (found at ${secretAt})`,
      secretAt,
    );
  }
  return normalizeSettings(parsed.data);
}
