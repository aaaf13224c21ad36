import { create } from 'zustand';
import type { MobilePort } from '../../../../src-main/api/api-types';
import type { IpcResult } from '../../../../src-main/ipc/contract';
import { callApi } from '../../api/window-api';
import { idle, loading, needsLoad, settled, type Loadable } from '../../shared/loadable';

/**
 * A port as main sends it: without its rotation link (which carries the key). Spelled out with key
 * remapping because `Omit` on a type with an index signature (the API's loose objects) drops every
 * named member.
 */
export type PortView = {
  [K in keyof MobilePort as string extends K ? never : K extends 'rotationLink' ? never : K]: MobilePort[K];
} & { hasRotationLink: boolean };

/** Mobile ports of the active account. Actions (rotate, relocate, …) join this store in later slices. */
interface PortsStore {
  ports: Loadable<PortView[]>;
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
    const result = (await callApi((api) => api.ports.list())) as IpcResult<PortView[]>;
    if (mine !== generation) return;
    set((store) => ({ ports: settled(store.ports, result) }));
  },

  reset: () => {
    generation += 1;
    set({ ports: idle() });
  },
}));
