/**
 * The sandbox's notion of time. In `real` mode it follows the wall clock plus an offset that
 * `advance` grows (the demo: limits expire as the user waits). In `manual` mode it only moves
 * when told to (tests: nothing depends on how long a test takes).
 */
export type ClockMode = 'real' | 'manual';

export interface ClockSnapshot {
  mode: ClockMode;
  /** Manual mode: the current time. Real mode: the offset added to the wall clock. */
  valueMs: number;
  /** The latest time handed out, so that a restart never goes back even if the wall clock did. */
  notBeforeMs?: number;
}

export class SandboxClock {
  private valueMs: number;
  private lastReadMs = 0;

  constructor(
    readonly mode: ClockMode,
    private readonly wallClock: () => number = Date.now,
    startMs?: number,
  ) {
    this.valueMs =
      mode === 'manual' ? (startMs ?? wallClock()) : startMs === undefined ? 0 : startMs - wallClock();
  }

  static restore(snapshot: ClockSnapshot, wallClock: () => number = Date.now): SandboxClock {
    const clock = new SandboxClock(snapshot.mode, wallClock);
    clock.valueMs = snapshot.valueMs;
    clock.lastReadMs = snapshot.notBeforeMs ?? 0;
    return clock;
  }

  /** Epoch ms. Never goes backwards, even if the wall clock does. */
  now(): number {
    const raw = this.mode === 'manual' ? this.valueMs : this.wallClock() + this.valueMs;
    this.lastReadMs = Math.max(this.lastReadMs, raw);
    return this.lastReadMs;
  }

  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('advanceSeconds must be >= 0');
    this.valueMs += Math.round(seconds * 1000);
  }

  snapshot(): ClockSnapshot {
    return { mode: this.mode, valueMs: this.valueMs, notBeforeMs: this.lastReadMs };
  }
}
