import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { buildRendererApi } from './renderer-api-builder';

// Only the functions built from the contract cross the bridge; ipcRenderer itself never does, and
// listeners get the payload alone (never the Electron event, which would leak `sender`).
contextBridge.exposeInMainWorld(
  'api',
  buildRendererApi({
    invoke: (channel, input, meta) => ipcRenderer.invoke(channel, input, meta),
    subscribe: (channel, listener) => {
      const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(channel, forward);
      return () => {
        ipcRenderer.removeListener(channel, forward);
      };
    },
  }),
);
