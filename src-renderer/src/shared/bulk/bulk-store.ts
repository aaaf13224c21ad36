import { create } from 'zustand';
import { runBulk, type BulkItem, type BulkOutcome, type BulkProgress } from './bulk-run';

/** A bulk action as the screens show it: what it is, its progress, and whether Cancel was pressed. */
export interface BulkRun {
  /** "Rotate", "Turn auto-renew on", …: the summary's title. */
  action: string;
  progress: BulkProgress;
  cancelRequested: boolean;
}

interface BulkStartOptions {
  action: string;
  items: readonly BulkItem[];
  chunkSize: number;
  concurrency: number;
  runChunk: (ids: string[]) => Promise<BulkOutcome[]>;
}

/** Bulk actions by list (`ports`, `subscriptions`…): one at a time per list, kept across screens. */
interface BulkStore {
  runs: Record<string, BulkRun>;
  start: (listId: string, options: BulkStartOptions) => Promise<BulkProgress | null>;
  cancel: (listId: string) => void;
  dismiss: (listId: string) => void;
  /** Another account: runs are forgotten (one under way sends no further chunk: it is cancelled). */
  reset: () => void;
}

export const useBulkStore = create<BulkStore>()((set, get) => ({
  runs: {},
  start: async (listId, options) => {
    if (get().runs[listId]?.progress.running) return null;
    const update = (change: Partial<BulkRun>) =>
      set((store) => {
        const current = store.runs[listId];
        return current ? { runs: { ...store.runs, [listId]: { ...current, ...change } } } : {};
      });
    set((store) => ({
      runs: {
        ...store.runs,
        [listId]: {
          action: options.action,
          cancelRequested: false,
          progress: {
            total: options.items.length,
            done: 0,
            failed: 0,
            inFlight: [],
            cancelled: 0,
            failures: [],
            running: true,
          },
        },
      },
    }));
    return runBulk({
      items: options.items,
      chunkSize: options.chunkSize,
      concurrency: options.concurrency,
      runChunk: options.runChunk,
      onProgress: (progress) => update({ progress }),
      isCancelled: () => get().runs[listId]?.cancelRequested ?? true,
    });
  },
  cancel: (listId) =>
    set((store) => {
      const current = store.runs[listId];
      return current ? { runs: { ...store.runs, [listId]: { ...current, cancelRequested: true } } } : {};
    }),
  dismiss: (listId) =>
    set((store) => {
      if (store.runs[listId]?.progress.running) return {};
      const { [listId]: _gone, ...rest } = store.runs;
      return { runs: rest };
    }),
  reset: () => set({ runs: {} }),
}));
