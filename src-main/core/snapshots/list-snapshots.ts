import { runWithCallOptions } from '../../api/call-context';

/** One list as main last read it for a profile. */
export interface Snapshot<T> {
  value: T;
  /** When it was read from the service (epoch ms); events that change items keep it. */
  asOf: number;
}

/** A list answer: the snapshot served, and whether it is being read again now. */
export interface Served<T> extends Snapshot<T> {
  revalidating: boolean;
}

export interface ServeOptions<T> {
  /** Reads the list from the service (runs outside the caller's Cancel: it outlives the call). */
  read: () => Promise<T>;
  /** Wait for the service instead of answering from the snapshot (the Refresh button). */
  fresh?: boolean;
  /** Called with the list before and after a read that replaced a snapshot (in the background, or `fresh`). */
  revalidated?: (before: T, after: T, asOf: number) => void;
  /**
   * Called when a background read failed: the windows were told the list is being read again, and
   * now hear that it stays as old as it was (`asOf` of the snapshot kept).
   */
  failed?: (kept: Snapshot<T>) => void;
}

export interface ListSnapshotsOptions {
  now: () => number;
  /** A snapshot younger than this is served without reading the service again. Default 5 s. */
  freshForMs?: number;
  /** Lists kept per profile beyond which the least recently used go (top-up pages, sub-users). */
  maxListsPerProfile?: number;
  log?: (line: string) => void;
}

interface ProfileLists {
  /** Bumped when the profile's account may have changed (key, base URL, deleted): older reads are dropped. */
  generation: number;
  lists: Map<string, Snapshot<unknown>>;
  reads: Map<string, Promise<Snapshot<unknown>>>;
}

const DEFAULT_FRESH_FOR_MS = 5_000;
const DEFAULT_MAX_LISTS = 24;

/**
 * Main's last known lists per profile (ports, subscriptions, sub-users, top-up pages): what the
 * background jobs and earlier calls read, kept current by the services' events. A screen is answered
 * from here at once and the service is read again in the background (stale-while-revalidate), one
 * read per list at a time.
 *
 * Account guard (as Mullvad's account-data cache has it): every read is tied to the profile's
 * generation when it started; a profile whose key or base URL changed, or that was deleted, gets a new
 * generation and loses its lists, and an answer of the old generation is dropped, not stored.
 */
export class ListSnapshots {
  private readonly profiles = new Map<string, ProfileLists>();
  private readonly freshForMs: number;
  private readonly maxLists: number;
  private readonly log: (line: string) => void;
  private generations = 0;

  constructor(private readonly options: ListSnapshotsOptions) {
    this.freshForMs = options.freshForMs ?? DEFAULT_FRESH_FOR_MS;
    this.maxLists = options.maxListsPerProfile ?? DEFAULT_MAX_LISTS;
    this.log = options.log ?? (() => undefined);
  }

  /** The snapshot of one list, or null. */
  get<T>(profileId: string, list: string): Snapshot<T> | null {
    return (this.profiles.get(profileId)?.lists.get(list) as Snapshot<T> | undefined) ?? null;
  }

  /** Whether a read of this list is in flight. */
  revalidating(profileId: string, list: string): boolean {
    return this.profiles.get(profileId)?.reads.has(list) ?? false;
  }

  /** The profile's generation now: a read started now may be stored while it holds (`store`). */
  generation(profileId: string): number {
    return this.entry(profileId).generation;
  }

  /**
   * Stores what a read of the whole list answered, unless the profile changed since `generation`
   * (then the answer is another account's, or for a deleted profile: dropped). False when dropped.
   */
  store<T>(profileId: string, list: string, value: T, generation: number, asOf = this.options.now()): boolean {
    const entry = this.profiles.get(profileId);
    if (!entry || entry.generation !== generation) {
      this.log(`[snapshots] dropped a ${list} answer for a profile that changed since it was asked`);
      return false;
    }
    entry.lists.delete(list);
    entry.lists.set(list, { value, asOf });
    while (entry.lists.size > this.maxLists) {
      const oldest = entry.lists.keys().next().value;
      if (oldest === undefined) break;
      entry.lists.delete(oldest);
    }
    return true;
  }

  /** Applies a change main learned of (an event) to every list of the profile that `match`es. */
  update<T>(profileId: string, match: (list: string) => boolean, change: (value: T) => T): void {
    const entry = this.profiles.get(profileId);
    if (!entry) return;
    for (const [list, snapshot] of entry.lists) {
      if (!match(list)) continue;
      const value = change(snapshot.value as T);
      if (value !== snapshot.value) entry.lists.set(list, { value, asOf: snapshot.asOf });
    }
  }

  /** Drops a profile's lists and starts a new generation: its account may have changed. */
  forget(profileId: string): void {
    this.generations += 1;
    const entry = this.entry(profileId);
    entry.generation = this.generations;
    entry.lists.clear();
    entry.reads.clear();
  }

  /**
   * Answers one list: from the snapshot at once when there is one (reading the service again in the
   * background when it is older than `freshForMs`), else (or with `fresh`) from the service. Reads of
   * one list are joined, never doubled.
   */
  async serve<T>(profileId: string, list: string, options: ServeOptions<T>): Promise<Served<T>> {
    const snapshot = this.get<T>(profileId, list);
    if (snapshot && !options.fresh) {
      if (this.options.now() - snapshot.asOf >= this.freshForMs) {
        void this.read(profileId, list, options).catch((error: unknown) => {
          this.log(`[snapshots] background read of ${list} failed: ${String(error)}`);
          const kept = this.get<T>(profileId, list);
          if (kept) options.failed?.(kept);
        });
      }
      return { ...snapshot, revalidating: this.revalidating(profileId, list) };
    }
    const read = await this.read(profileId, list, options);
    return { ...read, revalidating: false };
  }

  private read<T>(profileId: string, list: string, options: ServeOptions<T>): Promise<Snapshot<T>> {
    const entry = this.entry(profileId);
    const running = entry.reads.get(list);
    if (running) return running as Promise<Snapshot<T>>;
    const generation = entry.generation;
    const before = this.get<T>(profileId, list);
    // Outside the calling UI call: its Cancel and "still waiting" are not this read's.
    const promise = runWithCallOptions({}, options.read)
      .then((value) => {
        const asOf = this.options.now();
        if (this.store(profileId, list, value, generation, asOf) && before) {
          options.revalidated?.(before.value, value, asOf);
        }
        return { value, asOf };
      })
      .finally(() => {
        if (entry.reads.get(list) === promise) entry.reads.delete(list);
      });
    entry.reads.set(list, promise);
    return promise;
  }

  private entry(profileId: string): ProfileLists {
    let entry = this.profiles.get(profileId);
    if (!entry) {
      this.generations += 1;
      entry = { generation: this.generations, lists: new Map(), reads: new Map() };
      this.profiles.set(profileId, entry);
    }
    return entry;
  }
}
