import type { MobilePortView, ProxyTestResult } from '../../../src-shared/contract';
import type { SubUser, Subscription, TopUp } from '../../../src-shared/api-types';
import type { EventBus } from '../events';

/** A whole list as last read for one profile, kept current by the changes main announces. */
export interface HeldList<T> {
  items: T[];
  /** Epoch ms of the last whole read. */
  readAt: number;
}

interface ProfileList<T> {
  items: Map<string, T>;
  readAt: number;
}

/**
 * One kind of list per profile: main's snapshot of it, which the overview and the list channels
 * (`ports:list`, `subscriptions:list`) both read. Only a whole read (`record`, `read`) makes a list
 * held; a change event (`merge`) updates a held list in place and is ignored otherwise, since a few
 * changed items say nothing about the rest of the account.
 *
 * Account guard: a profile whose key or base URL changed, or that was deleted, is `forget`-ten: its
 * list goes and a read started before that is not recorded when it lands (it is another account's).
 */
export class HeldListStore<T extends { id: string }> {
  private readonly lists = new Map<string, ProfileList<T>>();
  private readonly reads = new Map<string, Promise<T[]>>();
  private readonly generations = new Map<string, number>();

  record(profileId: string, items: readonly T[], readAt: number): void {
    this.lists.set(profileId, { items: new Map(items.map((item) => [item.id, item])), readAt });
  }

  /** Items changed (replaced or added) and ids gone, in a held list; nothing when none is held. */
  merge(profileId: string, changed: readonly T[], removed: readonly string[] = []): void {
    const list = this.lists.get(profileId);
    if (!list) return;
    for (const item of changed) list.items.set(item.id, item);
    for (const id of removed) list.items.delete(id);
  }

  /** The held list when it was read at or after `notBefore` (epoch ms); null otherwise. */
  get(profileId: string, notBefore: number): HeldList<T> | null {
    const list = this.lists.get(profileId);
    if (!list || list.readAt < notBefore) return null;
    return { items: [...list.items.values()], readAt: list.readAt };
  }

  /** The profiles whose list is held. */
  profiles(): string[] {
    return [...this.lists.keys()];
  }

  /** Whether a whole read of the profile's list is under way (`read`). */
  reading(profileId: string): boolean {
    return this.reads.has(profileId);
  }

  /**
   * One whole read of the profile's list, recorded when it lands (at `now()`), unless the profile
   * was forgotten meanwhile. A read asked for while one is under way joins it.
   */
  read(profileId: string, run: () => Promise<readonly T[]>, now: () => number): Promise<T[]> {
    const running = this.reads.get(profileId);
    if (running) return running;
    const generation = this.generations.get(profileId) ?? 0;
    const promise = run()
      .then((items) => {
        if ((this.generations.get(profileId) ?? 0) === generation) this.record(profileId, items, now());
        return [...items];
      })
      .finally(() => {
        if (this.reads.get(profileId) === promise) this.reads.delete(profileId);
      });
    this.reads.set(profileId, promise);
    return promise;
  }

  forget(profileId: string): void {
    this.lists.delete(profileId);
    this.reads.delete(profileId);
    this.generations.set(profileId, (this.generations.get(profileId) ?? 0) + 1);
  }
}

/**
 * One subscription's sub-users whole, with their passwords, as main reads them: the local proxies,
 * the credential export and the proxy strings need those. The surfaces get the rows only
 * (`SubUsersListView`).
 */
export interface SubUsersSnapshot {
  data: SubUser[];
  limit: number | null;
}

/** One subscription's sub-users as last read (`subscriptions:subUsers`), and when. */
export interface HeldSubUserList {
  view: SubUsersSnapshot;
  readAt: number;
}

/**
 * Each subscription's sub-users as main last read them, for the most recently used few (a list may
 * hold thousands): the sub-user screen is answered from here at once and read again behind it.
 * Kept current by the subscriptions service's own reads (after every write too: the events carry
 * rows without passwords, which could not replace a whole list); forgotten with the profile.
 */
export class HeldSubUsers {
  private readonly lists = new Map<string, HeldSubUserList>();
  private readonly reads = new Map<string, Promise<SubUsersSnapshot>>();
  /** Reads started per list, to tell the newest. */
  private readonly started = new Map<string, number>();
  private readonly generations = new Map<string, number>();

  constructor(private readonly limit = 8) {}

  get(profileId: string, subscriptionId: string): HeldSubUserList | null {
    return this.lists.get(keyOf(profileId, subscriptionId)) ?? null;
  }

  reading(profileId: string, subscriptionId: string): boolean {
    return this.reads.has(keyOf(profileId, subscriptionId));
  }

  /** A whole list main learned of; `readAt` stays when not given. */
  record(profileId: string, subscriptionId: string, view: SubUsersSnapshot, readAt?: number): void {
    const key = keyOf(profileId, subscriptionId);
    const previous = this.lists.get(key);
    if (readAt === undefined && !previous) return;
    this.lists.delete(key);
    this.lists.set(key, { view, readAt: readAt ?? previous?.readAt ?? 0 });
    // Oldest used first in a Map: drop those beyond the limit.
    for (const oldest of this.lists.keys()) {
      if (this.lists.size <= this.limit) break;
      this.lists.delete(oldest);
    }
  }

