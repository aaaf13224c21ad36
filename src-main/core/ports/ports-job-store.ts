import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../lib/atomic-file';

/**
 * One section of job state: what the ports' background work must find again after a crash or a
 * restart (rotation receipts, tracked relocations). Kept apart from preferences.
 *
 * The shared job-state store the architecture note names (`core/storage/job-state-store.ts`) is not
 * on `main` yet; this is the small interface the ports code needs from it, so that the integrator
 * can back it with that store's section later without touching the ports code.
 */
export interface JobSection<T> {
  read(): Promise<T | undefined>;
  /** Applies `mutate` to the current value and stores the result before resolving. Serialised. */
  update(mutate: (current: T | undefined) => T): Promise<T>;
}

/** In memory: tests, and a process that must not write to disk. */
export class MemoryJobSection<T> implements JobSection<T> {
  private value: T | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(initial?: T) {
    this.value = initial === undefined ? undefined : structuredClone(initial);
  }

  read(): Promise<T | undefined> {
    return Promise.resolve(this.value === undefined ? undefined : structuredClone(this.value));
  }

  update(mutate: (current: T | undefined) => T): Promise<T> {
    const next = this.chain.then(() => {
      this.value = structuredClone(
        mutate(this.value === undefined ? undefined : structuredClone(this.value)),
      );
      return structuredClone(this.value);
    });
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/**
 * A JSON file of named sections in the data folder (`ports-jobs.json`), written atomically. Each
 * update re-reads the file, so sections written by different objects of this process never undo
 * each other; writes are serialised per file.
 */
export class JsonFileJobStore {
  private chain: Promise<unknown> = Promise.resolve();
  readonly file: string;

  constructor(
    dataDir: string,
    fileName = 'ports-jobs.json',
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.file = join(dataDir, fileName);
  }

  section<T>(name: string): JobSection<T> {
    return {
      read: async () => (await this.readAll())[name] as T | undefined,
      update: (mutate) => {
        const next = this.chain.then(async () => {
          const all = await this.readAll();
          const value = mutate(all[name] as T | undefined);
          all[name] = value;
          await writeFileAtomic(this.file, `${JSON.stringify(all)}\n`);
          return value;
        });
        this.chain = next.catch(() => undefined);
        return next;
      },
    };
  }

  private async readAll(): Promise<Record<string, unknown>> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
        return parsed as Record<string, unknown>;
      }
    } catch {
      // Fall through: a damaged file must not stop rotation; it is set aside and started afresh.
    }
    const aside = `${this.file}.damaged-${Date.now()}`;
    this.log(`[ports-jobs] ${this.file} is not readable JSON; moved to ${aside}`);
    await fs.rename(this.file, aside).catch(() => undefined);
    return {};
  }
}
