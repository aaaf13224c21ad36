import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { writeFileAtomic } from '../../lib/atomic-file';
import {
  defaultSettings,
  normalizeSettings,
  SETTINGS_VERSION,
  settingsSchema,
  type Settings,
} from './settings-schema';

export const SETTINGS_FILE_NAME = 'settings.json';

/** A raw settings object as read from disk, before the schema fills defaults. */
export type RawSettings = Record<string, unknown>;

/**
 * Steps from one version to the next, by the version they start from. A file without a
 * `version` member is version 0 (written before the schema carried one); it has v1's shape.
 */
export type SettingsMigrations = Readonly<Record<number, (raw: RawSettings) => RawSettings>>;

export const SETTINGS_MIGRATIONS: SettingsMigrations = {
  0: (raw) => ({ ...raw, version: 1 }),
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
}

export type SettingsMutator = (draft: Settings) => Settings | void;

/**
 * The app's settings in one JSON file. Reads are synchronous snapshots (frozen); updates are
 * applied one at a time, in call order, each on the result of the previous one, and each is
 * written atomically before its promise resolves. A failed write leaves memory as it was.
 */
export class SettingsStore {
  readonly file: string;
  private current: Settings;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<(settings: Settings) => void>();

  private constructor(
    file: string,
    initial: Settings,
    readonly recovery: SettingsRecovery | null,
    private readonly writeFile: (file: string, data: string) => Promise<void>,
  ) {
    this.file = file;
    this.current = deepFreeze(initial);
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
    const now = options.now ?? (() => new Date());
    const writeFile = options.writeFile ?? ((target: string, data: string) => writeFileAtomic(target, data));
    await fs.mkdir(options.dataDir, { recursive: true, mode: 0o700 });

    let text: string | null;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new SettingsError('settings_unreadable', `Cannot read the settings file ${file}`, undefined, {
          cause: error,
        });
      }
      text = null;
    }
    if (text === null) return new SettingsStore(file, defaultSettings(), null, writeFile);

    const loaded = loadSettingsText(text, options.migrations ?? SETTINGS_MIGRATIONS);
    if (loaded.ok && loaded.fromVersion <= SETTINGS_VERSION) {
      return new SettingsStore(file, loaded.settings, null, writeFile);
    }
    const stamp = now().toISOString().replace(/[:.]/g, '-');
    if (loaded.ok) {
      const copy = await freePath(`${file}.newer-${stamp}`);
      await fs.copyFile(file, copy);
      const reason = `The settings file was written by a newer version of the app (settings version ${loaded.fromVersion}); a copy was kept.`;
      return new SettingsStore(
        file,
        loaded.settings,
        { kind: 'newer-version', recoveredFrom: copy, reason },
        writeFile,
      );
    }
    const aside = await freePath(`${file}.corrupt-${stamp}`);
    await fs.rename(file, aside);
    return new SettingsStore(
      file,
      defaultSettings(),
      { kind: 'corrupt', recoveredFrom: aside, reason: loaded.reason },
      writeFile,
    );
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
    const run = this.queue.then(async () => {
      const draft = structuredClone<Settings>(this.current);
      const next = parseForSave(mutate(draft) ?? draft);
      await this.writeFile(this.file, `${JSON.stringify(next, null, 2)}\n`);
      this.current = deepFreeze(next);
      const saved = this.current;
      // A failing listener must not turn a saved update into a rejected one.
      for (const listener of this.listeners) queueMicrotask(() => listener(saved));
      return saved;
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
    // Defence in depth for the loosely typed members (rotation schedules): the message names
    // the member, never its value.
    throw new SettingsError(
      'secret_in_settings',
      `Settings never hold secrets (found at ${secretAt})`,
      secretAt,
    );
  }
  return normalizeSettings(parsed.data);
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unknown problem';
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

const SECRET_MEMBER_NAMES = /^(api[-_]?key|key|password|passphrase|secret|token|rotation[-_]?link)$/i;
/** A URL whose query carries `key=`, as rotation links do. */
const KEY_IN_QUERY = /[?&]key=/i;

/** The path of the first member whose name or value looks like a secret, or null. */
export function findSecretLikeMember(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return KEY_IN_QUERY.test(value) ? path || '(root)' : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findSecretLikeMember(item, `${path}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [name, item] of Object.entries(value)) {
      const memberPath = path ? `${path}.${name}` : name;
      if (SECRET_MEMBER_NAMES.test(name)) return memberPath;
      const found = findSecretLikeMember(item, memberPath);
      if (found !== null) return found;
    }
  }
  return null;
}

/** `base`, or `base-1`, `base-2`... when something already has that name. */
async function freePath(base: string): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    const candidate = attempt === 0 ? base : `${base}-${attempt}`;
    try {
      await fs.access(candidate);
    } catch {
      return candidate;
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
