import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DESKTOP_PREFERENCES,
  SettingsDesktopPreferences,
  type DesktopPreferences,
} from '../../src-main/shell/desktop-preferences';

function eventSource() {
  const listeners = new Set<(channel: string, payload: unknown) => void>();
  return {
    subscribe: (listener: (channel: string, payload: unknown) => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    emit: (channel: string, payload: unknown) => {
      for (const listener of listeners) listener(channel, payload);
    },
  };
}

describe('SettingsDesktopPreferences', () => {
  it('gives the defaults before the core is up, then follows settings:changed', () => {
    const source = new SettingsDesktopPreferences();
    expect(source.getDesktopPreferences()).toEqual(DEFAULT_DESKTOP_PREFERENCES);
    const seen: DesktopPreferences[] = [];
    source.onDesktopPreferencesChanged((next) => seen.push(next));
    const events = eventSource();
    source.attach({ closeToTray: false, startAtLogin: false, startMinimized: false }, events.subscribe);
    expect(source.getDesktopPreferences().closeToTray).toBe(false);
    events.emit('settings:changed', {
      desktop: { closeToTray: false, startAtLogin: true, startMinimized: true },
    });
    events.emit('ports:changed', {
      desktop: { closeToTray: true, startAtLogin: true, startMinimized: true },
    });
    // Equal values are not announced again.
    events.emit('settings:changed', {
      desktop: { closeToTray: false, startAtLogin: true, startMinimized: true },
    });
    expect(seen).toEqual([
      { closeToTray: false, startAtLogin: false, startMinimized: false },
      { closeToTray: false, startAtLogin: true, startMinimized: true },
    ]);
  });
});
