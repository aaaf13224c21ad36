import { describe, expect, it, vi } from 'vitest';
import { ipcCalls } from '../../src-shared/contract';

vi.mock('electron', () => ({}));

const { registerIpcHandlers } = await import('../../src-main/shell/ipc-wiring');

describe('IPC wiring', () => {
  it('registers exactly the contract channels, each through the guarded dispatcher with the sender frame', async () => {
    const registered = new Map<string, (event: unknown, input: unknown, meta?: unknown) => unknown>();
    const ipcMain = {
      handle: vi.fn((channel: string, handler: (event: unknown, input: unknown) => unknown) =>
        registered.set(channel, handler),
      ),
      removeHandler: vi.fn((channel: string) => registered.delete(channel)),
    };
    const dispatch = vi.fn(() => Promise.resolve({ ok: true as const, value: 'answer' }));
    const unregister = registerIpcHandlers(ipcMain as any, dispatch);
    expect([...registered.keys()].sort()).toEqual(Object.keys(ipcCalls).sort());

    const frame = { url: 'file:///app/out/renderer/index.html' };
    const result = await registered.get('catalog:states')?.({ senderFrame: frame }, { countryCode: 'US' });
    expect(result).toEqual({ ok: true, value: 'answer' });
    expect(dispatch).toHaveBeenCalledWith(frame, 'catalog:states', { countryCode: 'US' }, undefined);
    await registered.get('catalog:coins')?.({ senderFrame: frame }, undefined, { callId: 'c2', x: 1 });
    expect(dispatch).toHaveBeenLastCalledWith(frame, 'catalog:coins', undefined, { callId: 'c2' });

    unregister();
    expect(registered.size).toBe(0);
  });
});
