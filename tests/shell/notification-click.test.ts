import { describe, expect, it } from 'vitest';
import { type NavigableWindow, openNotificationRoute } from '../../src-main/shell/notification-click';

function fakeWindow(loading: boolean) {
  const sent: unknown[] = [];
  let onLoaded: (() => void) | null = null;
  const window: NavigableWindow = {
    webContents: {
      isLoading: () => loading,
      once: (_event, listener) => (onLoaded = listener),
      send: (channel, payload) => sent.push([channel, payload]),
    },
  };
  return { window, sent, load: () => onLoaded?.() };
}

describe('a click on an OS notification', () => {
  it('shows the open window and sends the route through app:navigate', () => {
    const { window, sent } = fakeWindow(false);
    const shown: unknown[] = [];
    openNotificationRoute('/ports/mp_1', (initial) => (shown.push(initial), { window, created: false }));
    expect(shown).toEqual(['/ports/mp_1']);
    expect(sent).toEqual([['app:navigate', { route: '/ports/mp_1' }]]);
  });

  it('a window it had to create opens at the route from its URL: nothing is sent', () => {
    const { window, sent } = fakeWindow(true);
    const shown: unknown[] = [];
    openNotificationRoute('/topups/tu_1', (initial) => (shown.push(initial), { window, created: true }));
    expect(shown).toEqual(['/topups/tu_1']);
    expect(sent).toEqual([]);
  });

  it('a window still loading hears the route once it has loaded', () => {
    const { window, sent, load } = fakeWindow(true);
    openNotificationRoute('/subscriptions/sub_1', () => ({ window, created: false }));
    expect(sent).toEqual([]);
    load();
    expect(sent).toEqual([['app:navigate', { route: '/subscriptions/sub_1' }]]);
  });

  it('a route of another shape only shows the window', () => {
    const { window, sent } = fakeWindow(false);
    const shown: unknown[] = [];
    for (const route of [undefined, '/settings', 'https://evil.example/', '/ports/a/../../x']) {
      openNotificationRoute(route, (initial) => (shown.push(initial), { window, created: false }));
    }
    expect(shown).toEqual([null, null, null, null]);
    expect(sent).toEqual([]);
  });
});
