import { describe, expect, it } from 'vitest';
import { HeldSubUsers, type SubUsersSnapshot } from '../../../src-main/core/snapshots/held-lists';

const listOf = (label: string): SubUsersSnapshot => ({
  data: [
    {
      id: 'su_1',
      label,
      username: 'u1',
      password: `pw-${label}`,
      trafficLimitBytes: null,
      trafficUsedBytes: 0,
      enabled: true,
      createdAt: '2026-03-02T00:00:00.000Z',
    },
  ],
  limit: 20,
});

function deferred() {
  let resolve: (list: SubUsersSnapshot) => void = () => undefined;
  const promise = new Promise<SubUsersSnapshot>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('HeldSubUsers: the re-read after a write', () => {
  it('does not join a read under way, and that older read landing last does not put its list back', async () => {
    const held = new HeldSubUsers();
    const older = deferred();
    const newer = deferred();
    const first = held.read(
      'p',
      'sub_1',
      () => older.promise,
      () => 1,
    );
    const second = held.read(
      'p',
      'sub_1',
      () => newer.promise,
      () => 2,
      false,
    );
    expect(second).not.toBe(first);
    newer.resolve(listOf('after the write'));
    await second;
    older.resolve(listOf('before the write'));
    await first;
    expect(held.get('p', 'sub_1')).toEqual({ view: listOf('after the write'), readAt: 2 });
  });

  it('a read asked for while one is under way joins it', () => {
    const held = new HeldSubUsers();
    const running = deferred();
    const first = held.read(
      'p',
      'sub_1',
      () => running.promise,
      () => 1,
    );
    expect(
      held.read(
        'p',
        'sub_1',
        () => Promise.resolve(listOf('other')),
        () => 2,
      ),
    ).toBe(first);
  });
});
