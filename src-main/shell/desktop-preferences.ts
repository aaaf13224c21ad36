/**
 * The desktop-only preferences the shell acts on (settings.json `desktop`). The shell reads them
 * through this small interface so that it does not depend on how the core stores settings; main.ts
 * passes in an implementation backed by the core's settings.
 */
export interface DesktopPreferences {
  /** Closing the window leaves the app running in the tray (default on). */
  closeToTray: boolean;
  /** Registered as a login item (macOS, Windows). */
  startAtLogin: boolean;
  /** A start at login comes up in the tray, with no window. */
  startMinimized: boolean;
}

export const DEFAULT_DESKTOP_PREFERENCES: Readonly<DesktopPreferences> = Object.freeze({
  closeToTray: true,
  startAtLogin: false,
  startMinimized: false,
});

export interface DesktopPreferencesSource {
  getDesktopPreferences(): DesktopPreferences;
  /** Called after every change; returns the unsubscribe function. */
  onDesktopPreferencesChanged(listener: (preferences: DesktopPreferences) => void): () => void;
}

/**
 * Preferences that follow the core's settings: the defaults until `attach` (the window and tray
 * exist before the core is up), then `settings.desktop`, updated on every `settings:changed`.
 */
export class SettingsDesktopPreferences implements DesktopPreferencesSource {
  private current: DesktopPreferences = { ...DEFAULT_DESKTOP_PREFERENCES };
  private readonly listeners = new Set<(preferences: DesktopPreferences) => void>();

  getDesktopPreferences(): DesktopPreferences {
    return { ...this.current };
  }

  onDesktopPreferencesChanged(listener: (preferences: DesktopPreferences) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adopts the settings' value now and after every change of the settings. */
  attach(
    initial: DesktopPreferences,
    subscribe: (listener: (channel: string, payload: unknown) => void) => () => void,
  ): () => void {
    this.set(initial);
    return subscribe((channel, payload) => {
      if (channel !== 'settings:changed') return;
      const desktop = (payload as { desktop?: DesktopPreferences } | null)?.desktop;
      if (desktop) this.set(desktop);
    });
  }

  private set(next: DesktopPreferences): void {
    const same =
      next.closeToTray === this.current.closeToTray &&
      next.startAtLogin === this.current.startAtLogin &&
      next.startMinimized === this.current.startMinimized;
    this.current = {
      closeToTray: next.closeToTray,
      startAtLogin: next.startAtLogin,
      startMinimized: next.startMinimized,
    };
    if (same) return;
    for (const listener of this.listeners) listener(this.getDesktopPreferences());
  }
}
