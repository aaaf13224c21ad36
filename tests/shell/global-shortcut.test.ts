import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ globalShortcut: { register: () => false, unregister: () => undefined } }));

const { GlobalShortcut } = await import('../../src-main/shell/global-shortcut');

function setup(taken: string[] = []) {
  const registered = new Map<string, () => void>();
  const log: string[] = [];
  const presses: number[] = [];
  const shortcut = new GlobalShortcut({
    registry: {
      register: (accelerator, callback) => {
        log.push(`register ${accelerator}`);
        if (taken.includes(accelerator)) return false;
        registered.set(accelerator, callback);
        return true;
      },
      unregister: (accelerator) => {
        log.push(`unregister ${accelerator}`);
        registered.delete(accelerator);
      },
    },
    onPress: () => presses.push(1),
    onUnavailable: (accelerator) => log.push(`unavailable ${accelerator}`),
  });
  return { shortcut, registered, log, presses };
}

describe('GlobalShortcut', () => {
  it('is off by default and registers only once turned on', () => {
    const { shortcut, log } = setup();
    shortcut.apply({ enabled: false, accelerator: 'CommandOrControl+Alt+R' });
    expect(log).toEqual([]);
    shortcut.apply({ enabled: true, accelerator: 'CommandOrControl+Alt+R' });
    shortcut.apply({ enabled: true, accelerator: 'CommandOrControl+Alt+R' });
    expect(log).toEqual(['register CommandOrControl+Alt+R']);
  });

  it('runs its action when pressed, moves to a new accelerator and releases it when turned off', () => {
    const { shortcut, registered, log, presses } = setup();
    shortcut.apply({ enabled: true, accelerator: 'Ctrl+Alt+R' });
    registered.get('Ctrl+Alt+R')?.();
    expect(presses).toHaveLength(1);
    shortcut.apply({ enabled: true, accelerator: 'Ctrl+Alt+T' });
    shortcut.apply({ enabled: false, accelerator: 'Ctrl+Alt+T' });
    expect(log).toEqual([
      'register Ctrl+Alt+R',
      'unregister Ctrl+Alt+R',
      'register Ctrl+Alt+T',
      'unregister Ctrl+Alt+T',
    ]);
    expect(shortcut.accelerator).toBeNull();
  });

  it('says so when another app holds the accelerator', () => {
    const { shortcut, log } = setup(['Ctrl+Alt+R']);
    shortcut.apply({ enabled: true, accelerator: 'Ctrl+Alt+R' });
    expect(log).toEqual(['register Ctrl+Alt+R', 'unavailable Ctrl+Alt+R']);
    expect(shortcut.accelerator).toBeNull();
  });
});
