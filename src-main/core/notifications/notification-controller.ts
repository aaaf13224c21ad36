import type { Clock } from '../runtime/clock';
import type { NotificationKind, NotificationProvider, OsNotice } from './notification-kinds';

/** Where notices go: the shell's `Notification` (desktop), nothing in web mode. */
export interface OsNotifier {
  show(notice: OsNotice): void;
}

export type NoticeOutcome = 'shown' | 'declined' | 'disabled' | 'focused' | 'duplicate' | 'throttled';

export interface NotificationControllerOptions {
  clock: Pick<Clock, 'now'>;
  notifier: OsNotifier;
  /** The user's choice per kind (Settings). */
  isEnabled: (kind: NotificationKind) => boolean;
  /** True while an app window has focus: the user sees the change in the window already. */
  isWindowFocused: () => boolean;
  /** A key shown within this window is not shown again. Default 60 s. */
  dedupeMs?: number;
  /** At most `throttleCount` notices per `throttleMs` (a group of 50 ports rotating). Default 5 per 10 s. */
  throttleMs?: number;
  throttleCount?: number;
}

/**
 * The one place OS notifications pass through: providers say whether their event deserves one,
 * this controller applies the user's per-kind choice, suppresses notices while a window is
 * focused, shows one notice per dedupe key and throttles bursts.
 */
export class NotificationController {
  private readonly recentKeys = new Map<string, number>();
  private shownAt: number[] = [];
  private readonly dedupeMs: number;
  private readonly throttleMs: number;
  private readonly throttleCount: number;

  constructor(private readonly options: NotificationControllerOptions) {
    this.dedupeMs = options.dedupeMs ?? 60_000;
    this.throttleMs = options.throttleMs ?? 10_000;
    this.throttleCount = options.throttleCount ?? 5;
  }

  /** Passes `event` through `provider` and, when every rule allows, to the OS. */
  notify<Event>(provider: NotificationProvider<Event>, event: Event): NoticeOutcome {
    if (!provider.mayDisplay(event)) return 'declined';
    const notice = provider.build(event);
    if (!this.options.isEnabled(notice.kind)) return 'disabled';
    if (this.options.isWindowFocused()) return 'focused';
    const now = this.options.clock.now();
    this.forgetOlderThan(now);
    if (this.recentKeys.has(notice.dedupeKey)) return 'duplicate';
    if (this.shownAt.length >= this.throttleCount) return 'throttled';
    this.recentKeys.set(notice.dedupeKey, now);
    this.shownAt.push(now);
    this.options.notifier.show(notice);
    return 'shown';
  }

  private forgetOlderThan(now: number): void {
    for (const [key, at] of this.recentKeys) if (now - at >= this.dedupeMs) this.recentKeys.delete(key);
    this.shownAt = this.shownAt.filter((at) => now - at < this.throttleMs);
  }
}
