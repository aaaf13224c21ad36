import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/api';
import { selfHealer } from '../../../src-main/core/health/health-wiring';
import type { StoredCheck } from '../../../src-main/core/health/health-store';
import type { TargetStatus } from '../../../src-main/core/health/health-status';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';

const check = (ok: boolean): StoredCheck => ({
  at: 0,
  ok,
  status: ok ? 200 : 503,
  connectMs: 1,
  firstByteMs: 2,
  exitIp: ok ? '100.64.0.1' : null,
  asn: null,
  country: null,
  errorKind: ok ? null : 'unavailable',
  error: ok ? null : 'Modem offline',
});

const status = (failuresInARow: number): TargetStatus => ({
  status: failuresInARow >= 3 ? 'down' : 'up',
  since: 0,
  failuresInARow,
  successesInARow: failuresInARow === 0 ? 1 : 0,
});

function setup(afterFailures: number, rotate: () => Promise<unknown> = () => Promise.resolve()) {
  const rotations: string[] = [];
  const notices: string[] = [];
  const clock = new FakeClock();
  const feed = selfHealer({
    afterFailures: () => afterFailures,
    rotate: (_profile, portId) => {
      rotations.push(portId);
      return rotate();
    },
    clock,
    notice: (message) => notices.push(message),
    log: () => undefined,
  });
  const run = (failures: number[]) => {
    for (const n of failures) feed('p1', 'port_1', status(n), check(n === 0));
  };
  return { run, rotations, notices, clock };
}

describe('self-heal', () => {
  it('is off at 0', () => {
    const { run, rotations } = setup(0);
    run([1, 2, 3, 4, 5]);
    expect(rotations).toEqual([]);
  });

  it('rotates once after K failures in a row, says once if it did not help, and again only after a good check', async () => {
    const { run, rotations, notices } = setup(3);
    run([1, 2, 3]);
    await Promise.resolve();
    expect(rotations).toEqual(['port_1']);
    run([4]);
    expect(notices).toEqual([
      'Port port_1 still fails its health checks after a self-heal rotation: Modem offline.',
    ]);
    run([5, 6, 7, 8]);
    expect(rotations).toHaveLength(1);
    expect(notices).toHaveLength(1);
    run([0, 1, 2, 3]);
    expect(rotations).toHaveLength(2);
  });

  it('nothing to say when the rotation helped', () => {
    const { run, notices, rotations } = setup(2);
    run([1, 2, 0, 0]);
    expect(rotations).toHaveLength(1);
    expect(notices).toEqual([]);
  });

  it('waits out the cooldown the service names, then rotates once more', async () => {
    let first = true;
    const { run, rotations, clock } = setup(1, () => {
      if (!first) return Promise.resolve();
      first = false;
      return Promise.reject(
        new ApiError(
          {
            status: 429,
            code: 'rotation_too_soon',
            message: 'One rotation per 30 seconds',
            retryAfterMs: 12_000,
          },
          {
            endpoint: 'POST /v1/mobile/{portId}/rotate',
            attempts: 1,
            outcomeUnknown: false,
            affects: null,
            idempotencyKey: null,
          },
        ),
      );
    });
    run([1]);
    await clock.whenSleeping();
    expect(clock.sleepDurations).toEqual([12_000]);
    await clock.advance(12_000);
    expect(rotations).toEqual(['port_1', 'port_1']);
  });
});
