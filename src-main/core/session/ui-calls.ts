import type { SlowCallInfo } from '../../api';
import type { EventSink } from '../events';

/** One UI call in flight, as the dispatcher runs it. */
export interface UiCallHandle {
  signal: AbortSignal;
  onSlow: (info: SlowCallInfo) => void;
  end: () => void;
}

/** The UI's calls that can still be cancelled, by the id the window gave each one. */
export interface UiCallRegistry {
  begin(callId: string, channel: string): UiCallHandle;
}

/**
 * Cancel and "still waiting…" for the UI's calls: the window names each call, the dispatcher runs its
 * handler with this call's signal (every request made for it inherits the signal), a request passing
 * its budget's slow point sends `app:callSlow`, and `app:cancelCall` aborts the call's requests.
 */
export class UiCalls implements UiCallRegistry {
  private readonly open = new Map<string, { controller: AbortController; channel: string }>();

  constructor(private readonly events: EventSink) {}

  begin(callId: string, channel: string): UiCallHandle {
    const controller = new AbortController();
    // A reused id (a window that restarted its counter) replaces the older call's entry only.
    this.open.set(callId, { controller, channel });
    let slowSent = false;
    return {
      signal: controller.signal,
      onSlow: (info) => {
        if (slowSent || controller.signal.aborted) return;
        slowSent = true;
        this.events.emit('app:callSlow', {
          callId,
          channel,
          elapsedMs: info.elapsedMs,
          budgetMs: info.budgetMs,
        });
      },
      end: () => {
        if (this.open.get(callId)?.controller === controller) this.open.delete(callId);
      },
    };
  }

  /** Aborts the call's requests; false when it already ended. */
  cancel(callId: string): boolean {
    const call = this.open.get(callId);
    if (!call) return false;
    this.open.delete(callId);
    call.controller.abort(new Error('Cancelled by the user.'));
    return true;
  }

  get size(): number {
    return this.open.size;
  }
}
