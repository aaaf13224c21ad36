import { describe, expect, it, vi } from 'vitest';

const exposed: Record<string, unknown> = {};
const ipcListeners = new Map<string, (event: unknown, payload: unknown) => void>();
const invoke = vi.fn((channel: string, input: unknown) =>
  Promise.resolve({ ok: true, value: { channel, input } }),
);

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (name: string, value: unknown) => {
      exposed[name] = value;
    },
  },
  ipcRenderer: {
    invoke,
    on: (channel: string, listener: (event: unknown, payload: unknown) => void) =>
      ipcListeners.set(channel, listener),
    removeListener: (channel: string) => ipcListeners.delete(channel),
  },
}));

await import('../../src-main/shell/preload');

describe('preload', () => {
  it('exposes only `api`, built from the contract, never ipcRenderer', () => {
    expect(Object.keys(exposed)).toEqual(['api']);
    const api = exposed.api as Record<string, Record<string, unknown>>;
    expect(JSON.stringify(Object.keys(api))).not.toContain('ipcRenderer');
    for (const domain of Object.values(api)) {
      for (const member of Object.values(domain)) expect(typeof member).toBe('function');
    }
  });

  it('invokes contract channels and gives listeners the payload without the Electron event', async () => {
    const api = exposed.api as any;
    expect(await api.catalog.countries({ product: 'mobile' })).toEqual({
      ok: true,
      value: { channel: 'catalog:countries', input: { product: 'mobile' } },
    });
    const listener = vi.fn();
    const off = api.app.onStateChanged(listener);
    ipcListeners.get('app:stateChanged')?.({ sender: 'secret electron object' }, { mode: 'desktop' });
    expect(listener).toHaveBeenCalledWith({ mode: 'desktop' });
    expect(listener.mock.calls[0]).toHaveLength(1);
    off();
    expect(ipcListeners.has('app:stateChanged')).toBe(false);
  });
});
