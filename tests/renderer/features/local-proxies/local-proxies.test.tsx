import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LocalProxiesView, LocalProxyView } from '../../../../src-shared/contract';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { LocalProxiesScreen } from '../../../../src-renderer/src/features/local-proxies/LocalProxiesScreen';
import { LocalProxyAction } from '../../../../src-renderer/src/features/local-proxies/LocalProxyAction';
import { AddLocalProxyForm } from '../../../../src-renderer/src/features/local-proxy-upstreams/AddLocalProxyForm';
import { UpstreamLink } from '../../../../src-renderer/src/features/local-proxy-upstreams/UpstreamLink';
import type { SaveTextFile } from '../../../../src-renderer/src/shared/save-outcome';
import { connectEventBridge } from '../../../../src-renderer/src/app/event-bridge';
import { fail, ok } from '../../support/fake-api';
import {
  appState,
  cities,
  countries,
  demoProfile,
  port,
  portsAnswer,
  subscription,
} from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';
import { choiceTexts, openFilter } from '../../support/table-popovers';

const proxy = (overrides: Partial<LocalProxyView> = {}): LocalProxyView => ({
  id: 'lp-1',
  label: 'Berlin price monitor',
  profileId: 'prof_work',
  url: 'http://127.0.0.1:24001',
  listen: { host: '127.0.0.1', port: 24001 },
  allowNetwork: false,
  auth: null,
  upstream: { kind: 'port', portId: 'mp_1' },
  upstreamEndpoint: { host: 'gw.example.com', port: 8080 },
  closeOnRotation: false,
  enabled: true,
  state: 'running',
  listenError: null,
  stats: {
    openConnections: 3,
    requests: 120,
    bytesUp: 2048,
    bytesDown: 5_000_000,
    failures: 1,
    rejectedConnections: 0,
  },
  lastError: null,
  health: null,
  createdAt: '2026-03-10T12:00:00.000Z',
  ...overrides,
});

const view = (proxies: LocalProxyView[], overrides: Partial<LocalProxiesView> = {}): LocalProxiesView => ({
  proxies,
  runsHere: true,
  message: null,
  suggestedPort: 24002,
  ...overrides,
});

/** The screen as the app layer composes it (`app/screen-components.tsx`). */
function ComposedScreen() {
  return <LocalProxiesScreen upstreamLink={UpstreamLink} addForm={AddLocalProxyForm} />;
}

