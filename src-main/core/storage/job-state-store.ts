import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { writeFileAtomic } from '../../lib/atomic-file';
import { withFileLock, type FileLockOptions } from './file-lock';
import {
  deepFreeze,
  describeIssue,
  fileStamp,
  findSecretLikeMember,
  freePath,
  readTextOrNull,
} from './json-file';

/**
 * `state.json`, beside `settings.json` in the data folder: what background jobs must not lose
 * in a crash (schedule runs, top-up intents with their `Idempotency-Key`, relocation tracking,
 * alert crossings), kept apart from the user's preferences.
 *
 *     { "version": 1, "sections": { "topups": {...}, "rotation-schedules": {...} } }
 *
 * Each feature owns one section with its own zod schema (`store.section(name, schema,
 * defaults)`), so adding a feature never edits a central schema. Sections nobody registered
 * (written by a newer app, or by a feature that is off) are kept as they are.
 */

const JOB_STATE_FILE_NAME = 'state.json';
/** The envelope's version; each section's schema evolves on its own (zod defaults, preprocess). */
const JOB_STATE_VERSION = 1;

const SECTION_NAME = /^[a-z][a-z0-9-]{0,63}$/;

export interface JobStateRecovery {
  /**
   * `corrupt`: the file was moved to `recoveredFrom`; every section starts from its defaults.
   * `newer-version`: written by a newer app; copied to `recoveredFrom`, sections read as far as
   * their schemas allow. `section-invalid`: one section failed its schema; the file was copied
   * to `recoveredFrom` and that section starts from its defaults.
   */
  kind: 'corrupt' | 'newer-version' | 'section-invalid';
  section?: string;
  recoveredFrom: string;
  /** One sentence for the user. */
  reason: string;
}

export type JobStateErrorCode =
  'invalid_job_state' | 'secret_in_job_state' | 'job_state_unreadable' | 'bad_section';

export class JobStateError extends Error {
  constructor(
    readonly code: JobStateErrorCode,
    message: string,
    readonly section?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'JobStateError';
  }
}

export interface JobStateStoreOptions {
  /** The app's data folder (the one `settings.json` is in). */
  dataDir: string;
  fileName?: string;
  /** Names the recovered copies; injected so tests know them. */
  now?: () => Date;
  /** Default `writeFileAtomic` (temp file, fsync, rename, fsync of the folder). */
  writeFile?: (file: string, data: string) => Promise<void>;
  /** The inter-process lock (`state.json.lock`) around each read-modify-write. */
  lock?: FileLockOptions;
}

/** One feature's part of `state.json`. */
export interface JobStateSection<T> {
  readonly name: string;
  /** A frozen snapshot, never changed in place. */
  get(): T;
  /**
   * Applies `mutate` to a copy of the latest value (re-read from disk under the lock), checks
   * it against the section's schema, writes the whole file atomically and resolves only once
   * the bytes are on disk: a feature writes its intent, awaits this, then makes the request.
   * Rejects, changing nothing, on a schema failure, a secret-looking member or a failed write.
   */
  update(mutate: (draft: T) => T | void): Promise<T>;
  /** Called with each new value (own updates and adopted changes of another process). */
  subscribe(listener: (value: T) => void): () => void;
}

interface RegisteredSection {
  name: string;
  schema: z.ZodType;
  defaults: unknown;
  value: unknown;
  listeners: Set<(value: unknown) => void>;
  /** Set when the copy of a damaged value could not be made: writing would lose it. */
  blockedBy: Error | null;
}

type Envelope = { version: number; sections: Record<string, unknown> };

