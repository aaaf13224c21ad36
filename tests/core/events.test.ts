import { describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../src-main/core/events';
import { defaultSettings } from '../../src-main/core/settings/settings-schema';
import { toSettingsView } from '../../src-main/core/settings/settings-service';
import type { PortsChanged, SettingsView } from '../../src-shared/contract';

// The app's own defaults, so the fixture never falls behind the settings view.
const settings: SettingsView = { ...toSettingsView(defaultSettings()), theme: 'dark' };

describe('EventBus', () => {
  it('delivers each event to every subscriber of all events and to the listeners of its channel', () => {
    const bus = new EventBus();
    const all: [string, unknown][] = [];
    const ports: PortsChanged[] = [];
    const settingsSeen: SettingsView[] = [];
    bus.subscribe((channel, payload) => all.push([channel, payload]));
    bus.on('ports:changed', (payload) => ports.push(payload));
    bus.on('settings:changed', (payload) => settingsSeen.push(payload));

    const changed: PortsChanged = { profileId: 'p1', changed: [] };
    bus.emit('ports:changed', changed);
    bus.emit('settings:changed', settings);

    expect(all).toEqual([
      ['ports:changed', changed],
      ['settings:changed', settings],
    ]);
    expect(ports).toEqual([changed]);
    expect(settingsSeen).toEqual([settings]);
  });

  it('stops delivering after unsubscribe and after clear', () => {
    const bus = new EventBus();
    const all = vi.fn();
    const one = vi.fn();
    const unsubscribe = bus.subscribe(all);
    const off = bus.on('settings:changed', one);
    unsubscribe();
    off();
    bus.emit('settings:changed', settings);
    bus.on('settings:changed', one);
    bus.clear();
    bus.emit('settings:changed', settings);
    expect(all).not.toHaveBeenCalled();
    expect(one).not.toHaveBeenCalled();
  });

  it('a listener that throws is logged and does not stop the others or the emitter', () => {
    const log = vi.fn();
    const bus = new EventBus(log);
    const after = vi.fn();
    bus.subscribe(() => {
      throw new Error('window gone');
    });
    bus.subscribe(after);
    expect(() => bus.emit('settings:changed', settings)).not.toThrow();
    expect(after).toHaveBeenCalledOnce();
    expect(log).toHaveBeenCalledWith(expect.stringContaining('window gone'));
  });
});
