import { create } from 'zustand';
import type { MobilePortView } from '../../../../src-main/ipc/contract';
import { callApi } from '../../api/window-api';
import { idle, loading, needsLoad, settled, type Loadable } from '../../shared/loadable';

/** Mobile ports of the active account. Actions (rotate, relocate, …) join this store in later slices. */
interface PortsStore {
  ports: Loadable<MobilePortView[]>;
  load: (force?: boolean) => Promise<void>;
  reset: () => void;
}

let generation = 0;

export const usePortsStore = create<PortsStore>()((set, get) => ({
  ports: idle(),

  load: async (force = false) => {
    const current = get().ports;
    if (!needsLoad(current, force)) return;
    const mine = generation;
    set({ ports: loading(current) });
    const result = await callApi((api) => api.ports.list());
    if (mine !== generation) return;
    set((store) => ({ ports: settled(store.ports, result) }));
  },

  reset: () => {
    generation += 1;
    set({ ports: idle() });
  },
}));