export class JobStateStore {
  readonly file: string;
  private readonly sections = new Map<string, RegisteredSection>();
  private readonly recoveryList: JobStateRecovery[] = [];
  private readonly recoveryListeners = new Set<(recovery: JobStateRecovery) => void>();
  /** Every section as last read or written, registered or not (unknown ones are written back as they are). */
  private raw: Record<string, unknown>;
  private lastText: string | null;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    file: string,
    loaded: { raw: Record<string, unknown>; text: string | null; recovery: JobStateRecovery | null },
    private readonly now: () => Date,
    private readonly writeFile: (file: string, data: string) => Promise<void>,
    private readonly lock: FileLockOptions,
  ) {
    this.file = file;
    this.raw = loaded.raw;
    this.lastText = loaded.text;
    if (loaded.recovery) this.recoveryList.push(loaded.recovery);
  }

  /**
   * Opens `state.json` (creating the data folder when needed). A file that is not a state
   * envelope is moved aside as `state.json.corrupt-<time>` and the store starts empty; only a
   * file that cannot be read at all is an error (left in place).
   */
  static async open(options: JobStateStoreOptions): Promise<JobStateStore> {
    const file = join(options.dataDir, options.fileName ?? JOB_STATE_FILE_NAME);
    const now = options.now ?? (() => new Date());
    const writeFile = options.writeFile ?? ((target: string, data: string) => writeFileAtomic(target, data));
    await fs.mkdir(options.dataDir, { recursive: true, mode: 0o700 });
    const text = await readStateText(file);
    const loaded =
      text === null ? { raw: {}, text: null, recovery: null } : await interpretStateText(file, text, now);
    return new JobStateStore(file, loaded, now, writeFile, { mode: 'state-update', ...options.lock });
  }

  /** What the store recovered from so far (at open, and when sections registered); for a notice. */
  get recoveries(): readonly JobStateRecovery[] {
    return [...this.recoveryList];
  }

  /** Called for each recovery after this call (a section registered later may find one). */
  onRecovery(listener: (recovery: JobStateRecovery) => void): () => void {
    this.recoveryListeners.add(listener);
    return () => this.recoveryListeners.delete(listener);
  }

  /**
   * Registers a feature's section: its name (`topups`, `rotation-schedules`), the zod schema of
   * its value (JSON types only: strings for times and amounts) and the value when there is none
   * yet. A stored value failing the schema is kept in a copy of the file and replaced by
   * `defaults` (see `recoveries`). Each name is registered once per store.
   */
  section<T>(name: string, schema: z.ZodType<T>, defaults: T): JobStateSection<T> {
    if (!SECTION_NAME.test(name)) {
      throw new JobStateError(
        'bad_section',
        `A job-state section name is lower-case kebab-case, got "${name}"`,
      );
    }
    if (this.sections.has(name)) {
      throw new JobStateError('bad_section', `The job-state section "${name}" is registered already`, name);
    }
    const checkedDefaults = schema.safeParse(defaults);
    if (!checkedDefaults.success) {
      throw new JobStateError('bad_section', `The defaults of "${name}" fail its schema`, name);
    }
    const entry: RegisteredSection = {
      name,
      schema,
      defaults: checkedDefaults.data,
      value: deepFreeze(structuredClone(checkedDefaults.data)),
      listeners: new Set(),
      blockedBy: null,
    };
    this.sections.set(name, entry);
    if (name in this.raw) {
      const parsed = schema.safeParse(this.raw[name]);
      if (parsed.success) {
        entry.value = deepFreeze(parsed.data);
      } else {
        // Kept in a copy before any write can replace it; queued, so it precedes them.
        const reason = `The saved state of ${name} was damaged (${describeIssue(parsed.error)}); it starts afresh.`;
        this.enqueue(() => this.keepCopy('section-invalid', reason, name)).catch((error: unknown) => {
          entry.blockedBy = new JobStateError(
            'job_state_unreadable',
            `The damaged state of ${name} could not be copied aside, so it is not overwritten`,
            name,
            { cause: error },
          );
        });
      }
    }
    return {
      name,
      get: () => entry.value as T,
      update: (mutate) => this.updateSection(entry, mutate as (draft: unknown) => unknown) as Promise<T>,
      subscribe: (listener) => {
        const wrapped = listener as (value: unknown) => void;
        entry.listeners.add(wrapped);
        return () => entry.listeners.delete(wrapped);
      },
    };
  }

  /**
   * Reads the file again and adopts what another process saved (telling section subscribers).
   * Updates do this on their own; a process that does not own the jobs calls it to show theirs.
   */
  reload(): Promise<void> {
    return this.enqueue(() => this.adoptFileChanges());
  }

  /** Resolves once every update called so far has settled. */
  async flush(): Promise<void> {
    await this.queue;
  }

  private updateSection(entry: RegisteredSection, mutate: (draft: unknown) => unknown): Promise<unknown> {
    return this.enqueue(() =>
      withFileLock(
        `${this.file}.lock`,
        async () => {
          if (entry.blockedBy) throw entry.blockedBy;
          await this.adoptFileChanges();
          const draft: unknown = structuredClone(entry.value);
          const next = this.checkForSave(entry, mutate(draft) ?? draft);
          const raw = { ...this.raw, [entry.name]: next };
          const envelope: Envelope = { version: JOB_STATE_VERSION, sections: raw };
          const text = `${JSON.stringify(envelope, null, 2)}\n`;
          await this.writeFile(this.file, text);
          this.raw = raw;
          this.lastText = text;
          this.setValue(entry, next);
          return entry.value;
        },
        this.lock,
      ),
    );
  }

  private checkForSave(entry: RegisteredSection, candidate: unknown): unknown {
    const parsed = entry.schema.safeParse(candidate);
    if (!parsed.success) {
      throw new JobStateError(
        'invalid_job_state',
        `Invalid ${entry.name} state: ${describeIssue(parsed.error)}`,
        entry.name,
      );
    }
    // What is written must read back as the same value (a Date or a Map would not).
    const roundTrip = entry.schema.safeParse(JSON.parse(JSON.stringify(parsed.data ?? null)));
    if (!roundTrip.success) {
      throw new JobStateError(
        'invalid_job_state',
        `The ${entry.name} state does not survive JSON (${describeIssue(roundTrip.error)})`,
        entry.name,
      );
    }
    const secretAt = findSecretLikeMember(roundTrip.data);
    if (secretAt !== null) {
      throw new JobStateError(
        'secret_in_job_state',
        `Job state never holds secrets (found at ${entry.name}.${secretAt})`,
        entry.name,
      );
    }
    return roundTrip.data;
  }

  /** When the file is not what this store last read or wrote, makes its contents current. */
  private async adoptFileChanges(): Promise<void> {
    const text = await readStateText(this.file);
    if (text === null || text === this.lastText) return;
    const loaded = await interpretStateText(this.file, text, this.now);
    this.lastText = loaded.text;
    if (loaded.recovery) this.addRecovery(loaded.recovery);
    // A damaged file was moved aside: what this store had is the latest good state.
    if (loaded.recovery?.kind === 'corrupt') return;
    this.raw = loaded.raw;
    for (const entry of this.sections.values()) {
      if (!(entry.name in loaded.raw)) continue;
      const parsed = entry.schema.safeParse(loaded.raw[entry.name]);
      if (parsed.success) {
        this.setValue(entry, parsed.data);
      } else {
        const reason = `The saved state of ${entry.name} was damaged (${describeIssue(parsed.error)}); the last good one is kept.`;
        await this.keepCopy('section-invalid', reason, entry.name);
        this.raw = { ...this.raw, [entry.name]: entry.value };
      }
    }
  }

  private async keepCopy(kind: JobStateRecovery['kind'], reason: string, section?: string): Promise<void> {
    const copy = await freePath(`${this.file}.corrupt-${fileStamp(this.now())}`);
    try {
      await fs.copyFile(this.file, copy);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    this.addRecovery({ kind, section, recoveredFrom: copy, reason });
  }

  private addRecovery(recovery: JobStateRecovery): void {
    this.recoveryList.push(recovery);
    for (const listener of this.recoveryListeners) queueMicrotask(() => listener(recovery));
  }

  private setValue(entry: RegisteredSection, value: unknown): void {
    entry.value = deepFreeze(value);
    const saved = entry.value;
    // A failing listener must not turn a saved update into a rejected one.
    for (const listener of entry.listeners) queueMicrotask(() => listener(saved));
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

async function readStateText(file: string): Promise<string | null> {
  try {
    return await readTextOrNull(file);
  } catch (error) {
    throw new JobStateError('job_state_unreadable', `Cannot read the job state file ${file}`, undefined, {
      cause: error,
    });
  }
}

/**
 * The sections a file's text holds. Not an envelope: moved aside (`corrupt`). A newer envelope
 * version: copied aside once and read as far as it goes (`newer-version`).
 */
async function interpretStateText(
  file: string,
  text: string,
  now: () => Date,
): Promise<{ raw: Record<string, unknown>; text: string | null; recovery: JobStateRecovery | null }> {
  const parsed = parseEnvelope(text);
  const stamp = fileStamp(now());
  if (parsed.ok && parsed.envelope.version <= JOB_STATE_VERSION) {
    return { raw: parsed.envelope.sections, text, recovery: null };
  }
  if (parsed.ok) {
    const copy = await freePath(`${file}.newer-${stamp}`);
    await fs.copyFile(file, copy);
    const reason = `The job state was written by a newer version of the app (version ${parsed.envelope.version}); a copy was kept.`;
    return {
      raw: parsed.envelope.sections,
      text,
      recovery: { kind: 'newer-version', recoveredFrom: copy, reason },
    };
  }
  const aside = await freePath(`${file}.corrupt-${stamp}`);
  await fs.rename(file, aside);
  return { raw: {}, text: null, recovery: { kind: 'corrupt', recoveredFrom: aside, reason: parsed.reason } };
}

function parseEnvelope(text: string): { ok: true; envelope: Envelope } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      ok: false,
      reason: 'The job state file was damaged (it is not valid JSON); background jobs start afresh.',
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'The job state file was damaged (it does not hold an object).' };
  }
  const { version, sections } = value as { version?: unknown; sections?: unknown };
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { ok: false, reason: 'The job state file was damaged (its version is not a whole number).' };
  }
  if (typeof sections !== 'object' || sections === null || Array.isArray(sections)) {
    return { ok: false, reason: 'The job state file was damaged (it has no sections).' };
  }
  return { ok: true, envelope: { version, sections: sections as Record<string, unknown> } };
}