describe('Local proxies screen', () => {
  const fake = useFakeApi();

  /** The rows of the Local proxies table, each as its cells' text. */
  const rowsOf = () =>
    within(screen.getByRole('table', { name: 'Local proxies' }))
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''));
  const names = () => rowsOf().map((cells) => cells[0]);

  it('lists each local proxy as a row: address to copy, upstream, live traffic; Details opens the last upstream error', async () => {
    fake.current.handle('localProxies:list', () =>
      ok(
        view([
          proxy({
            lastError: {
              at: '2026-03-10T12:00:00.000Z',
              kind: 'no_exit',
              status: 502,
              message: 'No exit IP matches the targeting of this local proxy right now. (echo.test:80)',
              detail: 'No exit IP matches: country us, state bavaria',
            },
          }),
        ]),
      ),
    );
    render(<ComposedScreen />);
    await settle();
    const table = screen.getByRole('table', { name: 'Local proxies' });
    const row = within(table)
      .getByRole('rowheader', { name: 'Berlin price monitor' })
      .closest('tr') as HTMLElement;
    expect(row.textContent).toContain('http://127.0.0.1:24001');
    expect(within(row).getByRole('button', { name: 'Copy address of Berlin price monitor' })).toBeTruthy();
    // The port is a link to its page (its id here: no ports list is on hand to name it).
    expect(within(row).getByRole('link', { name: 'mp_1' }).getAttribute('href')).toBe('#/ports/mp_1');
    expect(row.textContent).toContain('No exit IP matches the targeting');
    expect(screen.queryByLabelText('Traffic of Berlin price monitor')).toBeNull();

    fireEvent.click(within(row).getByRole('button', { name: 'Details of Berlin price monitor' }));
    const card = screen.getByRole('region', { name: /Berlin price monitor/ });
    expect(card.textContent).toContain('Forwards to port mp_1 at gw.example.com:8080');
    const stats = within(card).getByLabelText('Traffic of Berlin price monitor');
    expect(stats.textContent).toContain('Open connections3');
    expect(stats.textContent).toContain('Requests120');
    expect(card.textContent).toContain('Last upstream error');
    expect(card.textContent).toContain('The upstream said: No exit IP matches: country us, state bavaria');
    fireEvent.click(within(card).getByRole('button', { name: 'Close Berlin price monitor' }));
    expect(screen.queryByRole('region', { name: /Berlin price monitor/ })).toBeNull();
  });

  it('names a subscription upstream’s targeting by the catalog’s names in its Details, not by ids', async () => {
    fake.current.handle('catalog:countries', () => ok(countries()));
    fake.current.handle('catalog:citiesOf', ({ countryCodes }: { countryCodes: string[] }) =>
      ok(Object.fromEntries(countryCodes.map((code) => [code, code === 'US' ? cities() : []]))),
    );
    fake.current.handle('localProxies:list', () =>
      ok(
        view([
          proxy({
            upstream: {
              kind: 'subscription',
              subscriptionId: 'sub_7',
              targeting: { country: 'US', state: 'california', city: 'los_angeles', zip: '90001' },
            },
          }),
        ]),
      ),
    );
    render(<ComposedScreen />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Details of Berlin price monitor' }));
    await settle();
    const card = screen.getByRole('region', { name: /Berlin price monitor/ });
    expect(card.textContent).toContain('main user · Los Angeles, United States, California, ZIP 90001');
    expect(card.textContent).not.toContain('los_angeles');
  });

  it('filters by state and by upstream kind with counts, searches, sorts by header and exports what is shown', async () => {
    const subscriptionUpstream = {
      kind: 'subscription' as const,
      subscriptionId: 'sub_7',
      targeting: { country: 'DE' },
    };
    fake.current.handle('localProxies:list', () =>
      ok(
        view([
          proxy(),
          proxy({
            id: 'lp-2',
            label: 'Austin scraper',
            url: 'http://127.0.0.1:24003',
            listen: { host: '127.0.0.1', port: 24003 },
            state: 'stopped',
            stats: { ...proxy().stats, requests: 7 },
          }),
          proxy({
            id: 'lp-3',
            label: 'Cairo checkout',
            url: 'http://127.0.0.1:24002',
            listen: { host: '127.0.0.1', port: 24002 },
            upstream: subscriptionUpstream,
            stats: { ...proxy().stats, requests: 500 },
          }),
        ]),
      ),
    );
    const save = vi.fn<SaveTextFile>(() =>
      Promise.resolve({ status: 'downloaded', fileName: 'local-proxies.csv' }),
    );
    useAppStore.setState({ saveTextFile: save });
    render(<ComposedScreen />);
    await settle();
    expect(names()).toEqual(['Berlin price monitor', 'Austin scraper', 'Cairo checkout']);

    const states = openFilter('State');
    expect(choiceTexts(states)).toEqual(['Running2', 'Stopped1']);
    fireEvent.click(within(states).getByRole('checkbox', { name: /Running/ }));
    expect(names()).toEqual(['Berlin price monitor', 'Cairo checkout']);
    const kinds = openFilter('Forwards to');
    expect(choiceTexts(kinds)).toEqual(['Port1', 'Subscription1']);
    fireEvent.click(within(kinds).getByRole('checkbox', { name: /Subscription/ }));
    expect(names()).toEqual(['Cairo checkout']);
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));

    fireEvent.click(screen.getByRole('button', { name: 'Sort by Requests' }));
    expect(names()).toEqual(['Austin scraper', 'Berlin price monitor', 'Cairo checkout']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Address' }));
    expect(names()).toEqual(['Berlin price monitor', 'Cairo checkout', 'Austin scraper']);

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search local proxies' }), {
      target: { value: 'sub_7' },
    });
    await settle();
    expect(names()).toEqual(['Cairo checkout']);
    fireEvent.click(screen.getByRole('button', { name: /Export CSV/ }));
    await settle();
    expect(save).toHaveBeenCalledWith({
      fileName: 'local-proxies.csv',
      type: 'text/csv',
      content:
        'Name,State,Health,Address,Forwards to,Connections,Requests,Failed,Last upstream error\r\n' +
        'Cairo checkout,Running,Not checked yet,http://127.0.0.1:24002,subscription sub_7,3,500,1,\r\n',
    });
  });

  it('moves with the arrows and opens the row the keyboard is on with Enter', async () => {
    fake.current.handle('localProxies:list', () =>
      ok(view([proxy(), proxy({ id: 'lp-2', label: 'Austin scraper', url: 'http://127.0.0.1:24003' })])),
    );
    render(<ComposedScreen />);
    await settle();
    const rows = within(screen.getByRole('table', { name: 'Local proxies' }))
      .getAllByRole('row')
      .slice(1);
    act(() => rows[0]!.focus());
    fireEvent.keyDown(rows[0]!, { key: 'ArrowDown' });
    fireEvent.keyDown(rows[1]!, { key: 'Enter' });
    expect(screen.getByRole('region', { name: /Austin scraper/ })).toBeTruthy();
    expect(screen.queryByRole('region', { name: /Berlin price monitor/ })).toBeNull();
  });

  it('stops and starts one from its row, and shows the pushed stats of main', async () => {
    fake.current.handle('localProxies:list', () => ok(view([proxy()])));
    fake.current.handle('localProxies:stop', () => ok(proxy({ state: 'stopped', enabled: false })));
    const disconnect = connectEventBridge();
    render(<ComposedScreen />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Stop Berlin price monitor' }));
    await settle();
    expect(fake.current.callsTo('localProxies:stop')).toEqual([{ id: 'lp-1' }]);
    expect(screen.getByRole('button', { name: 'Start Berlin price monitor' })).toBeTruthy();
    fake.current.emit('localProxies:changed', {
      proxies: [proxy({ stats: { ...proxy().stats, requests: 999 } })],
    });
    await settle();
    expect(rowsOf()[0]).toContain('999');
    disconnect();
  });

  it('shows what the health checks through each one say, and a status pushed by main at once', async () => {
    fake.current.handle('localProxies:list', () => ok(view([proxy()])));
    const disconnect = connectEventBridge();
    render(<ComposedScreen />);
    await settle();
    // Never checked: no badge at all.
    expect(screen.queryByLabelText(/^Health of /)).toBeNull();
    const check = {
      at: '2026-03-10T12:05:00.000Z',
      ok: false,
      status: 503,
      connectMs: 1,
      firstByteMs: 2,
      exitIp: null,
      asn: null,
      country: null,
      errorKind: 'unavailable',
      error: 'Modem offline: not answering.',
    };
    fake.current.emit('localProxies:changed', {
      proxies: [
        proxy({
          health: { status: 'down', statusSince: check.at, failuresInARow: 3, lastCheck: check },
        }),
      ],
    });
    await settle();
    expect(screen.getByLabelText(/^Health of /).getAttribute('aria-label')).toBe(
      'Health of Berlin price monitor: Down, 3 health checks in a row failed: Modem offline: not answering.',
    );
    // The table's Health cell is the badge: a row of its own column, filterable.
    expect(screen.getByRole('columnheader', { name: /Health/ })).toBeTruthy();
    fake.current.emit('localProxies:changed', {
      proxies: [
        proxy({
          health: {
            status: 'up',
            statusSince: check.at,
            failuresInARow: 0,
            lastCheck: { ...check, ok: true, status: 200, error: null, errorKind: null },
          },
        }),
      ],
    });
    await settle();
    expect(screen.getByLabelText(/^Health of /).textContent).toBe('Checks pass');
    disconnect();
  });

  it('says where they run when another process owns the background jobs, without start or stop', async () => {
    fake.current.handle('localProxies:list', () =>
      ok(
        view([proxy({ state: 'elsewhere' })], {
          runsHere: false,
          message: 'Background jobs run in the desktop app (pid 42).',
        }),
      ),
    );
    render(<ComposedScreen />);
    await settle();
    expect(screen.getByText('Background jobs run in the desktop app (pid 42).')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Stop/ })).toBeNull();
    expect(screen.getByText('Runs in the other process')).toBeTruthy();
  });

  it('asks for a local login before letting other computers use one', async () => {
    fake.current.handle('localProxies:list', () => ok(view([proxy()])));
    render(<ComposedScreen />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Details of Berlin price monitor' }));
    fireEvent.click(screen.getByRole('button', { name: 'Change…' }));
    fireEvent.click(screen.getByLabelText(/Let other computers use it/));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(fake.current.callsTo('localProxies:update')).toEqual([]);
    expect(screen.getByText('Other computers need a user name')).toBeTruthy();
  });
});

