import { describe, expect, it } from 'vitest';
import { ipcCalls } from '../../../src-main/ipc/contract';

const update = ipcCalls['settings:update'].input;

describe('settings:update for notifications and the global shortcut', () => {
  it('turns single notification kinds off', () => {
    expect(update.safeParse({ notifications: { 'rotation-same-ip': false } }).success).toBe(true);
    expect(update.safeParse({ notifications: { 'top-up-credited': false } }).success).toBe(false);
  });

  it('takes an accelerator with at least one modifier', () => {
    for (const accelerator of ['CommandOrControl+Alt+R', 'Ctrl+Shift+F12', 'Alt+Space']) {
      expect(update.safeParse({ shortcut: { enabled: true, accelerator } }).success, accelerator).toBe(true);
    }
    for (const accelerator of ['R', 'F5', 'Ctrl+', 'Ctrl+Alt+RR', 'Hyper+R', `Ctrl+${'A'.repeat(70)}`]) {
      const parsed = update.safeParse({ shortcut: { accelerator } });
      expect(parsed.success, accelerator).toBe(false);
      expect(parsed.error?.issues[0]?.path).toEqual(['shortcut', 'accelerator']);
    }
  });
});
