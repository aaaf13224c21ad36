import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../src/sandbox-clock';
import { TestSandbox } from '../src/testing';

const START = Date.UTC(2026, 2, 10, 12);

/** A wall clock the test moves by hand. */
function fakeWall(start = START) {
  let now = start;
  return {
    read: () => now,
    set: (ms: number) => {
      now = ms;
    },
  };
}

describe('SandboxClock', () => {
  it('manual: starts at the start time and moves only when advanced', () => {
    const wall = fakeWall();
    const clock = new SandboxClock('manual', wall.read, START - 5_000);
    wall.set(START + 3_600_000);
    expect(clock.now()).toBe(START - 5_000);
    clock.advance(90);
    expect(clock.now()).toBe(START - 5_000 + 90_000);
  });

  it('manual: starts at the wall time when no start time is given', () => {
    expect(new SandboxClock('manual', fakeWall().read).now()).toBe(START);
  });

  it('real: follows the wall clock, shifted to the start time, plus every advance', () => {
    const wall = fakeWall();
    const clock = new SandboxClock('real', wall.read, START - 86_400_000);
    expect(clock.now()).toBe(START - 86_400_000);
    wall.set(START + 10_000);
    expect(clock.now()).toBe(START - 86_400_000 + 10_000);
    clock.advance(60);
    expect(clock.now()).toBe(START - 86_400_000 + 70_000);
  });

  it('real: is the wall clock itself without a start time', () => {
    const wall = fakeWall();
    const clock = new SandboxClock('real', wall.read);
    wall.set(START + 1);
    expect(clock.now()).toBe(START + 1);
  });

  it('never goes backwards, even when the wall clock does', () => {
    const wall = fakeWall();
    const clock = new SandboxClock('real', wall.read);
    wall.set(START + 60_000);
    expect(clock.now()).toBe(START + 60_000);
    wall.set(START);
    expect(clock.now()).toBe(START + 60_000);
    wall.set(START + 61_000);
    expect(clock.now()).toBe(START + 61_000);
  });

  it('refuses a negative or non-finite advance', () => {
    const clock = new SandboxClock('manual', fakeWall().read);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(clock.now()).toBe(START);
  });

  it('restores a manual snapshot at the same time', () => {
    const clock = new SandboxClock('manual', fakeWall().read, START);
    clock.advance(120);
    const restored = SandboxClock.restore(clock.snapshot(), fakeWall(START + 999_999).read);
    expect(restored.mode).toBe('manual');
    expect(restored.now()).toBe(START + 120_000);
  });

  it('restores a real snapshot as an offset: time kept passing while it was stopped', () => {
    const wall = fakeWall();
    const clock = new SandboxClock('real', wall.read, START - 3_600_000);
    clock.advance(60);
    const snapshot = clock.snapshot();
    const later = fakeWall(START + 600_000);
    const restored = SandboxClock.restore(snapshot, later.read);
    expect(restored.now()).toBe(START - 3_600_000 + 60_000 + 600_000);
  });

  it('restores the latest time handed out, so a restart never goes back', () => {
    const wall = fakeWall();
    const clock = new SandboxClock('real', wall.read);
    clock.advance(0);
    wall.set(START + 50_000);
    clock.now();
    const restored = SandboxClock.restore(clock.snapshot(), fakeWall(START).read);
    expect(restored.now()).toBe(START + 50_000);
  });
});

describe('sandbox clock over HTTP in real mode', () => {
  it('follows the injected wall clock and the control offset', async () => {
    const wall = fakeWall();
    const sandbox = await TestSandbox.start({ clock: 'real', wallClock: wall.read, startTime: START });
    try {
      expect(await sandbox.control('GET', '/clock').then((a) => a.json)).toEqual({
        now: new Date(START).toISOString(),
        mode: 'real',
      });
      wall.set(START + 30_000);
      expect(await sandbox.now()).toBe(new Date(START + 30_000).toISOString());
      expect(await sandbox.advance(60)).toBe(new Date(START + 90_000).toISOString());
      wall.set(START + 40_000);
      expect(await sandbox.now()).toBe(new Date(START + 100_000).toISOString());
    } finally {
      await sandbox.close();
    }
  });
});
