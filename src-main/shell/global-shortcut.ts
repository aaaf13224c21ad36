import { globalShortcut } from 'electron';
import type { ShortcutPreferences } from '../../src-shared/contract';

/** The part of Electron's `globalShortcut` the app uses. */
export interface ShortcutRegistry {
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

export interface GlobalShortcutOptions {
  /** Default: Electron's `globalShortcut` (tests inject a fake). */
  registry?: ShortcutRegistry;
  /** What the shortcut does: rotate the first pinned port. */
  onPress: () => void;
  /** Told when the accelerator could not be taken (another app holds it). */
  onUnavailable: (accelerator: string) => void;
}

/**
 * The optional global shortcut (off by default). `apply` follows the settings: it registers the
 * chosen accelerator, moves it when the user picks another, and releases it when turned off.
 */
export class GlobalShortcut {
  private registered: string | null = null;
  private readonly registry: ShortcutRegistry;

  constructor(private readonly options: GlobalShortcutOptions) {
    this.registry = options.registry ?? globalShortcut;
  }

  get accelerator(): string | null {
    return this.registered;
  }

  apply(preferences: ShortcutPreferences): void {
    const wanted = preferences.enabled ? preferences.accelerator : null;
    if (wanted === this.registered) return;
    this.release();
    if (wanted === null) return;
    if (this.registry.register(wanted, () => this.options.onPress())) {
      this.registered = wanted;
    } else {
      this.options.onUnavailable(wanted);
    }
  }

  release(): void {
    if (this.registered !== null) this.registry.unregister(this.registered);
    this.registered = null;
  }
}
