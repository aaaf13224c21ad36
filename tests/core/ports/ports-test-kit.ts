import { ProxyServiceClient } from '../../../src-main/api';
import type { EventChannel, EventPayload } from '../../../src-shared/contract';
import type { EventSink } from '../../../src-main/core/events';
import { MemoryJobSection } from '../../../src-main/core/storage/job-section';
import {
  type ReceiptsState,
  RotationService,
  type VerifyExitIp,
} from '../../../src-main/core/ports/rotation-service';
import { publishPortChanges } from '../../../src-main/core/ports/port-changes';
import { PortsService } from '../../../src-main/core/ports/ports-service';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { ApiCaller } from '../../../src-main/core/session/api-caller';
import { DEMO_KEY, TEST_START_TIME, type TestSandbox } from '@proxy-manager/sandbox/testing';

export const PROFILE = 'profile-1';

export class RecordingEvents implements EventSink {
  readonly all: { channel: EventChannel; payload: unknown }[] = [];

  emit<E extends EventChannel>(channel: E, payload: EventPayload<E>): void {
    this.all.push({ channel, payload });
  }

  of<E extends EventChannel>(channel: E): EventPayload<E>[] {
    return this.all.filter((e) => e.channel === channel).map((e) => e.payload as EventPayload<E>);
  }
}

/** An `ApiCaller` over one real client of the sandbox, for profile `PROFILE`. */
export function sandboxApi(sandbox: TestSandbox, clock: FakeClock): ApiCaller {
  const client = new ProxyServiceClient({
    baseUrl: sandbox.baseUrl,
    apiKey: DEMO_KEY,
    // Retry-After dates are read against the sandbox's (manual) time, kept in step with the FakeClock.
    now: () => clock.now(),
  });
  return new ApiCaller(
    { clientFor: () => Promise.resolve(client), activeProfileId: () => PROFILE },
    { begin: () => 0, record: () => undefined },
  );
}

export interface PortsKit {
  clock: FakeClock;
  events: RecordingEvents;
  api: ApiCaller;
  receipts: MemoryJobSection<ReceiptsState>;
  rotation: RotationService;
  ports: PortsService;
}

export function portsKit(
  sandbox: TestSandbox,
  options: { receipts?: MemoryJobSection<ReceiptsState>; verifyExitIp?: VerifyExitIp } = {},
): PortsKit {
  const clock = new FakeClock(Date.parse(TEST_START_TIME));
  const events = new RecordingEvents();
  const api = sandboxApi(sandbox, clock);
  const receipts = options.receipts ?? new MemoryJobSection<ReceiptsState>();
  let n = 0;
  const rotation = new RotationService({
    api,
    clock,
    events,
    receipts,
    publishPort: (profileId, port) => publishPortChanges(events, profileId, [port]),
    newId: () => `r${++n}`,
    ...(options.verifyExitIp ? { verifyExitIp: options.verifyExitIp } : {}),
  });
  const ports = new PortsService({ api, events, now: () => clock.now(), rotation });
  return { clock, events, api, receipts, rotation, ports };
}

/** Moves the sandbox's manual clock and the FakeClock together. */
export async function advanceBoth(sandbox: TestSandbox, clock: FakeClock, seconds: number): Promise<void> {
  await sandbox.advance(seconds);
  await clock.advance(seconds * 1000);
}

/** Rotation requests (POST and link GET) the sandbox saw for `portId`. */
export async function rotationRequests(sandbox: TestSandbox, portId: string) {
  return (await sandbox.requests()).filter(
    (r) => r.path.includes(`/mobile/${portId}/rotate`) && (r.method === 'POST' || r.method === 'GET'),
  );
}
