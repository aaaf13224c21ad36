import type { MobilePortView, ProxyTestResult } from '../../../src-shared/contract';
import type { Subscription, TopUp } from '../../../src-shared/api-types';
import type { EventBus } from '../events';

/** A whole list as last read for one profile, kept current by the changes main announces. */
export interface HeldList<T> {
  items: T[];
  /** Epoch ms of the last whole read. */
  readAt: number;
}

/**
 * One kind of list per profile. Only a whole read (`record`) makes a list held; a change event
 * (`merge`) updates a held list in place and is ignored otherwise, since a few changed items say
 * nothing about the rest of the account.
 */
export class HeldListStore<T extends { id: string }> {
  private readonly lists = new Map<string, { items: Map<string, T>; readAt: number }>();

  record(profileId: string, items: readonly T[], readAt: number): void {
    this.lists.set(profileId, { items: new Map(items.map((item) => [item.id, item])), readAt });
  }

  merge(profileId: string, changed: readonly T[]): void {
    const list = this.lists.get(profileId);
    if (!list) return;
    for (const item of changed) list.items.set(item.id, item);
  }

  /** The held list when it was read at or after `notBefore` (epoch ms); null otherwise. */
  get(profileId: string, notBefore: number): HeldList<T> | null {
    const list = this.lists.get(profileId);
    if (!list || list.readAt < notBefore) return null;
    return { items: [...list.items.values()], readAt: list.readAt };
  }

  forget(profileId: string): void {
    this.lists.delete(profileId);
  }
}

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

/** What main holds for the overview, kept current by the events every change already sends. */
export class HeldAccountData {
  readonly ports = new HeldListStore<MobilePortView>();
  readonly subscriptions = new HeldListStore<Subscription>();
  readonly topUps = new SeenTopUps();
  readonly proxyTests = new LastProxyTests();

  /** Listens to the change events; answers the function that stops listening. */
  listen(events: Pick<EventBus, 'on'>): () => void {
    const stops = [
      events.on('ports:changed', ({ profileId, changed }) => this.ports.merge(profileId, changed)),
      events.on('subscriptions:changed', ({ profileId, changed }) =>
        this.subscriptions.merge(profileId, changed),
      ),
      events.on('topups:changed', ({ profileId, changed }) => this.topUps.note(profileId, changed)),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }
}
