import { ProxyServiceClient } from '../../../src-main/api';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { ApiCaller } from '../../../src-main/core/session/api-caller';
import { MemoryJobSection } from '../../../src-main/core/storage/job-section';
import type { TopUpIntentsState } from '../../../src-main/core/topups/topup-intents';
import {
  type TopUpNotice,
  TopUpWatcher,
  type TopUpWatchState,
} from '../../../src-main/core/topups/topup-watcher';
import { type DemoControl, simulateDemoPayment } from '../../../src-main/core/demo/demo-payments';
import { publishTopUpChanges } from '../../../src-main/core/topups/topup-changes';
import { TopUpLinks } from '../../../src-main/core/topups/topup-links';
import { TopUpsService } from '../../../src-main/core/topups/topups-service';
import { DEMO_KEY, TEST_START_TIME, type TestSandbox } from '@proxy-manager/sandbox/testing';
import { PROFILE, RecordingEvents } from '../ports/ports-test-kit';

export { PROFILE } from '../ports/ports-test-kit';

/** A real client of the sandbox; retries without real waiting, dates read on the FakeClock. */
export function sandboxClient(sandbox: TestSandbox, clock: FakeClock): ProxyServiceClient {
  return new ProxyServiceClient({
    baseUrl: sandbox.baseUrl,
    apiKey: DEMO_KEY,
    now: () => clock.now(),
    sleep: () => Promise.resolve(),
  });
}

export function callerFor(client: ProxyServiceClient): ApiCaller {
  return new ApiCaller(
    { clientFor: () => Promise.resolve(client), activeProfileId: () => PROFILE },
    { begin: () => 0, record: () => undefined },
  );
}

export interface TopUpsKit {
  clock: FakeClock;
  events: RecordingEvents;
  client: ProxyServiceClient;
  api: ApiCaller;
  intents: MemoryJobSection<TopUpIntentsState>;
  watch: MemoryJobSection<TopUpWatchState>;
  notices: TopUpNotice[];
  service: TopUpsService;
  watcher: TopUpWatcher;
}

export interface KitOptions {
  clock?: FakeClock;
  intents?: MemoryJobSection<TopUpIntentsState>;
  watch?: MemoryJobSection<TopUpWatchState>;
  client?: ProxyServiceClient;
  demoControl?: () => DemoControl | null;
  polling?: { topUpVerifyingSeconds: number; topUpAwaitingPaymentSeconds: number };
}

/** A service and a watcher over one sandbox, the way `buildAppCore` wires them. */
export function topUpsKit(sandbox: TestSandbox, options: KitOptions = {}): TopUpsKit {
  const clock = options.clock ?? new FakeClock(Date.parse(TEST_START_TIME));
  const events = new RecordingEvents();
  const client = options.client ?? sandboxClient(sandbox, clock);
  const api = callerFor(client);
  const intents = options.intents ?? new MemoryJobSection<TopUpIntentsState>();
  const watch = options.watch ?? new MemoryJobSection<TopUpWatchState>();
  const notices: TopUpNotice[] = [];
  let n = 0;
  const links = new TopUpLinks();
  const watcher = new TopUpWatcher({
    api,
    clock,
    store: watch,
    publish: (profileId, changed) => publishTopUpChanges(events, links, profileId, changed),
    notify: (notice) => notices.push(notice),
    ...(options.polling ? { polling: () => options.polling! } : {}),
  });
  const { demoControl } = options;
  const service = new TopUpsService({
    api,
    events,
    intents,
    now: () => clock.now(),
    watcher,
    links,
    newIdempotencyKey: () => `key-${++n}-${Math.random().toString(36).slice(2, 8)}`,
    ...(demoControl
      ? {
          demo: {
            simulatePayment: (profileId, topUp, kind) =>
              simulateDemoPayment(demoControl(), profileId, topUp, kind),
          },
        }
      : {}),
  });
  return { clock, events, client, api, intents, watch, notices, service, watcher };
}

export const ATTEMPT = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
export const ATTEMPT_2 = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** POST /v1/topups lines of the sandbox's request log. */
export async function createRequests(
  sandbox: TestSandbox,
): Promise<{ idempotencyKey: string | null; status: number }[]> {
  return (await sandbox.requests()).filter((r) => r.method === 'POST' && /\/v1\/topups$/.test(r.path));
}
