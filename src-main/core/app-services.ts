import type { CallDomain } from '../../src-shared/contract';
import type { AlertDeliveryService } from './alert-delivery/alert-delivery-service';
import type { AlertsService } from './alerts/alerts-service';
import type { AppStateService } from './app-state';
import type { AutomationService } from './automation/automation-service';
import type { CatalogService } from './catalog/catalog-service';
import type { ConnectionService } from './connection/connection-service';
import type { DemoService } from './demo/demo-service';
import type { DomainService } from './domain-service';
import type { LocalProxiesService } from './local-proxies/local-proxies-service';
import type { OverviewService } from './overview/overview-service';
import type { PortsService } from './ports/ports-service';
import type { ProfilesController } from './profiles/profiles-controller';
import type { ProxyTestService } from './proxy-test/proxy-test-service';
import type { SchedulesService } from './schedules/schedules-service';
import type { SettingsService } from './settings/settings-service';
import type { SubscriptionsService } from './subscriptions/subscriptions-service';
import type { TopUpsService } from './topups/topups-service';
import type { TrayStateService } from './tray/tray-state';
import type { UpdatesService } from './updates/updates-service';

/** One service per contract domain: the shape the handler table is merged from. */
export type AppServices = { [D in CallDomain]: DomainService<D> };

/**
 * The services `create-app-core.ts` builds, by their own types (so the shell or a job can reach,
 * say, `services.ports.refresh`). It must stay an `AppServices`: a domain without a service, or a
 * service whose handlers do not cover its domain, is a compile error here.
 */
export interface CoreServices extends AppServices {
  app: AppStateService;
  connection: ConnectionService;
  profiles: ProfilesController;
  demo: DemoService;
  settings: SettingsService;
  catalog: CatalogService;
  ports: PortsService;
  subscriptions: SubscriptionsService;
  topups: TopUpsService;
  schedules: SchedulesService;
  tray: TrayStateService;
  alerts: AlertsService;
  alertRouting: AlertDeliveryService;
  proxy: ProxyTestService;
  localProxies: LocalProxiesService;
  overview: OverviewService;
  automation: AutomationService;
  updates: UpdatesService;
}
