import { create } from 'zustand';
import type {
  CallInput,
  IpcResult,
  LocalProxiesChanged,
  LocalProxiesView,
  LocalProxyUpstream,
  LocalProxyView,
  ProfileSummary,
} from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';
import { idle, type Loadable } from '../../shared/loadable';
import { createLoadableSlice, inField, type LoadableSlice } from '../../shared/loadable-slice';

/**
 * Local proxies of every profile (they run for all of them, like the other background jobs), with
 * their live stats: `localProxies:changed` replaces the list through the event bridge.
 */
interface LocalProxiesStore {
  view: Loadable<LocalProxiesView>;
  load: (force?: boolean) => Promise<void>;
  reloadLoaded: () => Promise<void>;
  applyChanged: (payload: LocalProxiesChanged) => void;
  add: (input: CallInput<'localProxies:add'>) => Promise<IpcResult<LocalProxyView>>;
  update: (input: CallInput<'localProxies:update'>) => Promise<IpcResult<LocalProxyView>>;
  remove: (id: string) => Promise<IpcResult<{ removed: true }>>;
  start: (id: string) => Promise<IpcResult<LocalProxyView>>;
  stop: (id: string) => Promise<IpcResult<LocalProxyView>>;
}

export const useLocalProxiesStore = create<LocalProxiesStore>()((set, get) => {
  /** One proxy's new view, in place (or added), before the event with the whole list arrives. */
  const put = (proxy: LocalProxyView) => {
    const current = get().view;
    if (!current.data) return;
    const proxies = current.data.proxies.some((known) => known.id === proxy.id)
      ? current.data.proxies.map((known) => (known.id === proxy.id ? proxy : known))
      : [...current.data.proxies, proxy];
    set({ view: { ...current, data: { ...current.data, proxies } } });
  };
  const after = <T>(result: IpcResult<T>, apply: (value: T) => void): IpcResult<T> => {
    if (result.ok) apply(result.value);
    return result;
  };
  return {
    view: idle<LocalProxiesView>(),
    load: (force = false) => localProxiesList.load([], force),
    reloadLoaded: () => localProxiesList.reloadLoaded(),
    applyChanged: (payload) => {
      const current = get().view;
      if (!current.data) return;
      set({ view: { ...current, data: { ...current.data, proxies: payload.proxies } } });
    },
    add: async (input) => after(await callApi((api) => api.localProxies.add(input)), put),
    update: async (input) => after(await callApi((api) => api.localProxies.update(input)), put),
    remove: async (id) =>
      after(await callApi((api) => api.localProxies.remove({ id })), () => {
        const current = get().view;
        if (!current.data) return;
        const proxies = current.data.proxies.filter((proxy) => proxy.id !== id);
        set({ view: { ...current, data: { ...current.data, proxies } } });
      }),
    start: async (id) => after(await callApi((api) => api.localProxies.start({ id })), put),
    stop: async (id) => after(await callApi((api) => api.localProxies.stop({ id })), put),
  };
});

export const localProxiesList: LoadableSlice<LocalProxiesStore, LocalProxiesView, []> = createLoadableSlice(
  useLocalProxiesStore,
  {
    place: inField<LocalProxiesStore, LocalProxiesView>('view'),
    fetch: () => callApi((api) => api.localProxies.list()),
  },
);

/**
 * Whether a local proxy forwards to the active account. Main stores `demo` or `environment` for a
 * profile that lives for one run only (its id is new every run).
 */
export function ofProfile(
  proxy: LocalProxyView,
  profile: Pick<ProfileSummary, 'id' | 'kind'> | null,
): boolean {
  if (!profile) return false;
  return proxy.profileId === (profile.kind === 'account' ? profile.id : profile.kind);
}

/** Whether two upstreams are the same target (the same port, or user and targeting of a subscription). */
export function sameUpstream(a: LocalProxyUpstream, b: LocalProxyUpstream): boolean {
  if (a.kind === 'port' || b.kind === 'port') {
    return a.kind === 'port' && b.kind === 'port' && a.portId === b.portId;
  }
  const targeting = (upstream: typeof a) =>
    JSON.stringify(Object.entries(upstream.targeting ?? {}).sort(([x], [y]) => x.localeCompare(y)));
  return (
    a.subscriptionId === b.subscriptionId &&
    (a.subUserId ?? null) === (b.subUserId ?? null) &&
    targeting(a) === targeting(b)
  );
}
