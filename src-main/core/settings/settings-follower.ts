import type { Lifecycle } from '../domain-service';
import type { Clock } from '../runtime/clock';
import type { SettingsStore } from './settings-store';

/** How often every process looks for a settings file another process saved. */
export const SETTINGS_FOLLOW_MS = 1_000;

/**
 * The desktop app and web mode share `settings.json`. What one saves reaches the other within a
 * second: every process re-reads the file on this beat (a small file, compared as text, adopted only
 * when it changed), so the job owner's poller and alerts follow a change made in the other
 * process's window, and its windows are told. Runs in every process, owner or not.
 */
export class SettingsFollower implements Lifecycle {
  readonly name = 'settings follower';
  private controller: AbortController | null = null;

  constructor(
    private readonly store: Pick<SettingsStore, 'reload'>,
    private readonly clock: Clock,
    private readonly log: (line: string) => void = () => undefined,
    private readonly intervalMs = SETTINGS_FOLLOW_MS,
  ) {}

  start(): void {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    void this.follow(controller.signal);
  }

  stop(): void {
    this.controller?.abort();
    this.controller = null;
  }

  private async follow(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.clock.sleep(this.intervalMs, signal);
      } catch {
        return;
      }
      await this.store.reload().catch((error: unknown) => {
        this.log(
          `settings: cannot re-read the file: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    }
  }
}
