/**
 * One action on many items (rotate 1,000 ports, turn auto-renew on for 40): sent a chunk at a time,
 * a few chunks at once, with one aggregate progress, a Cancel that stops before the next chunk, and
 * every failure kept with its reason. Pure (no React, no store): the store runs it, tests call it.
 */

export interface BulkItem {
  id: string;
  /** How the summary names it (a port's label, or its id). */
  name: string;
}

/** What one item's action came to. */
export type BulkOutcome = { id: string; ok: true } | { id: string; ok: false; reason: string };

interface BulkFailure {
  id: string;
  name: string;
  reason: string;
}

export interface BulkProgress {
  total: number;
  done: number;
  failed: number;
  /** Sent and not answered yet (a port waiting for its cooldown or its turn is one of these). */
  inFlight: readonly string[];
  /** Not sent because Cancel came first. */
  cancelled: number;
  failures: readonly BulkFailure[];
  running: boolean;
}

export interface BulkRunOptions {
  items: readonly BulkItem[];
  /** Items per call. */
  chunkSize: number;
  /** Calls at once. */
  concurrency: number;
  /** Runs one chunk; a rejection fails every item of the chunk with its message. */
  runChunk: (ids: string[]) => Promise<BulkOutcome[]>;
  onProgress: (progress: BulkProgress) => void;
  /** Asked before each chunk is sent. */
  isCancelled: () => boolean;
}

export async function runBulk(options: BulkRunOptions): Promise<BulkProgress> {
  const { items, chunkSize, concurrency, runChunk, onProgress, isCancelled } = options;
  const names = new Map(items.map((item) => [item.id, item.name]));
  const chunks: string[][] = [];
  for (let start = 0; start < items.length; start += chunkSize)
    chunks.push(items.slice(start, start + chunkSize).map((item) => item.id));
  const inFlight = new Set<string>();
  const failures: BulkFailure[] = [];
  let done = 0;
  let cancelled = 0;
  let next = 0;
  const snapshot = (running: boolean): BulkProgress => ({
    total: items.length,
    done,
    failed: failures.length,
    inFlight: [...inFlight],
    cancelled,
    failures: [...failures],
    running,
  });
  const fail = (id: string, reason: string) => failures.push({ id, name: names.get(id) ?? id, reason });
  onProgress(snapshot(true));

  const worker = async () => {
    while (next < chunks.length) {
      if (isCancelled()) return;
      const chunk = chunks[next] as string[];
      next += 1;
      for (const id of chunk) inFlight.add(id);
      onProgress(snapshot(true));
      let outcomes: BulkOutcome[];
      try {
        outcomes = await runChunk(chunk);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        outcomes = chunk.map((id) => ({ id, ok: false, reason }));
      }
      const answered = new Set<string>();
      for (const outcome of outcomes) {
        if (!inFlight.has(outcome.id) || answered.has(outcome.id)) continue;
        answered.add(outcome.id);
        if (outcome.ok) done += 1;
        else fail(outcome.id, outcome.reason);
      }
      // An item the answer did not mention did not happen, as far as anyone can tell.
      for (const id of chunk) if (!answered.has(id)) fail(id, 'No outcome came back for it');
      for (const id of chunk) inFlight.delete(id);
      onProgress(snapshot(true));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, chunks.length)) }, worker));
  cancelled = items.length - done - failures.length;
  const final = snapshot(false);
  onProgress(final);
  return final;
}