describe('“Local proxy…” on a port or subscription', () => {
  const fake = useFakeApi();

  it('shows the local proxy already forwarding there, of the active account only', async () => {
    useAppStore.setState({ state: appState() });
    fake.current.handle('localProxies:list', () =>
      ok(view([proxy(), proxy({ id: 'lp-2', profileId: 'other', url: 'http://127.0.0.1:24009' })])),
    );
    render(<LocalProxyAction upstream={{ kind: 'port', portId: 'mp_1' }} name="Berlin" />);
    await settle();
    expect(screen.getByText('http://127.0.0.1:24001')).toBeTruthy();
    expect(screen.queryByText('http://127.0.0.1:24009')).toBeNull();
  });

  it('makes one for a subscription’s targeting on the next free port, and names a taken port', async () => {
    useAppStore.setState({ state: appState({ activeProfile: demoProfile() }) });
    const upstream = {
      kind: 'subscription' as const,
      subscriptionId: 'sub_1',
      targeting: { country: 'US', state: 'california' },
    };
    fake.current.handle('localProxies:list', () => ok(view([])));
    fake.current.handle('localProxies:add', (input) =>
      input.listenPort === 24005
        ? fail('port_in_use', '127.0.0.1:24005 is already in use by another program: choose another port.', {
            fields: [
              {
                field: 'listenPort',
                message: '127.0.0.1:24005 is already in use by another program: choose another port.',
              },
            ],
          })
        : ok(proxy({ id: 'lp-3', profileId: 'demo', upstream, url: 'http://127.0.0.1:24002' })),
    );
    render(<LocalProxyAction upstream={upstream} name="this string" />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Local proxy for this string' }));
    fireEvent.change(screen.getByLabelText('Local port'), { target: { value: '24005' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await settle();
    expect(screen.getByText(/24005 is already in use by another program/)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Local port'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await settle();
    expect(fake.current.callsTo('localProxies:add')).toEqual([{ upstream, listenPort: 24005 }, { upstream }]);
    expect(screen.getByText('http://127.0.0.1:24002')).toBeTruthy();
  });

  it('adds one from the screen’s header: a port or a subscription’s main user, unlabelled ones by id', async () => {
    useAppStore.setState({ state: appState() });
    let proxies: LocalProxyView[] = [];
    fake.current.handle('localProxies:list', () => ok(view(proxies)));
    fake.current.handle('ports:list', () =>
      ok(portsAnswer([port({ id: 'mp_1', label: 'Berlin' }), port({ id: 'mp_2', label: '' })])),
    );
    fake.current.handle('subscriptions:list', () => ok([subscription({ id: 'sub_9', label: 'Scraping' })]));
    fake.current.handle('localProxies:add', (input) => {
      const made = proxy({ id: 'lp-9', upstream: input.upstream, url: 'http://127.0.0.1:24002' });
      proxies = [made];
      return ok(made);
    });
    render(<ComposedScreen />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Add a local proxy…' }));
    await settle();
    const form = screen.getByRole('form', { name: 'Add a local proxy' });
    const target = within(form).getByLabelText<HTMLSelectElement>('Port');
    expect([...target.options].map((option) => option.textContent)).toEqual(['Berlin', 'mp_2']);
    fireEvent.change(target, { target: { value: 'mp_2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create local proxy' }));
    await settle();
    expect(fake.current.callsTo('localProxies:add')).toEqual([
      { upstream: { kind: 'port', portId: 'mp_2' } },
    ]);
    expect(screen.queryByRole('form', { name: 'Add a local proxy' })).toBeNull();
    expect(screen.getByText('http://127.0.0.1:24002')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'mp_2' }).getAttribute('href')).toBe('#/ports/mp_2');

    fireEvent.click(screen.getByRole('button', { name: 'Add a local proxy…' }));
    const again = screen.getByRole('form', { name: 'Add a local proxy' });
    fireEvent.click(within(again).getByRole('radio', { name: 'A subscription’s main user' }));
    await settle();
    fireEvent.change(within(again).getByLabelText('Local port'), { target: { value: '80' } });
    fireEvent.click(within(again).getByRole('button', { name: 'Create local proxy' }));
    expect(within(again).getByText('A port from 1024 to 65535')).toBeTruthy();
    fireEvent.change(within(again).getByLabelText('Local port'), { target: { value: '24010' } });
    fireEvent.click(within(again).getByRole('button', { name: 'Create local proxy' }));
    await settle();
    expect(fake.current.callsTo('localProxies:add').at(-1)).toEqual({
      upstream: { kind: 'subscription', subscriptionId: 'sub_9' },
      listenPort: 24010,
    });
  });
});
