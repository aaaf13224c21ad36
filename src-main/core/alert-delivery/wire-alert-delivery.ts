import { renameSync } from 'node:fs';
import type { AppCoreDependencies } from '../app-core-dependencies';
import type { Lifecycle } from '../domain-service';
import type { EventBus } from '../events';
import type { MobilePort } from '../../../src-shared/api-types';

/** What sending through a port needs of it: its gateway and its proxy credentials. */
type PortCredentials = Pick<MobilePort, 'endpoint' | 'username' | 'password'>;
import type { LocalProxiesService } from '../local-proxies/local-proxies-service';
import type { JobsOwnership } from '../runtime/background-jobs';
import type { Clock } from '../runtime/clock';
import type { SessionSecretStore } from '../secrets/session-secret-store';
import { AlertDeliveryService } from './alert-delivery-service';
import type { LocalProxyRoute } from './channel-factory';
import { DeliveryStore } from './delivery-store';
import { DeliveryEventSources } from './event-sources';

export interface AlertDeliveryWiring {
  deps: Pick<
    AppCoreDependencies,
    'alertDeliveryDatabase' | 'keychain' | 'keychainStatus' | 'alertDeliveryRandom'
  >;
  clock: Clock;
  events: Pick<EventBus, 'on'>;
  ownership: JobsOwnership;
  sessionSecrets: SessionSecretStore;
  localProxies: Pick<LocalProxiesService, 'list'>;
  /** A port as main holds it, else as the service answers it (its endpoint and credentials). */
  readPort: (profileId: string, portId: string) => Promise<PortCredentials | null>;
  activeProfileId: () => string | null;
  log: (line: string) => void;
}

/**
 * Builds alert delivery: the queue in the data folder (`alert-delivery.sqlite`; memory without
 * one), the service with its sending job, and the adapter that turns the app's events into
 * delivery events. `lifecycle` subscribes the adapter and closes the database.
 */
export function wireAlertDelivery(wiring: AlertDeliveryWiring): {
  service: AlertDeliveryService;
  sources: DeliveryEventSources;
  lifecycle: Lifecycle;
} {
  const { deps, clock, events, ownership, log } = wiring;
  const store = openStore(deps.alertDeliveryDatabase ?? ':memory:', clock, log);
  const ownsJobs = () => ownership.status().owner;
  let service: AlertDeliveryService | null = null;
  const sources = new DeliveryEventSources({
    publish: (event) => {
      try {
        service?.publish(event);
      } catch (error) {
        log(
          `[alert-delivery] could not queue ${event.type}: ${error instanceof Error ? error.message : 'error'}`,
        );
      }
    },
    now: () => clock.now(),
    ownsJobs,
  });
  const secrets = () => (deps.keychainStatus().available ? deps.keychain : wiring.sessionSecrets);
  service = new AlertDeliveryService({
    store,
    clock,
    secrets,
    ownsJobs,
    oneShot: ownership.oneShot === true,
    localProxy: async (localProxyId): Promise<LocalProxyRoute | null> => {
      const proxy = (await wiring.localProxies.list()).proxies.find((item) => item.id === localProxyId);
      if (!proxy || proxy.state !== 'running') return null;
      const password = proxy.auth ? await secrets().get(`local-proxy:${proxy.id}`) : null;
      return { url: proxy.url, username: proxy.auth?.username ?? null, password };
    },
    portRoute: async (profileId, portId): Promise<LocalProxyRoute | null> => {
      const port = await wiring.readPort(profileId, portId);
      if (!port) return null;
      return {
        url: `http://${port.endpoint.host}:${port.endpoint.httpPort}`,
        username: port.username,
        password: port.password,
      };
    },
    activeProfileId: wiring.activeProfileId,
    onWake: { next: () => sources.nextExpiryCheck(), run: () => sources.checkExpiries() },
    ...(deps.alertDeliveryRandom ? { random: deps.alertDeliveryRandom } : {}),
    log,
  });
  let unsubscribe: (() => void) | null = null;
  return {
    service,
    sources,
    lifecycle: {
      name: 'alert delivery',
      start: () => {
        unsubscribe = sources.listen(events);
      },
      stop: async () => {
        unsubscribe?.();
        await service.stop();
        store.close();
      },
    },
  };
}

/**
 * The queue's database; one that cannot be opened (a damaged file) is moved aside and a new one
 * started, so alerts keep going out and the old file stays for a look.
 */
function openStore(path: string, clock: Clock, log: (line: string) => void): DeliveryStore {
  try {
    return DeliveryStore.open(path);
  } catch (error) {
    if (path === ':memory:') throw error;
    const aside = `${path}.unreadable-${clock.now()}`;
    log(
      `[alert-delivery] ${path} could not be opened (${error instanceof Error ? error.message : 'error'}); kept as ${aside}`,
    );
    renameSync(path, aside);
    return DeliveryStore.open(path);
  }
}
