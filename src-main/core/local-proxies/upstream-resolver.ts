import type { Upstream, UpstreamSource } from './upstream';

/** An upstream as read from the service or an event, before it gets its generation. */
export type UpstreamCredentials = Omit<Upstream, 'generation'>;

export interface UpstreamResolverOptions {
  /** Reads the target from the service (the port, or the subscription and its sub-user). */
  read: () => Promise<UpstreamCredentials>;
  now: () => number;
  /**
   * After a 407 the target is read again at most this often; failures in between retry with what
   * the last read found, so 200 tools failing at once make one API call, not 200.
   */
  minRereadMs?: number;
  /** Told when the upstream changes (the screen shows its host and port). */
  onChange?: () => void;
}

const MIN_REREAD_MS = 5_000;

function same(a: UpstreamCredentials, b: UpstreamCredentials): boolean {
  return a.host === b.host && a.port === b.port && a.username === b.username && a.password === b.password;
}

/**
 * Keeps one local proxy's upstream: read from the service when first needed, replaced at once by
 * what the app's own events say (a password reset, a sub-user's new password, a relocation), and
 * read again, single-flight, when the upstream refuses what it has (a change made outside the app).
 */
export class UpstreamResolver implements UpstreamSource {
  private value: Upstream | null = null;
  private generation = 0;
  private reading: Promise<Upstream> | null = null;
  private lastReadAt = Number.NEGATIVE_INFINITY;
  /** Bumped by every event; a read that started before one does not overwrite what it brought. */
  private applied = 0;

  constructor(private readonly options: UpstreamResolverOptions) {}

  /** Host and port of the upstream as last known (never the credentials). */
  get endpoint(): { host: string; port: number } | null {
    return this.value ? { host: this.value.host, port: this.value.port } : null;
  }

  current(): Promise<Upstream> {
    return this.value ? Promise.resolve(this.value) : this.read();
  }

  refresh(used: Upstream): Promise<Upstream> {
    if (this.value && this.value.generation > used.generation) return Promise.resolve(this.value);
    if (this.reading) return this.reading;
    const minReread = this.options.minRereadMs ?? MIN_REREAD_MS;
    if (this.value && this.options.now() - this.lastReadAt < minReread) return Promise.resolve(this.value);
    return this.read();
  }

  /** What an event says the upstream is now; requests from here on use it. */
  apply(credentials: UpstreamCredentials): void {
    this.applied += 1;
    this.set(credentials);
  }

  /** A change of part of it (a subscription's endpoint, a sub-user's password) when the rest is known. */
  update(change: Partial<UpstreamCredentials>): void {
    if (!this.value) return;
    this.apply({ ...this.value, ...change });
  }

  /** Forgets it (the target changed or is gone): the next request reads it again. */
  invalidate(): void {
    this.applied += 1;
    if (this.value === null) return;
    this.value = null;
    this.options.onChange?.();
  }

  private read(): Promise<Upstream> {
    if (this.reading) return this.reading;
    const appliedAtStart = this.applied;
    const reading = this.options
      .read()
      .then((credentials) => {
        this.lastReadAt = this.options.now();
        // An event that came while the read was under way is at least as new as the answer.
        if (this.applied === appliedAtStart || !this.value) this.set(credentials);
        return this.value ?? this.set(credentials);
      })
      .finally(() => {
        if (this.reading === reading) this.reading = null;
      });
    this.reading = reading;
    return reading;
  }

  private set(credentials: UpstreamCredentials): Upstream {
    if (this.value && same(this.value, credentials)) return this.value;
    this.generation += 1;
    this.value = { ...credentials, generation: this.generation };
    this.options.onChange?.();
    return this.value;
  }
}
