import { describe, expect, it } from 'vitest';
import { CALL_CHANNELS, EVENT_CHANNELS } from '../../../src-shared/contract/channel-names';
import { ipcCalls, ipcEvents } from '../../../src-shared/contract';

describe('channel names for the preload', () => {
  it('are exactly the contract channels, each once', () => {
    expect([...CALL_CHANNELS].sort()).toEqual(Object.keys(ipcCalls).sort());
    expect([...EVENT_CHANNELS].sort()).toEqual(Object.keys(ipcEvents).sort());
    expect(new Set(CALL_CHANNELS).size).toBe(CALL_CHANNELS.length);
    expect(new Set(EVENT_CHANNELS).size).toBe(EVENT_CHANNELS.length);
  });

  it('declare the per-domain events the renderer builds against', () => {
    expect([...EVENT_CHANNELS].sort()).toEqual(
      [
        'app:stateChanged',
        'app:callSlow',
        'app:navigate',
        'alerts:raised',
        'ports:changed',
        'ports:rotation',
        'ports:healthChanged',
        'schedules:changed',
        'settings:changed',
        'subscriptions:changed',
        'topups:changed',
        'tray:changed',
        'localProxies:changed',
        'updates:changed',
      ].sort(),
    );
  });
});
