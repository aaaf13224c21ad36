import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ shell: { openPath: vi.fn(() => Promise.resolve('')) } }));

const { createInstallerOpener } = await import('../../src-main/shell/open-external');

describe('the installer opener (the only caller of shell.openPath)', () => {
  it('opens only an installer of the updates folder, and reports what the OS could not open', async () => {
    const opened: string[] = [];
    const open = createInstallerOpener('/data/updates', (path) => {
      opened.push(path);
      return Promise.resolve(path.endsWith('.rpm') ? 'no application for rpm' : '');
    });
    await open('/data/updates/proxy-manager-0.2.0-mac-arm64-dmg.dmg');
    expect(opened).toEqual(['/data/updates/proxy-manager-0.2.0-mac-arm64-dmg.dmg']);
    await expect(open('/data/updates/proxy-manager-0.2.0-linux-x64-rpm.rpm')).rejects.toThrow(
      'no application for rpm',
    );
    for (const path of [
      '/tmp/proxy-manager-0.2.0-win-x64-nsis.exe',
      '/data/updates/../evil.exe',
      '/data/updates/run.sh',
    ]) {
      await expect(open(path)).rejects.toThrow(/Only a verified installer/);
    }
    expect(opened).toHaveLength(2);
  });
});
