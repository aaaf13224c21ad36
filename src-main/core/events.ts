import type { EventChannel, EventPayload } from '../../src-shared/contract';

/** A transport's view: every event, to forward as it is (the preload, the web socket). */
export type AnyEventListener = (channel: EventChannel, payload: unknown) => void;

/** What a service needs to announce a change: only `emit`. */
export interface EventSink {
  emit<E extends EventChannel>(channel: E, payload: EventPayload<E>): void;
}

/**
 * The main process's typed event bus: channels and payloads come from the contract's events, so a
 * service cannot emit something the renderer does not expect. Listeners run synchronously in
 * subscription order; one that throws is logged and does not stop the others (or the emitter).
 */
export class EventBus implements EventSink {
  private readonly all = new Set<AnyEventListener>();
  private readonly byChannel = new Map<EventChannel, Set<(payload: unknown) => void>>();

  constructor(private readonly log: (line: string) => void = () => undefined) {}

  emit<E extends EventChannel>(channel: E, payload: EventPayload<E>): void {
    for (const listener of [...this.all]) this.run(channel, () => listener(channel, payload));
    for (const listener of [...(this.byChannel.get(channel) ?? [])])
      this.run(channel, () => listener(payload));
  }

  /** One channel, typed; returns the unsubscribe function. */
  on<E extends EventChannel>(channel: E, listener: (payload: EventPayload<E>) => void): () => void {
    let listeners = this.byChannel.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.byChannel.set(channel, listeners);
    }
    const entry = listener as (payload: unknown) => void;
    listeners.add(entry);
    return () => {
      listeners.delete(entry);
    };
  }

  /** Every channel; for transports that forward events to a window or a socket. */
  subscribe(listener: AnyEventListener): () => void {
    this.all.add(listener);
    return () => {
      this.all.delete(listener);
    };
  }

  clear(): void {
    this.all.clear();
    this.byChannel.clear();
  }

  private run(channel: string, deliver: () => void): void {
    try {
      deliver();
    } catch (error) {
      this.log(`listener of ${channel} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
