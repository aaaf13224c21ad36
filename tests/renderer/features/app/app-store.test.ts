import { describe, expect, it } from 'vitest';
import { accountKey, useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { fail, ok } from '../../support/fake-api';
import { appState, profile } from '../../support/fixtures';
import { useFakeApi } from '../../support/renderer-test-kit';

describe('app store', () => {
  const fake = useFakeApi(() => ({ 'app:getState': () => ok(appState()) }));

  it('keeps the first load failure for the start-up screen', async () => {
    fake.current.handle('app:getState', () => fail('web_token_rejected', 'Open the printed URL.'));
    await useAppStore.getState().load();
    expect(useAppStore.getState().loadError).toMatchObject({ code: 'web_token_rejected' });
    expect(useAppStore.getState().state).toBeNull();
  });

  it('turns a transport that throws into an error result instead of a stuck screen', async () => {
    window.api = {
      ...fake.current.api,
      app: {
        ...fake.current.api.app,
        getState: () => Promise.reject(new Error('no handler for app:getState')),
      },
    };
    await useAppStore.getState().load();
    expect(useAppStore.getState().loadError).toMatchObject({ code: 'transport_error' });
    expect(useAppStore.getState().loadError?.message).toMatch(/no handler/);
  });

  it('dismisses a notice through app:dismissNotice and applies the answered state', async () => {
    const after = appState({ notices: [] });
    fake.current.handle('app:dismissNotice', () => ok(after));
    useAppStore
      .getState()
      .applyState(appState({ notices: [{ id: 'n1', level: 'warning', message: 'Settings recovered' }] }));
    await useAppStore.getState().dismissNotice('n1');
    expect(fake.current.callsTo('app:dismissNotice')).toEqual([{ noticeId: 'n1' }]);
    expect(useAppStore.getState().state).toBe(after);
    expect(useAppStore.getState().dismissing).toEqual([]);
  });

  it('reports a failed dismissal and keeps the notice', async () => {
    const before = appState({ notices: [{ id: 'n1', level: 'info', message: 'Hello' }] });
    useAppStore.getState().applyState(before);
    fake.current.handle('app:dismissNotice', () => fail('not_found', 'That notice is gone.'));
    await useAppStore.getState().dismissNotice('n1');
    expect(useAppStore.getState().state).toBe(before);
    expect(useAppStore.getState().actionError?.message).toBe('That notice is gone.');
  });

  it('checks the connection now through connection:check', async () => {
    const checked = appState({
      connection: { status: 'key_rejected', message: 'Rejected', checkedAt: null },
    });
    fake.current.handle('connection:check', () => ok(checked));
    await useAppStore.getState().checkConnection();
    expect(useAppStore.getState().state).toBe(checked);
    expect(useAppStore.getState().checking).toBe(false);
  });

  it('names the account by profile id, base URL and URL reading', () => {
    expect(accountKey(null)).toBeNull();
    expect(accountKey(appState({ activeProfile: null }))).toBeNull();
    const a = accountKey(appState());
    expect(
      accountKey(appState({ activeProfile: profile({ baseUrl: 'https://other.example/api/v1' }) })),
    ).not.toBe(a);
    expect(accountKey(appState({ activeProfile: profile({ pathStyle: 'origin' }) }))).not.toBe(a);
    expect(accountKey(appState({ notices: [{ id: 'x', level: 'info', message: 'm' }] }))).toBe(a);
  });
});
