import { runWithCallOptions } from '../../api/call-context';
import type { HeldListStore } from './held-lists';
import { diffById } from './diff-by-id';

/** A list as main serves it: the items, when they were read (epoch ms), whether they are read again now. */
export interface ServedList<T> {
  items: readonly T[];
  readAt: number;
  revalidating: boolean;
}

/** What a read of the whole list changed, for the windows; `asOf` is when main read it (ISO 8601). */
interface ListChange<T> {
  changed: T[];
  removed: string[];
  asOf: string;
}

export interface SnapshotListOptions<T extends { id: string }> {
  /** Main's snapshot of this list per profile (`HeldAccountData`), shared with the overview. */
  held: HeldListStore<T>;
  now: () => number;
  /** Reads the whole list of a profile from the service. */
  read: (profileId: string, priority: 'interactive' | 'background') => Promise<T[]>;
  /** Tells the windows what a read changed (the list's `changed` event). */
  announce: (profileId: string, change: ListChange<T>) => void;
  /** A snapshot younger than this is served without reading the service again. Default 5 s. */
  freshForMs?: number;
  log?: (line: string) => void;
  /** Names the list in the log. */
  name: string;
}

const FRESH_FOR_MS = 5_000;

/**
 * One list of every profile answered stale-while-revalidate from main's snapshot: at once when main
 * holds it (read again behind the answer when older than `freshForMs`), from the service when it does
 * not yet or the caller asks for `fresh`. Every whole read is recorded in the snapshot and the windows
 * hear what it changed: only the items that differ, the ids gone, and the list's new age.
 */
export class SnapshotList<T extends { id: string }> {
  private readonly freshForMs: number;
  private readonly log: (line: string) => void;

  constructor(private readonly options: SnapshotListOptions<T>) {
    this.freshForMs = options.freshForMs ?? FRESH_FOR_MS;
    this.log = options.log ?? (() => undefined);
  }

  /** The list for a screen (see the class). */
  async serve(profileId: string, fresh: boolean): Promise<ServedList<T>> {
    const { held } = this.options;
    const kept = fresh ? null : held.get(profileId, Number.NEGATIVE_INFINITY);
    if (kept) {
      if (this.options.now() - kept.readAt >= this.freshForMs) this.revalidate(profileId);
      return { ...kept, revalidating: held.reading(profileId) };
    }
    const items = await this.readWhole(profileId, 'interactive');
    const readAt = held.get(profileId, Number.NEGATIVE_INFINITY)?.readAt ?? this.options.now();
    return { items, readAt, revalidating: false };
  }

  /**
   * What main holds, however old; null when it holds nothing for the profile. `revalidate`: a screen
   * shows it (the first state of a window), so an old one is read again behind it, as `serve` does.
   */
  peek(profileId: string, revalidate = false): ServedList<T> | null {
    const kept = this.options.held.get(profileId, Number.NEGATIVE_INFINITY);
    if (!kept) return null;
    if (revalidate && this.options.now() - kept.readAt >= this.freshForMs) this.revalidate(profileId);
    return { ...kept, revalidating: this.options.held.reading(profileId) };
  }

  /**
   * One read of the whole list (joined with one under way: that one announces), recorded in the
   * snapshot; the windows hear what it changed. With no snapshot before, a background read announces
   * every item (nothing on a screen came from main yet) and an interactive one none (its caller gets
   * them as the answer).
   */
  async readWhole(profileId: string, priority: 'interactive' | 'background'): Promise<T[]> {
    const { held, now } = this.options;
    const joining = held.reading(profileId);
    const before = held.get(profileId, Number.NEGATIVE_INFINITY);
    const items = await held.read(profileId, () => this.options.read(profileId, priority), now);
    if (joining) return items;
    const asOf = new Date(held.get(profileId, Number.NEGATIVE_INFINITY)?.readAt ?? now()).toISOString();
    if (before) this.options.announce(profileId, { ...diffById(before.items, items), asOf });
    else if (priority === 'background')
      this.options.announce(profileId, { changed: items, removed: [], asOf });
    return items;
  }

  /** A background read behind an answer from the snapshot: outside the caller's Cancel. */
  private revalidate(profileId: string): void {
    if (this.options.held.reading(profileId)) return;
    void runWithCallOptions({}, () => this.readWhole(profileId, 'background')).catch((error: unknown) => {
      this.log(`[${this.options.name}] reading the list again behind the snapshot failed: ${String(error)}`);
      // The windows were told it is being read: now they hear it stays as old as it was.
      const kept = this.options.held.get(profileId, Number.NEGATIVE_INFINITY);
      if (kept)
        this.options.announce(profileId, {
          changed: [],
          removed: [],
          asOf: new Date(kept.readAt).toISOString(),
        });
    });
  }
}
