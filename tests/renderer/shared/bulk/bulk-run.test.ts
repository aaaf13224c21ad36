import { describe, expect, it } from 'vitest';
import {
  runBulk,
  type BulkOutcome,
  type BulkProgress,
} from '../../../../src-renderer/src/shared/bulk/bulk-run';

const items = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: `p${index + 1}`, name: `Port ${index + 1}` }));

/** A chunk runner the test answers by hand, one call at a time. */
function manualRunner() {
  const calls: { ids: string[]; answer: (outcomes: BulkOutcome[]) => void; fail: (error: Error) => void }[] =
    [];
  const runChunk = (ids: string[]) =>
    new Promise<BulkOutcome[]>((resolve, reject) => calls.push({ ids, answer: resolve, fail: reject }));
  return { calls, runChunk };
}
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('runBulk', () => {
  it('sends chunks a few at a time, and counts done, failed and in flight as answers come', async () => {
    const runner = manualRunner();
    const seen: BulkProgress[] = [];
    const run = runBulk({
      items: items(7),
      chunkSize: 3,
      concurrency: 2,
      runChunk: runner.runChunk,
      onProgress: (progress) => seen.push(progress),
      isCancelled: () => false,
    });
    await flush();
    expect(runner.calls.map((call) => call.ids)).toEqual([
      ['p1', 'p2', 'p3'],
      ['p4', 'p5', 'p6'],
    ]);
    expect(seen.at(-1)).toMatchObject({ done: 0, failed: 0, inFlight: ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'] });
    runner.calls[0]!.answer([
      { id: 'p1', ok: true },
      { id: 'p2', ok: false, reason: 'Rotation limit' },
      { id: 'p3', ok: true },
    ]);
    await flush();
    // The third chunk starts as soon as one of the two calls is answered.
    expect(runner.calls.map((call) => call.ids)).toHaveLength(3);
    expect(seen.at(-1)).toMatchObject({
      done: 2,
      failed: 1,
      inFlight: ['p4', 'p5', 'p6', 'p7'],
      running: true,
    });
    runner.calls[1]!.fail(new Error('Network down'));
    runner.calls[2]!.answer([]);
    const final = await run;
    expect(final).toMatchObject({ total: 7, done: 2, failed: 5, cancelled: 0, inFlight: [], running: false });
    expect(final.failures).toEqual([
      { id: 'p2', name: 'Port 2', reason: 'Rotation limit' },
      { id: 'p4', name: 'Port 4', reason: 'Network down' },
      { id: 'p5', name: 'Port 5', reason: 'Network down' },
      { id: 'p6', name: 'Port 6', reason: 'Network down' },
      // An item the answer left out did not happen, as far as anyone can tell.
      { id: 'p7', name: 'Port 7', reason: 'No outcome came back for it' },
    ]);
  });

  it('sends nothing more after Cancel, and counts what was never sent as cancelled', async () => {
    const runner = manualRunner();
    let cancelled = false;
    const run = runBulk({
      items: items(10),
      chunkSize: 2,
      concurrency: 1,
      runChunk: runner.runChunk,
      onProgress: () => undefined,
      isCancelled: () => cancelled,
    });
    await flush();
    cancelled = true;
    runner.calls[0]!.answer([
      { id: 'p1', ok: true },
      { id: 'p2', ok: true },
    ]);
    const final = await run;
    expect(runner.calls).toHaveLength(1);
    expect(final).toMatchObject({ done: 2, failed: 0, cancelled: 8, running: false });
  });
});
