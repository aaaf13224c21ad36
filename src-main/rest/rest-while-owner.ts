import type { AppCore } from '../core/app-core';
import { systemClock } from '../core/runtime/clock';
import { createGuardedDispatcher } from '../dispatch/guarded-dispatcher';
import { createIpcHandlers } from '../dispatch/handler-table';
import type { AppState, Scope } from '../../src-shared/contract';
import { type RunningRestServer, startRestServer } from './rest-server';

export interface OwnedRestOptions {
  core: Pick<AppCore, 'services' | 'getState' | 'subscribe'>;
  version: string;
  log: (line: string) => void;
  /** Wall time (epoch ms) for the audit log; default the system clock's. */
  now?: () => number;
  /** Injected for tests; default `startRestServer`. */
  start?: typeof startRestServer;
}

export interface OwnedRest {
  /** Resolves once the server is started or stopped after the latest change. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** A REST token's session as the guarded dispatcher sees it: the token's scopes are its grant. */
interface RestSender {
  grant: ReadonlySet<Scope>;
}

/**
 * Serves the local REST API from this process exactly while the setting is on (Settings →
 * Automation) and this process owns the background jobs, on the chosen port of 127.0.0.1; restarts
 * it when the port changes. What came of it (its URL, or why it does not listen) is told to the
 * automation service, for Settings to show. Call after `core.start`.
 */
export function serveRestWhileOwner(options: OwnedRestOptions): OwnedRest {
  const { core, log } = options;
  const automation = core.services.automation;
  const start = options.start ?? startRestServer;
  const dispatch = createGuardedDispatcher<RestSender>({
    handlers: createIpcHandlers(core),
    isTrustedSender: () => true,
    grantOf: (sender) => sender.grant,
    log,
  });
  let server: RunningRestServer | null = null;
  let serving: number | null = null;
  let closed = false;
  let queue: Promise<void> = Promise.resolve();

  const apply = async (): Promise<void> => {
    const { enabled, port } = automation.restStatus();
    const owner = (await core.getState()).jobs.owner;
    const wanted = enabled && owner && !closed ? port : null;
    if (server && serving !== wanted) {
      const running = server;
      server = null;
      serving = null;
      await running.close();
      automation.reportRest({ url: null, error: null });
    }
    if (wanted === null || server) return;
    try {
      const stores = automation.stores();
      server = await start({
        port: wanted,
        tokens: stores.tokens,
        audit: (entry) => stores.audit.record(entry),
        call: (grant, channel, input) => dispatch({ grant }, channel, input, { origin: 'rest' }),
        now: options.now ?? (() => systemClock.now()),
        version: options.version,
        log,
      });
      serving = wanted;
      automation.reportRest({ url: server.url, error: null });
      log(`[rest] listening on ${server.url}`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const message =
        code === 'EADDRINUSE'
          ? `Port ${wanted} is in use on 127.0.0.1: choose another port.`
          : `The REST API could not listen on port ${wanted}: ${error instanceof Error ? error.message : String(error)}`;
      automation.reportRest({ url: null, error: message });
      log(`[rest] ${message}`);
    }
  };
  const enqueue = (): Promise<void> => {
    queue = queue.then(apply).catch((error: unknown) => {
      log(`[rest] ${error instanceof Error ? error.message : String(error)}`);
    });
    return queue;
  };

  const unsubscribeState = core.subscribe((channel, payload) => {
    if (channel === 'app:stateChanged' && typeof (payload as AppState).jobs?.owner === 'boolean')
      void enqueue();
  });
  const unsubscribeSetting = automation.onRestChange(enqueue);
  void enqueue();

  return {
    settled: async () => {
      for (let seen = queue; ; seen = queue) {
        await seen;
        if (seen === queue) return;
      }
    },
    close: async () => {
      closed = true;
      unsubscribeState();
      unsubscribeSetting();
      await enqueue();
    },
  };
}
