import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ dialog: { showSaveDialog: vi.fn() } }));

const { createFileSaver } = await import('../../src-main/shell/save-file');

describe('saving a file the page made (app:saveFile on the desktop)', () => {
  it('asks where with the OS dialog in Downloads, writes the content there, and says where', async () => {
    const written: [string, string][] = [];
    const asked: unknown[] = [];
    const save = createFileSaver({
      defaultDir: () => '/home/me/Downloads',
      showSaveDialog: (options) => {
        asked.push(options);
        return Promise.resolve({ canceled: false, filePath: '/home/me/Documents/topups-credited.csv' });
      },
      writeFile: (path, content) => {
        written.push([path, content]);
        return Promise.resolve();
      },
    });
    await expect(save('topups-credited.csv', 'id,amountUsd\ntopup_1,50.00\n')).resolves.toBe(
      '/home/me/Documents/topups-credited.csv',
    );
    expect(asked).toEqual([
      {
        title: 'Save as',
        defaultPath: '/home/me/Downloads/topups-credited.csv',
        filters: [
          { name: 'CSV file', extensions: ['csv'] },
          { name: 'All files', extensions: ['*'] },
        ],
      },
    ]);
    expect(written).toEqual([['/home/me/Documents/topups-credited.csv', 'id,amountUsd\ntopup_1,50.00\n']]);
  });

  it('writes nothing when the user cancels', async () => {
    const writeFile = vi.fn(() => Promise.resolve());
    const save = createFileSaver({
      defaultDir: () => '/tmp',
      showSaveDialog: () => Promise.resolve({ canceled: true }),
      writeFile,
    });
    await expect(save('x.csv', 'a')).resolves.toBeNull();
    expect(writeFile).not.toHaveBeenCalled();
  });

  it('keeps the suggested name inside the default folder whatever it holds', async () => {
    const asked: string[] = [];
    const save = createFileSaver({
      defaultDir: () => '/home/me/Downloads',
      showSaveDialog: (options) => {
        asked.push(options.defaultPath);
        return Promise.resolve({ canceled: true });
      },
    });
    await save('../../.bashrc', '');
    expect(asked).toEqual(['/home/me/Downloads/.bashrc']);
  });
});
