import { describe, expect, it } from 'vitest';
import { resetAccountScopedStores, watchAccountScope } from '../../../src-renderer/src/app/account-scope';
import { useAppStore } from '../../../src-renderer/src/features/app/app-store';
import { useCatalogStore } from '../../../src-renderer/src/features/catalog/catalog-store';
import { usePortsStore } from '../../../src-renderer/src/features/ports/ports-store';
import { useSubscriptionsStore } from '../../../src-renderer/src/features/subscriptions/subscriptions-store';
import { useTopUpsStore } from '../../../src-renderer/src/features/topups/topups-store';
import { deferred, ok } from '../support/fake-api';
import {
  portsAnswer,
  appState,
  countries,
  port,
  profile,
  subscription,
  topUp,
  topUpPage,
} from '../support/fixtures';
import { useFakeApi } from '../support/renderer-test-kit';

const ACCOUNT_STORES = [usePortsStore, useSubscriptionsStore, useTopUpsStore, useCatalogStore] as const;

describe('account scope', () => {
  const fake = useFakeApi(() => ({
    'ports:list': () => ok(portsAnswer([port()])),
    'subscriptions:list': () => ok([subscription()]),
    'topups:list': () => ok(topUpPage([topUp()])),
    'catalog:countries': () => ok(countries()),
  }));

  async function loadEverything() {
    await usePortsStore.getState().load();
    await useSubscriptionsStore.getState().load('all');
    await useTopUpsStore.getState().goToPage(2);
    await useCatalogStore.getState().loadCountries('all');
    useCatalogStore.getState().selectCountry('US');
  }

  /** Each store's data part, as it is on a fresh start. */
  const dataOf = () => ({
    ports: usePortsStore.getState().ports,
    subscriptions: useSubscriptionsStore.getState().lists,
    topUps: [
      useTopUpsStore.getState().page,
      useTopUpsStore.getState().query,
      useTopUpsStore.getState().loadedQuery,
    ],
    catalog: [useCatalogStore.getState().countries, useCatalogStore.getState().selectedCountry],
  });

  it('puts every account-scoped store back to its empty (first) state', async () => {
    const empty = dataOf();
    await loadEverything();
    expect(dataOf()).not.toEqual(empty);
    resetAccountScopedStores();
    expect(dataOf()).toEqual(empty);
  });

  it('resets them when the active profile changes, and not for other app state changes', async () => {
    useAppStore.getState().applyState(appState());
    const stop = watchAccountScope();
    await loadEverything();
    const loaded = dataOf();

    useAppStore.getState().applyState(appState({ notices: [{ id: 'n', level: 'info', message: 'Hi' }] }));
    expect(dataOf()).toEqual(loaded);

    useAppStore
      .getState()
      .applyState(appState({ activeProfile: profile({ id: 'prof_home', name: 'Home' }) }));
    expect(usePortsStore.getState().ports.status).toBe('idle');
    expect(useSubscriptionsStore.getState().lists).toEqual({});
    expect(useTopUpsStore.getState().page.status).toBe('idle');
    expect(useCatalogStore.getState().countries).toEqual({});
    stop();
  });

  it('drops an answer of the previous account that arrives after the switch', async () => {
    useAppStore.getState().applyState(appState());
    const stop = watchAccountScope();
    const slow = deferred<ReturnType<typeof ok>>();
    fake.current.handle('ports:list', () => slow.promise as never);
    const loading = usePortsStore.getState().load();
    useAppStore
      .getState()
      .applyState(appState({ activeProfile: profile({ id: 'prof_home', name: 'Home' }) }));
    slow.resolve(ok(portsAnswer([port({ label: 'Old account port' })])));
    await loading;
    expect(usePortsStore.getState().ports.status).toBe('idle');
    expect(usePortsStore.getState().ports.data).toBeNull();
    stop();
  });

  it('lists every store that holds account data', () => {
    for (const store of ACCOUNT_STORES) expect(typeof store.getState().reset).toBe('function');
  });
});
