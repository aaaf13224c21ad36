import { describe, expect, it, vi } from 'vitest';
import { TOP_UPS_PER_PAGE, useTopUpsStore } from '../../../../src-renderer/src/features/topups/topups-store';
import { deferred, fail, ok } from '../../support/fake-api';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { appState, topUp, topUpPage } from '../../support/fixtures';
import { useFakeApi } from '../../support/renderer-test-kit';

describe('top-ups store', () => {
  const fake = useFakeApi(() => ({ 'topups:list': () => ok(topUpPage([topUp()])) }));

  it('asks for the page, page size and status of its query', async () => {
    await useTopUpsStore.getState().load();
    await useTopUpsStore.getState().setStatus('verifying');
    await useTopUpsStore.getState().goToPage(3);
    expect(fake.current.callsTo('topups:list')).toEqual([
      { page: 1, perPage: TOP_UPS_PER_PAGE },
      { page: 1, perPage: TOP_UPS_PER_PAGE, status: 'verifying' },
      { page: 3, perPage: TOP_UPS_PER_PAGE, status: 'verifying' },
    ]);
  });

  it('goes back to page 1 when the status filter changes', async () => {
    await useTopUpsStore.getState().goToPage(2);
    await useTopUpsStore.getState().setStatus('credited');
    expect(useTopUpsStore.getState().query).toEqual({
      status: 'credited',
      page: 1,
      perPage: TOP_UPS_PER_PAGE,
    });
  });

  it('changes the page size up to the service’s 100 and goes back to page 1', async () => {
    await useTopUpsStore.getState().goToPage(3);
    await useTopUpsStore.getState().setPerPage(100);
    await useTopUpsStore.getState().setPerPage(500);
    expect(fake.current.callsTo('topups:list').slice(1)).toEqual([
      { page: 1, perPage: 100 },
      { page: 1, perPage: 100 },
    ]);
  });

  it('web mode: exports the filtered top-ups as CSV made in main through the browser download, and keeps its error', async () => {
    const file = { fileName: 'topups-credited.csv', csv: 'id\r\ntopup_1\r\n', rows: 1 };
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => (created.push(blob), 'blob:csv'));
    URL.revokeObjectURL = vi.fn();
    fake.current.handle('topups:exportCsv', () => ok(file));
    await useTopUpsStore.getState().setStatus('credited');
    await useTopUpsStore.getState().exportCsv();
    expect(fake.current.callsTo('topups:exportCsv')).toEqual([{ status: 'credited' }]);
    expect(await created[0]?.text()).toBe(file.csv);
    expect(created[0]?.type).toBe('text/csv;charset=utf-8');
    expect(useTopUpsStore.getState().exported).toEqual({
      status: 'downloaded',
      fileName: 'topups-credited.csv',
    });
    expect(fake.current.callsTo('app:saveFile')).toEqual([]);
    fake.current.handle('topups:exportCsv', () => fail('network_error', 'offline'));
    await useTopUpsStore.getState().exportCsv();
    expect(useTopUpsStore.getState().exported).toMatchObject({
      status: 'failed',
      error: { message: 'offline' },
    });
  });

  it('desktop: saves the CSV through main (a save dialog; the window cannot download) and says where', async () => {
    useAppStore.setState({ state: appState({ mode: 'desktop' }) });
    const file = { fileName: 'topups.csv', csv: 'id\r\ntopup_1\r\n', rows: 1 };
    fake.current.handle('topups:exportCsv', () => ok(file));
    fake.current.handle('app:saveFile', () => ok({ saved: true, path: '/home/me/Downloads/topups.csv' }));
    await useTopUpsStore.getState().exportCsv();
    expect(fake.current.callsTo('app:saveFile')).toEqual([{ fileName: 'topups.csv', content: file.csv }]);
    expect(useTopUpsStore.getState().exported).toEqual({
      status: 'saved',
      path: '/home/me/Downloads/topups.csv',
    });
    fake.current.handle('app:saveFile', () => ok({ saved: false, path: null }));
    await useTopUpsStore.getState().exportCsv();
    expect(useTopUpsStore.getState().exported).toEqual({ status: 'cancelled' });
    fake.current.handle('app:saveFile', () => fail('internal_error', 'EACCES: permission denied'));
    await useTopUpsStore.getState().exportCsv();
    expect(useTopUpsStore.getState().exported).toMatchObject({
      status: 'failed',
      error: { message: 'EACCES: permission denied' },
    });
  });

  it('does not read the same page twice unless asked to', async () => {
    await useTopUpsStore.getState().load();
    await useTopUpsStore.getState().load();
    expect(fake.current.callsTo('topups:list')).toHaveLength(1);
    await useTopUpsStore.getState().load(true);
    expect(fake.current.callsTo('topups:list')).toHaveLength(2);
  });

  it('drops the answer of a query the user has already left', async () => {
    const slow = deferred<ReturnType<typeof ok>>();
    fake.current.handle('topups:list', (input) =>
      input?.status === 'expired'
        ? ok(topUpPage([topUp({ id: 'expired_one', status: 'expired' })]))
        : (slow.promise as never),
    );
    const first = useTopUpsStore.getState().load();
    await useTopUpsStore.getState().setStatus('expired');
    slow.resolve(ok(topUpPage([topUp({ id: 'stale' })])));
    await first;
    expect(useTopUpsStore.getState().page.data?.data.map((t) => t.id)).toEqual(['expired_one']);
  });
});
