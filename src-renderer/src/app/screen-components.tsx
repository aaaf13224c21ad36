import type { ReactNode } from 'react';
import { CatalogScreen } from '../features/catalog/CatalogScreen';
import { LocalProxiesScreen } from '../features/local-proxies/LocalProxiesScreen';
import { AddLocalProxyForm } from '../features/local-proxy-upstreams/AddLocalProxyForm';
import { UpstreamLink } from '../features/local-proxy-upstreams/UpstreamLink';
import { OverviewScreen } from '../features/overview/OverviewScreen';
import { PortsScreen } from '../features/ports/PortsScreen';
import { SettingsScreen } from '../features/settings/SettingsScreen';
import { SubscriptionsScreen } from '../features/subscriptions/SubscriptionsScreen';
import { TopUpsScreen } from '../features/topups/TopUpsScreen';
import type { ScreenId } from '../shared/routes';

/**
 * Each screen's element, made once: the shell's renders hand React the same element, so a screen
 * kept hidden is not rendered again when the shell is (a new screen, a notice). Here the shell also
 * composes what one feature shows of others where importing them would make a cycle (Local
 * proxies: the ports' and subscriptions' pages import its "Local proxy…").
 */
export const SCREEN_ELEMENTS: Record<ScreenId, ReactNode> = {
  overview: <OverviewScreen />,
  ports: <PortsScreen />,
  subscriptions: <SubscriptionsScreen />,
  topups: <TopUpsScreen />,
  catalog: <CatalogScreen />,
  'local-proxies': <LocalProxiesScreen upstreamLink={UpstreamLink} addForm={AddLocalProxyForm} />,
  settings: <SettingsScreen />,
};
