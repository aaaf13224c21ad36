import { describe, expect, it, vi } from 'vitest';

const openExternal = vi.hoisted(() => vi.fn((_url: string) => Promise.resolve()));
vi.mock('electron', () => ({ shell: { openExternal } }));

const { createLinkOpener } = await import('../../src-main/shell/open-external');

describe('the link opener (the only caller of shell.openExternal)', () => {
  it('passes https and wallet-scheme links to the OS and refuses every other scheme', async () => {
    const opened: string[] = [];
    const open = createLinkOpener((url) => {
      opened.push(url);
      return Promise.resolve();
    });
    await open('https://mempool.space/tx/abc');
    await open('bitcoin:tb1qdeposit?amount=0.1');
    await open('ethereum:0xToken@11155111/transfer?address=0xDep&uint256=1');
    for (const url of ['http://example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://h/s', 'x']) {
      await expect(open(url)).rejects.toThrow(/not opened/);
    }
    expect(opened).toEqual([
      'https://mempool.space/tx/abc',
      'bitcoin:tb1qdeposit?amount=0.1',
      'ethereum:0xToken@11155111/transfer?address=0xDep&uint256=1',
    ]);
  });

  it('uses Electron’s shell.openExternal by default', async () => {
    await createLinkOpener()('tron:TDeposit?amount=1');
    expect(openExternal).toHaveBeenCalledWith('tron:TDeposit?amount=1');
  });
});