  /**
   * One read of a list, recorded unless the profile was forgotten meanwhile. It joins one under way,
   * unless `join` is false: after a write, a read that started before it may not show it.
   */
  read(
    profileId: string,
    subscriptionId: string,
    run: () => Promise<SubUsersSnapshot>,
    now: () => number,
    join = true,
  ): Promise<SubUsersSnapshot> {
    const key = keyOf(profileId, subscriptionId);
    const running = this.reads.get(key);
    if (running && join) return running;
    const generation = this.generations.get(profileId) ?? 0;
    const started = (this.started.get(key) ?? 0) + 1;
    this.started.set(key, started);
    const promise = run()
      .then((view) => {
        // An older read landing after a newer one (not joined) must not put its list back.
        if ((this.generations.get(profileId) ?? 0) === generation && this.started.get(key) === started)
          this.record(profileId, subscriptionId, view, now());
        return view;
      })
      .finally(() => {
        if (this.reads.get(key) === promise) this.reads.delete(key);
      });
    this.reads.set(key, promise);
    return promise;
  }

  forget(profileId: string): void {
    const prefix = keyOf(profileId, '');
    for (const key of [...this.lists.keys(), ...this.reads.keys()]) {
      if (key.startsWith(prefix)) {
        this.lists.delete(key);
        this.reads.delete(key);
      }
    }
    this.generations.set(profileId, (this.generations.get(profileId) ?? 0) + 1);
  }
}

const keyOf = (profileId: string, subscriptionId: string) => `${profileId}\n${subscriptionId}`;

/** Top-ups main has seen (created, read by the watcher, declared), by id; never a whole list. */
class SeenTopUps {
  private readonly byProfile = new Map<string, Map<string, TopUp>>();

  constructor(private readonly limit = 500) {}

  note(profileId: string, topUps: readonly TopUp[]): void {
    let seen = this.byProfile.get(profileId);
    if (!seen) {
      seen = new Map();
      this.byProfile.set(profileId, seen);
    }
    for (const topUp of topUps) {
      seen.delete(topUp.id);
      seen.set(topUp.id, topUp);
    }
    // Oldest noted first in a Map: drop those beyond the limit.
    for (const id of seen.keys()) {
      if (seen.size <= this.limit) break;
      seen.delete(id);
    }
  }

  get(profileId: string, topUpId: string): TopUp | undefined {
    return this.byProfile.get(profileId)?.get(topUpId);
  }
}

/**
 * The last proxy test of each port, per profile, as the proxy test service reports them. In memory
 * only: a restart forgets them (the next test tells again).
 */
class LastProxyTests {
  private readonly byProfile = new Map<string, Map<string, ProxyTestResult>>();

  record(profileId: string, result: ProxyTestResult): void {
    if (result.target.kind !== 'port') return;
    let tests = this.byProfile.get(profileId);
    if (!tests) {
      tests = new Map();
      this.byProfile.set(profileId, tests);
    }
    const previous = tests.get(result.target.portId);
    // Results of one "Test all" may arrive out of order: the later test wins.
    if (previous && Date.parse(previous.checkedAt) > Date.parse(result.checkedAt)) return;
    tests.set(result.target.portId, result);
  }

  /** The ports whose last test failed. */
  failed(profileId: string): ProxyTestResult[] {
    return [...(this.byProfile.get(profileId)?.values() ?? [])].filter((result) => !result.ok);
  }
}

/**
 * Main's snapshots per profile: the last known ports and subscriptions (whole lists, as the list
 * screens, the background jobs and the overview read them), the top-ups main has seen, and the last
 * proxy tests; kept current by the events every change already sends. The one store both the
 * overview and the list channels read (`ports:list` and `subscriptions:list` answer from it at once
 * and read again behind it).
 */
export class HeldAccountData {
  readonly ports = new HeldListStore<MobilePortView>();
  readonly subscriptions = new HeldListStore<Subscription>();
  readonly subUsers = new HeldSubUsers();
  readonly topUps = new SeenTopUps();
  /**
   * The account's open top-ups (awaiting payment or verifying) as last listed, kept current by
   * `topups:changed` (a top-up created here joins it, a status read updates it): the overview, the
   * tray and the watcher's start share this one list read.
   */
  readonly openTopUps = new HeldListStore<TopUp>();
  readonly proxyTests = new LastProxyTests();

  /** Listens to the change events; answers the function that stops listening. */
  listen(events: Pick<EventBus, 'on'>): () => void {
    const stops = [
      events.on('ports:changed', ({ profileId, changed, removed }) =>
        this.ports.merge(profileId, changed, removed),
      ),
      events.on('subscriptions:changed', ({ profileId, changed, removed }) =>
        this.subscriptions.merge(profileId, changed, removed),
      ),
      events.on('topups:changed', ({ profileId, changed }) => {
        this.topUps.note(profileId, changed);
        this.openTopUps.merge(profileId, changed);
      }),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }

  /**
   * Forgets a profile's lists when its account may have changed (a new key or base URL) or it is
   * deleted: what was held belonged to another account.
   */
  followProfiles(
    onChange: (listener: (change: { profileId: string; kind: string }) => void) => unknown,
  ): void {
    onChange(({ profileId, kind }) => {
      if (kind === 'key' || kind === 'connection' || kind === 'deleted') this.forget(profileId);
    });
  }

  /** A port's label as last held, for a notification about it; null when not held. */
  portLabel(profileId: string, portId: string): string | null {
    return (
      this.ports.get(profileId, Number.NEGATIVE_INFINITY)?.items.find((port) => port.id === portId)?.label ??
      null
    );
  }

  /** The profile's account may have changed (key, base URL) or it is gone: its lists go. */
  forget(profileId: string): void {
    this.ports.forget(profileId);
    this.subscriptions.forget(profileId);
    this.subUsers.forget(profileId);
    this.openTopUps.forget(profileId);
  }
}
