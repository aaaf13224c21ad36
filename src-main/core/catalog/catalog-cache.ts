import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { runWithCallOptions } from '../../api/call-context';
import type { Clock } from '../runtime/clock';
import { writeFileAtomic } from '../../lib/atomic-file';

/**
 * The public catalog (countries and their cities) changes rarely and every list screen names places
 * from it. Main keeps what it read per catalog (a base URL and path style) in memory and in the data
 * folder (`catalog-cache.json`), so that names are there at once, even right after a start, and reads
 * the service again behind them once they are a day old (stale-while-revalidate). A failed refresh
 * keeps the old lists.
 */
export interface CatalogCacheOptions {
  /** Where the cache is kept across restarts; memory only without it (tests, a second process may share it). */
  file?: string;
  /** Ages of lists and the delayed write (tests: a FakeClock). */
  clock: Pick<Clock, 'now' | 'sleep'>;
  /** Lists older than this are read again in the background when asked for. Default 24 hours. */
  refreshAfterMs?: number;
  /** Catalogs kept (least recently used go first): a demo's sandbox has a new port every run. Default 4. */
  maxCatalogs?: number;
  /** How long after a change the file is written (changes in a burst are written once). Default 1 s. */
  writeDelayMs?: number;
  log?: (line: string) => void;
}

interface Entry {
  value: unknown;
  fetchedAt: number;
}

const fileSchema = z.object({
  version: z.literal(1),
  catalogs: z.record(
    z.string(),
    z.object({
      usedAt: z.number(),
      lists: z.record(z.string(), z.object({ value: z.unknown(), fetchedAt: z.number() })),
    }),
  ),
});

const DAY_MS = 86_400_000;

export class CatalogCache {
  private readonly catalogs = new Map<string, { usedAt: number; lists: Map<string, Entry> }>();
  private readonly reads = new Map<string, Promise<unknown>>();
  private readonly refreshAfterMs: number;
  private readonly maxCatalogs: number;
  private readonly log: (line: string) => void;
  /** The delayed write waiting on the clock; aborted when `flush` writes first. */
  private pendingWrite: AbortController | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly options: CatalogCacheOptions) {
    this.refreshAfterMs = options.refreshAfterMs ?? DAY_MS;
    this.maxCatalogs = options.maxCatalogs ?? 4;
    this.log = options.log ?? (() => undefined);
  }

  /** Reads the file (a missing or unreadable one is an empty cache: it is only a cache). */
  async load(): Promise<void> {
    if (!this.options.file) return;
    let text: string;
    try {
      text = await fs.readFile(this.options.file, 'utf8');
    } catch {
      return;
    }
    const parsed = fileSchema.safeParse(safeJson(text));
    if (!parsed.success) {
      this.log('[catalog-cache] the cache file is not readable; starting empty');
      return;
    }
    for (const [catalog, { usedAt, lists }] of Object.entries(parsed.data.catalogs)) {
      this.catalogs.set(catalog, { usedAt, lists: new Map(Object.entries(lists) as [string, Entry][]) });
    }
  }

  /** What is cached of one list, however old, or undefined. */
  peek<T>(catalog: string, list: string): T | undefined {
    return this.catalogs.get(catalog)?.lists.get(list)?.value as T | undefined;
  }

  /**
   * One list of one catalog: from the cache at once (read again in the background when it is older
   * than `refreshAfterMs`), else from the service. Reads of one list are joined.
   */
  async get<T>(catalog: string, list: string, read: () => Promise<T>): Promise<T> {
    const entry = this.catalogs.get(catalog)?.lists.get(list);
    if (entry) {
      this.touch(catalog);
      if (this.options.clock.now() - entry.fetchedAt >= this.refreshAfterMs) {
        // Outside the asking call: its Cancel is not this refresh's.
        void runWithCallOptions({}, () => this.read(catalog, list, read)).catch((error: unknown) => {
          this.log(`[catalog-cache] refresh of ${list} failed, the cached one stays: ${String(error)}`);
        });
      }
      return entry.value as T;
    }
    return this.read(catalog, list, read);
  }

  /** Writes what is pending now (at shutdown). */
  async flush(): Promise<void> {
    if (this.pendingWrite !== null) {
      this.pendingWrite.abort();
      this.pendingWrite = null;
      this.writing = this.writing.then(() => this.write());
    }
    await this.writing;
  }

  private read<T>(catalog: string, list: string, read: () => Promise<T>): Promise<T> {
    const key = `${catalog}\n${list}`;
    const running = this.reads.get(key);
    if (running) return running as Promise<T>;
    const promise = read()
      .then((value) => {
        const lists = this.touch(catalog);
        lists.set(list, { value, fetchedAt: this.options.clock.now() });
        this.scheduleWrite();
        return value;
      })
      .finally(() => this.reads.delete(key));
    this.reads.set(key, promise);
    return promise;
  }

  private touch(catalog: string): Map<string, Entry> {
    let entry = this.catalogs.get(catalog);
    if (!entry) {
      entry = { usedAt: 0, lists: new Map() };
      this.catalogs.set(catalog, entry);
    }
    entry.usedAt = this.options.clock.now();
    while (this.catalogs.size > this.maxCatalogs) {
      const oldest = [...this.catalogs.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt)[0];
      if (!oldest) break;
      this.catalogs.delete(oldest[0]);
    }
    return entry.lists;
  }

  private scheduleWrite(): void {
    if (!this.options.file || this.pendingWrite !== null) return;
    const pending = new AbortController();
    this.pendingWrite = pending;
    this.options.clock.sleep(this.options.writeDelayMs ?? 1000, pending.signal).then(
      () => {
        if (this.pendingWrite !== pending) return; // `flush` wrote it meanwhile
        this.pendingWrite = null;
        this.writing = this.writing.then(() => this.write());
      },
      () => undefined, // aborted by `flush`
    );
  }

  private async write(): Promise<void> {
    if (!this.options.file) return;
    const catalogs = Object.fromEntries(
      [...this.catalogs.entries()].map(([catalog, { usedAt, lists }]) => [
        catalog,
        { usedAt, lists: Object.fromEntries(lists) },
      ]),
    );
    try {
      await writeFileAtomic(this.options.file, JSON.stringify({ version: 1, catalogs }));
    } catch (error) {
      this.log(`[catalog-cache] cannot write the cache file: ${String(error)}`);
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
