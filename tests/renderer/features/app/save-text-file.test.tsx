import { describe, expect, it, vi } from 'vitest';
import { appCalls } from '../../../../src-shared/contract/app';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { safeFileName } from '../../../../src-renderer/src/shared/file-name';
import { fail, ok } from '../../support/fake-api';
import { appState } from '../../support/fixtures';
import { useFakeApi } from '../../support/renderer-test-kit';

const saveRule = appCalls['app:saveFile'].input;

function captureDownloads() {
  const blobs: Blob[] = [];
  const names: string[] = [];
  URL.createObjectURL = vi.fn((blob: Blob) => (blobs.push(blob), `blob:${blobs.length}`));
  URL.revokeObjectURL = vi.fn();
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    names.push(this.download);
  });
  return { blobs, names, restore: () => click.mockRestore() };
}

describe('saveTextFile: the one way the page saves a file', () => {
  const fake = useFakeApi(() => ({}));

  it('web mode: hands the file to the browser download, never to main', async () => {
    const downloads = captureDownloads();
    const outcome = await useAppStore
      .getState()
      .saveTextFile({ fileName: 'usage.csv', content: 'day,bytes\n', type: 'text/csv' });
    downloads.restore();
    expect(outcome).toEqual({ status: 'downloaded', fileName: 'usage.csv' });
    expect(downloads.names).toEqual(['usage.csv']);
    expect(await downloads.blobs[0]?.text()).toBe('day,bytes\n');
    expect(downloads.blobs[0]?.type).toBe('text/csv;charset=utf-8');
    expect(fake.current.callsTo('app:saveFile')).toEqual([]);
    // The anchor is not left in the page.
    expect(document.querySelectorAll('a[download]')).toHaveLength(0);
  });

  it('desktop: saves through main (app:saveFile) and answers the path, a cancel or the error', async () => {
    useAppStore.setState({ state: appState({ mode: 'desktop' }) });
    const downloads = captureDownloads();
    fake.current.handle('app:saveFile', () => ok({ saved: true, path: '/home/me/Downloads/lines.txt' }));
    const save = () => useAppStore.getState().saveTextFile({ fileName: 'lines.txt', content: 'a\nb\n' });
    expect(await save()).toEqual({ status: 'saved', path: '/home/me/Downloads/lines.txt' });
    expect(fake.current.callsTo('app:saveFile')).toEqual([{ fileName: 'lines.txt', content: 'a\nb\n' }]);
    fake.current.handle('app:saveFile', () => ok({ saved: false, path: null }));
    expect(await save()).toEqual({ status: 'cancelled' });
    fake.current.handle('app:saveFile', () => fail('internal_error', 'EACCES: permission denied'));
    expect(await save()).toEqual({
      status: 'failed',
      error: { code: 'internal_error', message: 'EACCES: permission denied' },
    });
    downloads.restore();
    // The desktop window never tries a download (its guards would refuse the navigation).
    expect(downloads.names).toEqual([]);
  });

  it('makes a name from a service id fit the save rule before asking main', async () => {
    useAppStore.setState({ state: appState({ mode: 'desktop' }) });
    fake.current.handle('app:saveFile', () => ok({ saved: true, path: '/tmp/x' }));
    await useAppStore.getState().saveTextFile({ fileName: 'proxies-sub/1:"x".txt', content: '' });
    expect(fake.current.callsTo('app:saveFile')).toEqual([
      { fileName: 'proxies-sub_1__x_.txt', content: '' },
    ]);
  });
});

describe('export file names', () => {
  it('every export name passes the app:saveFile rule', () => {
    // The names main makes (ports, subscriptions, top-ups services) and the proxy lines' name.
    const names = [
      'port-port_1-ip-history.csv',
      'subscription-sub_1-usage-2026-01-01-2026-01-31.csv',
      'subscription-sub_1-su_2-usage-2026-01-01-2026-01-31.csv',
      'subscription-sub_1-credentials.txt',
      'topups.csv',
      'topups-awaiting_payment.csv',
      safeFileName('proxies-sub_1.txt'),
    ];
    for (const fileName of names)
      expect(saveRule.safeParse({ fileName, content: '' }).success, fileName).toBe(true);
  });

  it('safeFileName turns anything into a name the rule accepts', () => {
    for (const raw of [
      '../../etc/passwd',
      '.hidden',
      'a\\b',
      'x'.repeat(300) + '.csv',
      '',
      'ü ñ (1).txt',
      '\u0000',
    ]) {
      const fileName = safeFileName(raw);
      expect(saveRule.safeParse({ fileName, content: '' }).success, JSON.stringify(raw)).toBe(true);
    }
    expect(safeFileName('x'.repeat(300) + '.csv')).toMatch(/^x{196}\.csv$/);
    expect(safeFileName('ü ñ (1).txt')).toBe('ü ñ (1).txt');
  });
});
