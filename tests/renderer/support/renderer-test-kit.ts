import { act, cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { useAppStore } from '../../../src-renderer/src/features/app/app-store';
import { useCatalogStore } from '../../../src-renderer/src/features/catalog/catalog-store';
import { useLocalProxiesStore } from '../../../src-renderer/src/features/local-proxies/local-proxies-store';
import { useOnboardingStore } from '../../../src-renderer/src/features/onboarding/onboarding-store';
import { useOverviewStore } from '../../../src-renderer/src/features/overview/overview-store';
import { usePortsStore } from '../../../src-renderer/src/features/ports/ports-store';
import { useProfilesStore } from '../../../src-renderer/src/features/profiles/profiles-store';
import { useProxyTestStore } from '../../../src-renderer/src/features/proxy-test/proxy-test-store';
import { useAutomationStore } from '../../../src-renderer/src/features/settings/automation-store';
import { useSettingsStore } from '../../../src-renderer/src/features/settings/settings-store';
import { useSubscriptionsStore } from '../../../src-renderer/src/features/subscriptions/subscriptions-store';
import { useTopUpsStore } from '../../../src-renderer/src/features/topups/topups-store';
import { useBulkStore } from '../../../src-renderer/src/shared/bulk/bulk-store';
import { setDensity } from '../../../src-renderer/src/shared/density';
import { useTableViewsStore } from '../../../src-renderer/src/shared/table/table-views-store';
import { createFakeApi, type FakeApi, type FakeHandlers } from './fake-api';

const STORES = [
  useAppStore,
  useAutomationStore,
  useBulkStore,
  useCatalogStore,
  useLocalProxiesStore,
  useOnboardingStore,
  useOverviewStore,
  usePortsStore,
  useProfilesStore,
  useProxyTestStore,
  useSettingsStore,
  useSubscriptionsStore,
  useTableViewsStore,
  useTopUpsStore,
] as const;

/** Back to each store's first state: stores are module singletons shared by the tests of a file. */
export function resetStores(): void {
  for (const store of STORES) {
    (store as { setState: (state: unknown, replace: true) => void; getInitialState: () => unknown }).setState(
      (store as { getInitialState: () => unknown }).getInitialState(),
      true,
    );
  }
}

/** Installs a fresh fake `window.api` before each test and cleans the DOM and stores after it. */
export function useFakeApi(handlers: () => FakeHandlers = () => ({})): { current: FakeApi } {
  const holder = { current: createFakeApi() };
  beforeEach(() => {
    resetStores();
    holder.current = createFakeApi(handlers());
    window.api = holder.current.api;
    window.location.hash = '';
    document.documentElement.removeAttribute('data-theme');
    setDensity('comfortable');
  });
  afterEach(() => {
    cleanup();
    delete window.api;
  });
  return holder;
}

/** Lets pending promises (store actions) and the renders they cause finish. */
export const settle = () => act(() => Promise.resolve());

/**
 * Stands in for the browser's idle callbacks: they wait until the test says the browser is idle
 * (`runAll`, which runs those pending then, not the ones they ask for). Undo with `vi.unstubAllGlobals`.
 */
export function stubIdleCallbacks(): { pending: Map<number, () => void>; runAll: () => void } {
  const pending = new Map<number, () => void>();
  let next = 1;
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => {
    pending.set(next, callback);
    return next++;
  });
  vi.stubGlobal('cancelIdleCallback', (handle: number) => pending.delete(handle));
  return {
    pending,
    runAll: () => {
      for (const [handle, callback] of [...pending]) {
        pending.delete(handle);
        act(() => callback());
      }
    },
  };
}
