import type { IpcMain, IpcMainInvokeEvent, WebFrameMain } from 'electron';
import { ipcCalls } from '../../src-shared/contract';
import type { GuardedDispatch } from '../dispatch/guarded-dispatcher';

/** Registers one `ipcMain.handle` per contract call; every one goes through the guarded dispatcher. */
export function registerIpcHandlers(
  ipcMain: IpcMain,
  dispatch: GuardedDispatch<WebFrameMain | null>,
): () => void {
  const channels = Object.keys(ipcCalls);
  for (const channel of channels) {
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, input: unknown, meta: unknown) =>
      dispatch(event.senderFrame, channel, input, isObject(meta) ? { callId: meta.callId } : undefined),
    );
  }
  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
