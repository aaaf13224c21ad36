import { AlertDeliveryService } from '../../../../src-main/core/alert-delivery/alert-delivery-service';
import { DeliveryStore } from '../../../../src-main/core/alert-delivery/delivery-store';
import { FakeClock } from '../../../../src-main/core/runtime/fake-clock';
import { SessionSecretStore } from '../../../../src-main/core/secrets/session-secret-store';
import type { CallInput, CallOutput } from '../../../../src-shared/contract';
import { ipcCalls } from '../../../../src-shared/contract';

type RoutingChannel = keyof typeof ipcCalls & `alertRouting:${string}`;

/** The service on a fake clock with a memory keychain; calls go through the contract's schemas. */
export function deliveryFixture(options: { databasePath?: string; clock?: FakeClock } = {}) {
  const clock = options.clock ?? new FakeClock();
  const secrets = new SessionSecretStore();
  const store = DeliveryStore.open(options.databasePath ?? ':memory:');
  const service = new AlertDeliveryService({
    store,
    clock,
    secrets: () => secrets,
    ownsJobs: () => true,
    random: () => 0.5,
  });
  const handlers = service.handlers();
  const call = async <C extends RoutingChannel>(channel: C, input: CallInput<C>): Promise<CallOutput<C>> => {
    const parsed: unknown = ipcCalls[channel].input.parse(input);
    const handler = handlers[channel] as (value: unknown) => Promise<CallOutput<C>>;
    return handler(parsed);
  };
  /** Sends and moves the clock to each next due time until nothing waits (or `until`). */
  const drain = async (until?: number): Promise<void> => {
    for (let step = 0; step < 5000; step += 1) {
      await service.sendDue();
      const next = service.nextDue();
      if (next === null || (until !== undefined && next > until)) break;
      await clock.runUntil(Math.max(next, clock.now()));
    }
    if (until !== undefined && clock.now() < until) await clock.runUntil(until);
  };
  return { clock, secrets, store, service, call, drain };
}
