import { describe, expect, it } from 'vitest';
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

  it('exports the filtered top-ups as CSV made in main, and keeps its error', async () => {
    const file = { fileName: 'topups-credited.csv', csv: 'id\r\ntopup_1\r\n', rows: 1 };
    fake.current.handle('topups:exportCsv', () => ok(file));
    await useTopUpsStore.getState().setStatus('credited');
    expect(await useTopUpsStore.getState().exportCsv()).toEqual(file);
    expect(fake.current.callsTo('topups:exportCsv')).toEqual([{ status: 'credited' }]);
    fake.current.handle('topups:exportCsv', () => fail('network_error', 'offline'));
    expect(await useTopUpsStore.getState().exportCsv()).toBeNull();
    expect(useTopUpsStore.getState().exportError?.message).toBe('offline');
  });

  it('desktop: saves the CSV through main (a save dialog; the window cannot download) and says where', async () => {
    useAppStore.setState({ state: appState({ mode: 'desktop' }) });
    const file = { fileName: 'topups.csv', csv: 'id\r\ntopup_1\r\n', rows: 1 };
    fake.current.handle('topups:exportCsv', () => ok(file));
    fake.current.handle('app:saveFile', () => ok({ saved: true, path: '/home/me/Downloads/topups.csv' }));
    expect(await useTopUpsStore.getState().exportCsv()).toBeNull();
    expect(fake.current.callsTo('app:saveFile')).toEqual([{ fileName: 'topups.csv', content: file.csv }]);
    expect(useTopUpsStore.getState().exportedTo).toBe('/home/me/Downloads/topups.csv');
    // Cancelled: nothing said; a failure to write is shown.
    fake.current.handle('app:saveFile', () => ok({ saved: false, path: null }));
    await useTopUpsStore.getState().exportCsv();
    expect(useTopUpsStore.getState()).toMatchObject({ exportedTo: null, exportError: null });
    fake.current.handle('app:saveFile', () => fail('internal_error', 'EACCES: permission denied'));
    await useTopUpsStore.getState().exportCsv();
    expect(useTopUpsStore.getState().exportError?.message).toBe('EACCES: permission denied');
    useAppStore.setState({ state: null });
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
