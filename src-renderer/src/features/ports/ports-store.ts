import { create } from 'zustand';
import type { MobilePortView } from '../../../../src-main/ipc/contract';
import { callApi } from '../../api/window-api';
import { idle, type Loadable } from '../../shared/loadable';
import { createLoadableSlice, inField, type LoadableSlice } from '../../shared/loadable-slice';
import { mergeById } from '../../shared/merge-by-id';

/** Mobile ports of the active account. Actions (rotate, relocate, …) join this store in later slices. */
interface PortsStore {
  ports: Loadable<MobilePortView[]>;
  load: (force?: boolean) => Promise<void>;
  /** Loads the list again if it was loaded (after a reconnect: changes may have been missed). */
  reloadLoaded: () => Promise<void>;
  /** Ports that main says changed (`ports:changed`): replaced in place, new ones added at the end. */
  applyChanges: (changed: MobilePortView[]) => void;
  reset: () => void;
}

/** The state of a store with no account behind it: also what `reset` goes back to. */
const empty = () => ({ ports: idle<MobilePortView[]>() });

export const usePortsStore = create<PortsStore>()((set) => ({
  ...empty(),
  load: (force = false) => portsList.load([], force),
  reloadLoaded: () => portsList.reloadLoaded(),
  applyChanges: (changed) => portsList.updateLoaded((list) => mergeById(list, changed)),
  reset: () => {
    portsList.forget();
    set(empty());
  },
}));

export const portsList: LoadableSlice<PortsStore, MobilePortView[], []> = createLoadableSlice(usePortsStore, {
  place: inField<PortsStore, MobilePortView[]>('ports'),
  fetch: () => callApi((api) => api.ports.list()),
});
