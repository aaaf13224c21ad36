import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src-renderer/src/app/App';
import { useCatalogStore } from '../../../src-renderer/src/features/catalog/catalog-store';
import { usePortsStore } from '../../../src-renderer/src/features/ports/ports-store';
import { fail, ok } from '../support/fake-api';
import {
  portsAnswer,
  appState,
  countries,
  demoProfile,
  noProfileState,
  port,
  profile,
  settingsView,
  subscription,
  topUp,
  topUpPage,
} from '../support/fixtures';
import { settle, stubIdleCallbacks, useFakeApi } from '../support/renderer-test-kit';

describe('App', () => {
  const fake = useFakeApi(() => ({
    'app:getState': () => ok(appState()),
    'settings:get': () => ok(settingsView()),
    'ports:list': () => ok(portsAnswer([port()])),
    'catalog:countries': () => ok(countries()),
    'overview:get': () =>
      ok({
        profileId: 'prof_work',
        generatedAt: '2026-03-10T12:00:00.000Z',
        expiryWarningDays: 3,
        items: [],
        counts: { error: 0, warning: 0, info: 0 },
        totals: { ports: 1, subscriptions: 0, pendingTopUps: 0, schedules: 0 },
        badges: { ports: 0, subscriptions: 0, topups: 0, 'local-proxies': 0, settings: 0 },
        cards: [],
        sources: {
          ports: { state: 'held', readAt: '2026-03-10T12:00:00.000Z' },
          subscriptions: { state: 'held', readAt: '2026-03-10T12:00:00.000Z' },
          topups: { state: 'held', readAt: '2026-03-10T12:00:00.000Z' },
        },
        allGood: true,
      }),
  }));
  /** The screens below start on Ports; the first screen is the Overview (tested on its own). */
  const onPorts = () => {
    window.location.hash = '#/ports';
  };

  it('shows onboarding when no profile is active, with the status bar saying "Not configured"', async () => {
    fake.current.handle('app:getState', () => ok(noProfileState()));
    render(<App />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to Proxy Manager' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try demo' })).toBeTruthy();
    expect(within(screen.getByRole('contentinfo')).getByText('Not configured')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });

  it('opens on the Overview once a profile is active, first in the navigation', async () => {
    render(<App />);
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Overview', 'Ports', 'Subscriptions', 'Top-ups', 'Catalog', 'Local proxies', 'Settings']);
    expect(within(nav).getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Overview' })).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 2, name: 'All good' })).toBeTruthy();
  });

  it('shows the shell with navigation, the ports screen and the active profile when a profile is active', async () => {
    onPorts();
    render(<App />);
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Ports' }).getAttribute('aria-current')).toBe('page');
    expect(await screen.findByText('Sneaker drops LA')).toBeTruthy();
    const status = screen.getByRole('contentinfo');
    expect(within(status).getByText('Online')).toBeTruthy();
    expect(within(status).getByTestId('active-profile').textContent).toContain('Work');
    expect(screen.queryByTestId('demo-banner')).toBeNull();
  });

  it.each([
    ['online', 'Online'],
    ['offline', 'Offline'],
    ['key_rejected', 'Key rejected'],
    ['not_configured', 'Not configured'],
    ['checking', 'Checking…'],
    ['service_error', 'Service error'],
  ] as const)('shows the connection state %s as "%s" with main’s sentence', async (status, label) => {
    fake.current.handle('app:getState', () =>
      ok(appState({ connection: { status, message: `Sentence for ${status}`, checkedAt: null } })),
    );
    render(<App />);
    const bar = await screen.findByRole('contentinfo');
    expect(within(bar).getByTestId('connection-status').textContent).toBe(label);
    expect(within(bar).getByText(`Sentence for ${status}`)).toBeTruthy();
  });

  it('points to Settings when the key was rejected', async () => {
    fake.current.handle('app:getState', () =>
      ok(
        appState({
          connection: {
            status: 'key_rejected',
            message: 'The service rejected this API key.',
            checkedAt: null,
          },
        }),
      ),
    );
    render(<App />);
    const link = await screen.findByRole('link', { name: 'Fix the key in Settings' });
    expect(link.getAttribute('href')).toBe('#/settings');
  });

  it('follows pushed state changes (one subscription, made once)', async () => {
    render(<App />);
    await screen.findByText('Online');
    expect(fake.current.listenerCount()).toBe(1);
    act(() =>
      fake.current.emitState(
        appState({ connection: { status: 'key_rejected', message: 'Rejected.', checkedAt: null } }),
      ),
    );
    expect(screen.getByTestId('connection-status').textContent).toBe('Key rejected');
  });

  it('shows a permanent demo banner while the demo profile is active, and leaves the demo on request', async () => {
    fake.current.handle('app:getState', () =>
      ok(appState({ activeProfile: demoProfile(), demo: { running: true } })),
    );
    fake.current.handle('demo:stop', () => ok(noProfileState()));
    render(<App />);
    const banner = await screen.findByTestId('demo-banner');
    expect(banner.textContent).toMatch(/Demo mode/);
    fireEvent.click(within(banner).getByRole('button', { name: 'Leave demo' }));
    expect(await screen.findByRole('heading', { name: 'Welcome to Proxy Manager' })).toBeTruthy();
    expect(fake.current.callsTo('demo:stop')).toHaveLength(1);
  });

  it('lists notices and dismisses one through app:dismissNotice', async () => {
    const notice = { id: 'n1', level: 'warning' as const, message: 'The settings file was damaged.' };
    fake.current.handle('app:getState', () => ok(appState({ notices: [notice] })));
    fake.current.handle('app:dismissNotice', () => ok(appState({ notices: [] })));
    render(<App />);
    const notices = await screen.findByRole('complementary', { name: 'Notices' });
    expect(within(notices).getByText(notice.message)).toBeTruthy();
    fireEvent.click(within(notices).getByRole('button', { name: `Dismiss: ${notice.message}` }));
    await settle();
    expect(fake.current.callsTo('app:dismissNotice')).toEqual([{ noticeId: 'n1' }]);
    expect(screen.queryByRole('complementary', { name: 'Notices' })).toBeNull();
  });

  it('explains a missing or refused web token instead of showing an empty app', async () => {
    fake.current.handle('app:getState', () =>
      fail('web_token_rejected', 'The web server refused this page’s access token.'),
    );
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'Proxy Manager cannot start' })).toBeTruthy();
    expect(screen.getByText(/refused this page’s access token/)).toBeTruthy();
    expect(screen.getAllByText(/npm run web/).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('offers Retry when the first load fails for another reason', async () => {
    fake.current.handle('app:getState', () => fail('web_unreachable', 'Cannot reach the server.'));
    render(<App />);
    const retry = await screen.findByRole('button', { name: 'Retry' });
    fake.current.handle('app:getState', () => ok(appState()));
    fireEvent.click(retry);
    expect(await screen.findByRole('navigation', { name: 'Main' })).toBeTruthy();
  });

  it('navigates through the URL fragment and moves focus to the new screen’s heading', async () => {
    onPorts();
    render(<App />);
    await screen.findByRole('heading', { level: 1, name: 'Ports' });
    act(() => {
      window.location.hash = '#/catalog';
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    const heading = await screen.findByRole('heading', { level: 1, name: 'Catalog' });
    // After the new screen is drawn (see the next test).
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByRole('link', { name: 'Catalog' }).getAttribute('aria-current')).toBe('page');
    expect(document.title).toBe('Catalog · Proxy Manager');
  });

  it('a click on a screen’s link shows the screen within the click, before the browser’s hashchange', async () => {
    onPorts();
    render(<App />);
    await screen.findByRole('heading', { level: 1, name: 'Ports' });
    const catalog = screen.getByRole('link', { name: 'Catalog' });
    // Nothing fires hashchange here: the screen changes in the click itself.
    act(() => {
      fireEvent.click(catalog);
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Catalog' })).toBeTruthy();
    expect(window.location.hash).toBe('#/catalog');
    // A click with a modifier (a new tab in web mode) is the browser's.
    const ports = screen.getByRole('link', { name: 'Ports' });
    act(() => {
      fireEvent.click(ports, { ctrlKey: true });
    });
    expect(window.location.hash).toBe('#/catalog');
    expect(screen.getByRole('heading', { level: 1, name: 'Catalog' })).toBeTruthy();
  });

  describe('focus after a navigation', () => {
    const FRAME_TIMERS = [
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'setTimeout',
      'clearTimeout',
    ] as const;
    afterEach(() => {
      vi.useRealTimers();
    });

    async function startOnPorts() {
      onPorts();
      render(<App />);
      await screen.findByRole('heading', { level: 1, name: 'Ports' });
      // From here the frame and the task after it run when the test says so.
      vi.useFakeTimers({ toFake: [...FRAME_TIMERS] });
    }

    const goToSettings = () =>
      act(() => {
        window.location.hash = '#/settings';
        window.dispatchEvent(new HashChangeEvent('hashchange'));
      });

    it('moves to the new heading only after the new screen was drawn (no forced layout of its table)', async () => {
      await startOnPorts();
      const link = screen.getByRole('link', { name: 'Settings' });
      link.focus();
      goToSettings();
      const heading = screen.getByRole('heading', { level: 1, name: 'Settings' });
      expect(document.activeElement).toBe(link);
      act(() => void vi.advanceTimersToNextFrame());
      expect(document.activeElement).toBe(link);
      act(() => void vi.advanceTimersByTime(1));
      expect(document.activeElement).toBe(heading);
    });

    const goTo = (hash: string) =>
      act(() => {
        window.location.hash = hash;
        window.dispatchEvent(new HashChangeEvent('hashchange'));
      });
    const slot = (id: string) => document.querySelector<HTMLElement>(`#main [data-screen="${id}"]`);
    /** The frame after the navigation, then the task after it; the rest is React's own scheduling. */
    const drawNewScreen = () => {
      act(() => void vi.advanceTimersToNextFrame());
      act(() => void vi.advanceTimersByTime(1));
      vi.useRealTimers();
    };

    it('keeps a screen left that is not a list, hidden, until the new one was drawn, then removes it', async () => {
      window.location.hash = '#/settings';
      render(<App />);
      await screen.findByRole('heading', { level: 1, name: 'Settings' });
      vi.useFakeTimers({ toFake: [...FRAME_TIMERS] });
      goTo('#/catalog');
      expect(slot('settings')?.hasAttribute('hidden')).toBe(true);
      expect(slot('catalog')?.hasAttribute('hidden')).toBe(false);
      // Out of reach of a screen reader or a role query meanwhile.
      expect(screen.queryByRole('heading', { level: 1, name: 'Settings' })).toBeNull();
      act(() => void vi.advanceTimersToNextFrame());
      expect(slot('settings')).not.toBeNull();
      drawNewScreen();
      // The removal is a transition React schedules on its own.
      await waitFor(() => expect(slot('settings')).toBeNull());
    });

    it('keeps a list screen left mounted, hidden and idle, and shows it again with what changed meanwhile', async () => {
      await startOnPorts();
      const heading = screen.getByRole('heading', { level: 1, name: 'Ports' });
      goToSettings();
      expect(slot('ports')?.hasAttribute('hidden')).toBe(true);
      drawNewScreen();
      // Hidden by React's Activity once the new screen was drawn: still there, out of reach.
      await waitFor(() => expect(slot('ports')?.style.display).toBe('none'));
      expect(screen.queryByRole('heading', { level: 1, name: 'Ports' })).toBeNull();
      expect(document.title).toMatch(/^Settings/);
      // The list changes while the screen is hidden: no render of it until it is shown.
      fake.current.handle('ports:list', () => ok(portsAnswer([port({ label: 'Renamed meanwhile' })])));
      await act(() => usePortsStore.getState().load(true));
      expect(slot('ports')?.textContent).toContain('Sneaker drops LA');

      goTo('#/ports');
      // The same screen, shown again (not built anew), with the list as it is now.
      expect(screen.getByRole('heading', { level: 1, name: 'Ports' })).toBe(heading);
      expect(slot('ports')?.style.display).toBe('');
      expect(screen.getByText('Renamed meanwhile')).toBeTruthy();
      expect(screen.queryByText('Sneaker drops LA')).toBeNull();
      // Its effects run again (the window's title is one).
      await waitFor(() => expect(document.title).toMatch(/^Ports/));
    });

    it('drops the list screens kept for an account when another becomes active', async () => {
      await startOnPorts();
      goToSettings();
      drawNewScreen();
      await waitFor(() => expect(slot('ports')?.style.display).toBe('none'));
      act(() =>
        fake.current.emitState(appState({ activeProfile: profile({ id: 'prof_other', name: 'Other' }) })),
      );
      expect(slot('ports')).toBeNull();
      expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    });

    it('stays where the user moved it before the new screen was drawn', async () => {
      await startOnPorts();
      goToSettings();
      const portsLink = screen.getByRole('link', { name: 'Ports' });
      portsLink.focus();
      act(() => void vi.advanceTimersByTime(100));
      expect(document.activeElement).toBe(portsLink);
    });
  });

  it('renders the list screens, hidden and idle, once their lists were read ahead; a first visit shows that one', async () => {
    const idle = stubIdleCallbacks();
    fake.current.handle('subscriptions:list', () => ok([subscription()]));
    fake.current.handle('topups:list', () => ok(topUpPage([topUp()])));
    try {
      render(<App />);
      await screen.findByRole('heading', { level: 1, name: 'Overview' });
      expect(document.querySelector('#main [data-screen="ports"]')).toBeNull();
      // The read-ahead waits for the window to be idle; then React renders the hidden screens at
      // idle priority.
      idle.runAll();
      await waitFor(() =>
        expect(document.querySelector('#main [data-screen="topups"]')?.textContent).toContain('Top-ups'),
      );
      const ports = document.querySelector<HTMLElement>('#main [data-screen="ports"]');
      expect(ports?.style.display).toBe('none');
      expect(ports?.textContent).toContain('Sneaker drops LA');
      const prerendered = ports?.querySelector('h1');
      // None of their effects ran: the title is the Overview's, each list was read once (the read-ahead).
      expect(document.title).toMatch(/^Overview/);
      expect(fake.current.callsTo('ports:list')).toHaveLength(1);
      expect(screen.getAllByRole('heading', { level: 1 }).map((heading) => heading.textContent)).toEqual([
        'Overview',
      ]);

      fireEvent.click(screen.getByRole('link', { name: 'Ports' }));
      expect(screen.getByRole('heading', { level: 1, name: 'Ports' })).toBe(prerendered);
      expect(screen.getByText('Sneaker drops LA')).toBeTruthy();
    } finally {
      // Unmounted while the idle callbacks are still stubbed: the shell cancels its own as it goes.
      cleanup();
      vi.unstubAllGlobals();
    }
  });

  it('says, in a permanent banner, when another process runs the background jobs', async () => {
    const message =
      'Background jobs run in another Proxy Manager process (pid 4242); this one is read-only for schedules.';
    fake.current.handle('app:getState', () => ok({ ...appState(), jobs: { owner: false, message } }));
    onPorts();
    render(<App />);
    const banner = await screen.findByTestId('jobs-banner');
    expect(banner.getAttribute('role')).toBe('note');
    expect(banner.textContent).toBe(message);
    // Not blocking: the screens work under it.
    expect(await screen.findByText('Sneaker drops LA')).toBeTruthy();

    act(() => fake.current.emitState({ ...appState(), jobs: { owner: true, message: null } }));
    expect(screen.queryByTestId('jobs-banner')).toBeNull();
  });

  it('shows no jobs banner when main does not say who runs the jobs', async () => {
    onPorts();
    render(<App />);
    await screen.findByText('Sneaker drops LA');
    expect(screen.queryByTestId('jobs-banner')).toBeNull();
  });

  it('drops account data when the active profile changes', async () => {
    onPorts();
    render(<App />);
    await screen.findByText('Sneaker drops LA');
    await act(() => useCatalogStore.getState().loadCountries('all'));
    expect(useCatalogStore.getState().countries.all?.status).toBe('ready');
    fake.current.handle('ports:list', () =>
      ok(portsAnswer([port({ id: 'port_other', label: 'Other account port' })])),
    );
    act(() =>
      fake.current.emitState(appState({ activeProfile: profile({ id: 'prof_other', name: 'Other' }) })),
    );
    // The previous account's catalog is gone (the Ports screen may already be reading the new one's).
    expect(useCatalogStore.getState().countries.all?.data ?? null).toBeNull();
    expect(await screen.findByText('Other account port')).toBeTruthy();
    expect(screen.queryByText('Sneaker drops LA')).toBeNull();
  });

  it('applies the table row density from Settings', async () => {
    fake.current.handle('settings:get', () => ok(settingsView({ density: 'compact' })));
    render(<App />);
    await screen.findByText('Online');
    await settle();
    expect(document.documentElement.dataset.density).toBe('compact');
  });

  it('applies the theme from Settings, and the OS preference while it is "system"', async () => {
    let prefersDark = true;
    const listeners = new Set<() => void>();
    window.matchMedia = ((query: string) => ({
      get matches() {
        return query.includes('dark') && prefersDark;
      },
      media: query,
      addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
    })) as unknown as typeof window.matchMedia;
    try {
      render(<App />);
      await screen.findByText('Online');
      expect(document.documentElement.dataset.theme).toBe('dark');
      prefersDark = false;
      act(() => listeners.forEach((listener) => listener()));
      expect(document.documentElement.dataset.theme).toBe('light');
      fake.current.handle('settings:update', () => ok(settingsView({ theme: 'dark' })));
      act(() => {
        window.location.hash = '#/settings';
        window.dispatchEvent(new HashChangeEvent('hashchange'));
      });
      fireEvent.click(await screen.findByRole('radio', { name: 'Dark' }));
      await settle();
      expect(fake.current.callsTo('settings:update')).toEqual([{ theme: 'dark' }]);
      expect(document.documentElement.dataset.theme).toBe('dark');
    } finally {
      delete (window as { matchMedia?: unknown }).matchMedia;
    }
  });
});
