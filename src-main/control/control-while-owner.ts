import type { AppCore } from '../core/app-core';
import { createIpcHandlers } from '../dispatch/handler-table';
import type { AppState } from '../../src-shared/contract';
import { type ControlServer, createControlDispatcher, startControlServer } from './control-server';

export interface OwnedControlOptions {
  core: Pick<AppCore, 'services' | 'getState' | 'subscribe' | 'activeKeyFingerprint'>;
  dataDir: string;
  log: (line: string) => void;
  /** Injected for tests; default `startControlServer`. */
  start?: typeof startControlServer;
}

export interface OwnedControl {
  /** The running server, or null while this process does not own the background jobs. */
  readonly server: ControlServer | null;
  /** Resolves once the server is started or stopped after the latest change of ownership. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Runs the control socket exactly while this process owns the data folder's background jobs (the
 * instance lock; `AppState.jobs.owner`): a process that is only a reader has nothing to offer the
 * CLI, and a process that lost the lock (after a long suspend) must hand the socket to the new owner.
 * Call after `core.start`.
 */
export function serveControlWhileOwner(options: OwnedControlOptions): OwnedControl {
  const { core, dataDir, log } = options;
  const start = options.start ?? startControlServer;
  const dispatch = createControlDispatcher(createIpcHandlers(core), log);
  let server: ControlServer | null = null;
  let closed = false;
  let queue: Promise<void> = Promise.resolve();

  const enqueue = (step: () => Promise<void>): void => {
    queue = queue.then(step).catch((error: unknown) => {
      log(`[control] ${error instanceof Error ? error.message : String(error)}`);
    });
  };
  const apply = async (owner: boolean): Promise<void> => {
    const wanted = owner && !closed;
    if (wanted && !server) {
      server = await start({ dataDir, dispatch, log, keyFingerprint: () => core.activeKeyFingerprint() });
    } else if (!wanted && server) {
      const running = server;
      server = null;
      await running.close();
    }
  };
  const settled = async (): Promise<void> => {
    // Steps may be added while we wait: wait until the queue stops growing.
    for (let seen = queue; ; seen = queue) {
      await seen;
      if (seen === queue) return;
    }
  };

  const unsubscribe = core.subscribe((channel, payload) => {
    if (channel === 'app:stateChanged') enqueue(() => apply((payload as AppState).jobs.owner));
  });
  enqueue(async () => apply((await core.getState()).jobs.owner));

  return {
    get server() {
      return server;
    },
    settled,
    close: async () => {
      closed = true;
      unsubscribe();
      enqueue(() => apply(false));
      await settled();
    },
  };
}
