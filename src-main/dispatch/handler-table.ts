import type { AppCore } from '../core/app-core';
import type { AppServices } from '../core/app-services';
import type { ContractHandlers } from '../../src-shared/contract';

/**
 * The handler table: every domain service's handlers, merged. Each service's `handlers()` is typed
 * to its domain's channels exactly and `AppServices` needs one service per domain, so a missing or
 * misspelt channel is a compile error.
 */
function mergeHandlers(services: AppServices): ContractHandlers {
  return {
    ...services.app.handlers(),
    ...services.connection.handlers(),
    ...services.profiles.handlers(),
    ...services.demo.handlers(),
    ...services.settings.handlers(),
    ...services.catalog.handlers(),
    ...services.ports.handlers(),
    ...services.subscriptions.handlers(),
    ...services.topups.handlers(),
    ...services.schedules.handlers(),
    ...services.tray.handlers(),
    ...services.alerts.handlers(),
    ...services.alertRouting.handlers(),
    ...services.proxy.handlers(),
    ...services.localProxies.handlers(),
    ...services.overview.handlers(),
    ...services.automation.handlers(),
    ...services.updates.handlers(),
  };
}

export function createIpcHandlers(core: Pick<AppCore, 'services'>): ContractHandlers {
  return mergeHandlers(core.services);
}
