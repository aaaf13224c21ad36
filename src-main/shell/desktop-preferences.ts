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

/** A source that never changes: the defaults until the core's settings are wired in. */
export function fixedDesktopPreferences(
  preferences: DesktopPreferences = DEFAULT_DESKTOP_PREFERENCES,
): DesktopPreferencesSource {
  return {
    getDesktopPreferences: () => ({ ...preferences }),
    onDesktopPreferencesChanged: () => () => undefined,
  };
}
