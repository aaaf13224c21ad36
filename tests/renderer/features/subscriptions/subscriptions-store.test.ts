import { describe, expect, it } from 'vitest';
import { concurrencyLimit } from '../../../../src-renderer/src/features/subscriptions/subscriptions-store';

describe('concurrencyLimit', () => {
  it('runs at most N at once, the rest in the order asked as slots free, and hands back each answer', async () => {
    const limit = concurrencyLimit(2);
    let active = 0;
    let most = 0;
    const started: number[] = [];
    const release: (() => void)[] = [];
    const job = (id: number) =>
      limit(async () => {
        started.push(id);
        active += 1;
        most = Math.max(most, active);
        await new Promise<void>((resolve) => release.push(resolve));
        active -= 1;
        return id;
      });
    const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
    const done = [job(1), job(2), job(3), job(4), job(5)];
    await flush();
    expect(started).toEqual([1, 2]);
    release.shift()?.();
    await flush();
    expect(started).toEqual([1, 2, 3]);
    while (release.length > 0) {
      release.shift()?.();
      await flush();
    }
    expect(await Promise.all(done)).toEqual([1, 2, 3, 4, 5]);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });
});
