import { describe, expect, it, vi } from 'vitest';
import { ipcCalls, ipcEvents } from '../../src-shared/contract';
import { buildRendererApi } from '../../src-main/shell/renderer-api-builder';

describe('renderer API built from the contract', () => {
  it('has one function per call and one on* per event, and nothing else', () => {
    const api = buildRendererApi({ invoke: vi.fn(), subscribe: vi.fn() }) as unknown as Record<
      string,
      Record<string, unknown>
    >;
    const members = Object.entries(api).flatMap(([domain, fns]) =>
      Object.keys(fns).map((name) => `${domain}.${name}`),
    );
    const expected = [
      ...Object.keys(ipcCalls).map((c) => c.replace(':', '.')),
      ...Object.keys(ipcEvents).map((e) => {
        const [domain, name = ''] = e.split(':');
        return `${domain}.on${name.charAt(0).toUpperCase()}${name.slice(1)}`;
      }),
    ];
    expect(members.sort()).toEqual(expected.sort());
    expect(
      Object.values(api)
        .flatMap((fns) => Object.values(fns))
        .every((f) => typeof f === 'function'),
    ).toBe(true);
  });

  it('routes calls and subscriptions to the transport', async () => {
    const invoke = vi.fn(() => Promise.resolve({ ok: true as const, value: 1 }));
    const unsubscribe = vi.fn();
    const subscribe = vi.fn(() => unsubscribe);
    const api = buildRendererApi({ invoke, subscribe });
    await api.catalog.states({ countryCode: 'US' });
    expect(invoke).toHaveBeenCalledWith('catalog:states', { countryCode: 'US' }, undefined);
    await api.app.getState();
    expect(invoke).toHaveBeenCalledWith('app:getState', undefined, undefined);
    // The call id goes beside the input; anything else the page passes there is dropped.
    await api.app.getState(undefined, { callId: 'c1', extra: 'x' } as { callId: string });
    expect(invoke).toHaveBeenLastCalledWith('app:getState', undefined, { callId: 'c1' });
    const listener = vi.fn();
    const off = api.app.onStateChanged(listener);
    expect(subscribe).toHaveBeenCalledWith('app:stateChanged', listener);
    off();
    expect(unsubscribe).toHaveBeenCalled();
    expect(() => api.app.onStateChanged('nope' as any)).toThrow(TypeError);
  });
});
