import { ProxyServiceClient } from '../../../src-main/api';
import { CatalogService } from '../../../src-main/core/catalog/catalog-service';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { ApiCaller } from '../../../src-main/core/session/api-caller';
import {
  catalogTargeting,
  SubscriptionsService,
} from '../../../src-main/core/subscriptions/subscriptions-service';
import { DEMO_KEY, TEST_START_TIME, type TestSandbox } from '@proxy-manager/sandbox/testing';
import { RecordingEvents } from '../ports/ports-test-kit';

export const PROFILE = 'profile-1';

/** A caller whose active profile can be switched, one real sandbox client per profile. */
export function switchableApi(sandbox: TestSandbox, clock: FakeClock) {
  let active = PROFILE;
  const clients = new Map<string, ProxyServiceClient>();
  const clientFor = (profileId: string) => {
    let client = clients.get(profileId);
    if (!client) {
      client = new ProxyServiceClient({ baseUrl: sandbox.baseUrl, apiKey: DEMO_KEY, now: () => clock.now() });
      clients.set(profileId, client);
    }
    return Promise.resolve(client);
  };
  const api = new ApiCaller(
    { clientFor, activeProfileId: () => active },
    { begin: () => 0, record: () => undefined },
  );
  return {
    api,
    switchTo: (profileId: string) => {
      active = profileId;
    },
    close: async () => {
      await Promise.all([...clients.values()].map((client) => client.close()));
    },
  };
}

export function subscriptionsKit(sandbox: TestSandbox) {
  const clock = new FakeClock(Date.parse(TEST_START_TIME));
  const events = new RecordingEvents();
  const caller = switchableApi(sandbox, clock);
  const subscriptions = new SubscriptionsService({
    api: caller.api,
    events,
    now: () => clock.now(),
    catalog: catalogTargeting(new CatalogService(caller.api)),
  });
  return { clock, events, caller, subscriptions, handlers: subscriptions.handlers() };
}
