import { z } from 'zod';
import type { JobStateStore } from './job-state-store';

/**
 * One section of job state: what the ports' background work must find again after a crash or a
 * restart (rotation receipts, tracked relocations). Kept apart from preferences.
 *
 * Backed by a section of the job-state store in the app (`jobStateSection`), by memory in tests.
 */
export interface JobSection<T> {
  read(): Promise<T | undefined>;
  /** Applies `mutate` to the current value and stores the result before resolving. Serialised. */
  update(mutate: (current: T | undefined) => T): Promise<T>;
}

/** In memory: tests, and a process that must not write to disk. */
export class MemoryJobSection<T> implements JobSection<T> {
  private value: T | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(initial?: T) {
    this.value = initial === undefined ? undefined : structuredClone(initial);
  }

  read(): Promise<T | undefined> {
    return Promise.resolve(this.value === undefined ? undefined : structuredClone(this.value));
  }

  update(mutate: (current: T | undefined) => T): Promise<T> {
    const next = this.chain.then(() => {
      this.value = structuredClone(
        mutate(this.value === undefined ? undefined : structuredClone(this.value)),
      );
      return structuredClone(this.value);
    });
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/**
 * A section of the job-state store (`state.json`) behind the `JobSection` interface. The value is
 * kept under `value` so a section that has never been written reads as `undefined`; its shape is the
 * owning feature's to check (it reads its own writes).
 */
export function jobStateSection<T>(store: JobStateStore, name: string): JobSection<T> {
  const section = store.section<{ value?: unknown }>(
    name,
    z.looseObject({ value: z.unknown().optional() }),
    {},
  );
  return {
    read: () => Promise.resolve(section.get().value as T | undefined),
    update: async (mutate) => {
      let next: T | undefined;
      await section.update((draft) => {
        next = mutate(draft.value as T | undefined);
        return { value: next };
      });
      return next as T;
    },
  };
}

/** Per-profile state keyed by id: sets (or, with null, removes) one entry and drops empty profiles. */
export function updateProfileEntry<T>(
  section: JobSection<Record<string, Record<string, T>>>,
  profileId: string,
  id: string,
  entry: T | null,
): Promise<Record<string, Record<string, T>>> {
  return section.update((current) => {
    const state = current ?? {};
    const entries = (state[profileId] ??= {});
    if (entry !== null) entries[id] = entry;
    else delete entries[id];
    if (Object.keys(entries).length === 0) delete state[profileId];
    return state;
  });
}
