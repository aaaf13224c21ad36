import type { ReactNode } from 'react';
import { CatalogScreen } from '../features/catalog/CatalogScreen';
import { LocalProxiesScreen } from '../features/local-proxies/LocalProxiesScreen';
import { OverviewScreen } from '../features/overview/OverviewScreen';
import { PortsScreen } from '../features/ports/PortsScreen';
import { SettingsScreen } from '../features/settings/SettingsScreen';
import { SubscriptionsScreen } from '../features/subscriptions/SubscriptionsScreen';
import { TopUpsScreen } from '../features/topups/TopUpsScreen';
import type { ScreenId } from '../shared/routes';

/** Each screen's component, for the shell and the warm-up. */
export const SCREEN_COMPONENTS: Record<ScreenId, () => ReactNode> = {
  overview: () => <OverviewScreen />,
  ports: () => <PortsScreen />,
  subscriptions: () => <SubscriptionsScreen />,
  topups: () => <TopUpsScreen />,
  catalog: () => <CatalogScreen />,
  'local-proxies': () => <LocalProxiesScreen />,
  settings: () => <SettingsScreen />,
};
