import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PortsScreen, rotationText } from '../../../../src-renderer/src/features/ports/PortsScreen';
import { usePortsStore } from '../../../../src-renderer/src/features/ports/ports-store';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { COMPACT_ROW_HEIGHT } from '../../../../src-renderer/src/shared/table/DataTable';
import { setDensity } from '../../../../src-renderer/src/shared/density';
import type { PortHealth } from '../../../../src-shared/contract';
import { fail, ok } from '../../support/fake-api';
import { appState, portsAnswer, cities, countries, port } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';
import { choiceTexts, openFilter, openPopover } from '../../support/table-popovers';

describe('Ports screen', () => {
  const fake = useFakeApi(() => ({
    'ports:list': () =>
      ok(
        portsAnswer([
          port(),
          port({
            id: 'port_2',
            label: 'Berlin',
            status: 'provisioning',
            country: 'DE',
            city: null,
            carrierName: 'Telekom',
            networkType: '4G',
            rotation: { mode: 'manual', intervalMinutes: null },
          }),
        ]),
      ),
    'catalog:countries': () => ok(countries()),
    // A name the id does not spell, so the test sees the catalog's name and not a prettified id.
    'catalog:citiesOf': ({ countryCodes }) =>
      ok(
        Object.fromEntries(
          countryCodes.map((code) => [
            code,
            code === 'US' ? [{ ...cities()[0]!, name: 'City of Los Angeles' }] : [],
          ]),
        ),
      ),
  }));

  it('shows label, status, location, carrier and network, IP and its change time, and rotation', async () => {
    render(<PortsScreen />);
    const table = await screen.findByRole('table', { name: 'Mobile ports' });
    await screen.findByText('City of Los Angeles, United States');
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(first?.textContent).toContain('Sneaker drops LA');
    expect(first?.textContent).toContain('Active');
    expect(first?.textContent).not.toContain('los_angeles');
    expect(first?.textContent).toContain('T-Mobile US 5G');
    expect(first?.textContent).toContain('100.85.1.2');
    expect(within(first!).getAllByRole('time')[0]?.getAttribute('datetime')).toBe('2026-03-10T11:55:00.000Z');
    expect(first?.textContent).toContain('Every 30 min');
    expect(second?.textContent).toContain('Provisioning');
    expect(second?.textContent).toContain('Manual');
    expect(second?.textContent).toContain('Germany');
    // Every country's cities in one call.
    expect(fake.current.callsTo('catalog:citiesOf')).toEqual([{ countryCodes: ['DE', 'US'] }]);
  });

  it('asks for the schedules before the ports, so that their answers land in the same render of the rows', async () => {
    render(<PortsScreen />);
    await screen.findByRole('table', { name: 'Mobile ports' });
    const channels = fake.current.calls.map((call) => call.channel);
    expect(channels).toContain('schedules:list');
    expect(channels.indexOf('schedules:list')).toBeLessThan(channels.indexOf('ports:list'));
  });

  const go = (hash: string) =>
    act(() => {
      window.location.hash = hash;
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });

  it('links each port by its address (#/ports/<id>): the detail opens there, in tabs, and Back returns to the list', async () => {
    fake.current.handle('ports:receipts', () => ok([]));
    fake.current.handle('schedules:list', () => ok({ profileId: 'prof_work', paused: false, schedules: [] }));
    fake.current.handle('tray:get', () => ok({ profileId: 'prof_work', pinnedPortIds: [] }));
    // The list has no credentials: the detail reads the whole port as it opens.
    fake.current.handle('ports:get', ({ portId }) =>
      ok(port({ id: portId, label: 'Berlin', country: 'DE', city: null, password: 'detail-only-pass' })),
    );
    render(<PortsScreen />);
    const table = await screen.findByRole('table', { name: 'Mobile ports' });
    expect(JSON.stringify(usePortsStore.getState().ports.data)).not.toContain('password');
    const link = within(table).getByRole('link', { name: 'Berlin' });
    expect(link.getAttribute('href')).toBe('#/ports/port_2');
    go('#/ports/port_2');
    await settle();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('Berlin');
    // Tabs as the subscription detail has, one tab's panels at a time.
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Rotation',
      'Health',
      'Credentials',
      'Settings',
      'Location',
      'IP history',
      'Usage',
    ]);
    expect(screen.getByRole('region', { name: 'App schedule' })).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Credential formats' })).toBeNull();
    expect(fake.current.callsTo('ports:get')).toEqual([{ portId: 'port_2' }]);
    fireEvent.click(screen.getByRole('tab', { name: 'Credentials' }));
    expect(screen.getByRole('table', { name: 'Credential formats' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy password' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '← All ports' }).getAttribute('href')).toBe('#/ports');
    go('#/ports');
    expect(await screen.findByRole('table', { name: 'Mobile ports' })).toBeTruthy();
  });

  it('says so when the address names a port this account does not have', async () => {
    go('#/ports/port_gone');
    render(<PortsScreen />);
    await settle();
    expect(screen.getByText(/This account has no port/).textContent).toContain('port_gone');
  });

  it('fits many more ports with compact rows (Settings → Appearance): one line each, details in the port’s page', async () => {
    const many = Array.from({ length: 200 }, (_, index) =>
      port({ id: `port_${index}`, label: `Port ${index}` }),
    );
    fake.current.handle('ports:list', () => ok(portsAnswer(many)));
    render(<PortsScreen />);
    const table = await screen.findByRole('table', { name: 'Mobile ports' });
    await settle();
    const rows = () => within(table).getAllByRole('row').slice(1);
    const comfortable = rows().length;
    expect(rows()[0]?.style.height).toBe('52px');
    act(() => setDensity('compact'));
    await settle();
    expect(document.documentElement.dataset.density).toBe('compact');
    expect(rows()[0]?.style.height).toBe(`${COMPACT_ROW_HEIGHT}px`);
    // The same scroll area holds about 58/34 as many rows (the stylesheet hides each cell's second line).
    expect(rows().length).toBeGreaterThan(comfortable * 1.4);
    expect(table.querySelector('.cell-detail')).toBeTruthy();
    act(() => setDensity('comfortable'));
  });

  it('shows unknown rotation modes as they are', () => {
    expect(rotationText({ rotation: { mode: 'burst', intervalMinutes: null } })).toBe('burst');
  });

  it('refreshes on request and says when there are no ports', async () => {
    render(<PortsScreen />);
    await screen.findByRole('table', { name: 'Mobile ports' });
    fake.current.handle('ports:list', () => ok(portsAnswer([])));
    fireEvent.click(screen.getByRole('button', { name: 'Refresh ports' }));
    expect(await screen.findByText('This account has no mobile ports yet.')).toBeTruthy();
    expect(fake.current.callsTo('ports:list')).toHaveLength(2);
    // The first list may come from main's snapshot; Refresh waits for the service.
    expect(fake.current.callsTo('ports:list')).toEqual([undefined, { fresh: true }]);
  });

  it('keeps the ports on screen when a refresh fails, with the error and Retry', async () => {
    render(<PortsScreen />);
    await screen.findByRole('table', { name: 'Mobile ports' });
    fake.current.handle('ports:list', () => fail('unauthorized', 'The service rejected this API key.'));
    fireEvent.click(screen.getByRole('button', { name: 'Refresh ports' }));
    expect(await screen.findByText('The service rejected this API key.')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Mobile ports' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});

describe('Ports list: search, selection and rotation', () => {
  const receipt = (portId: string, ip: string) => ({
    id: `r_${portId}`,
    portId,
    previousIp: '100.85.1.2',
    ip,
    sameIp: false,
    startedAt: '2026-03-10T12:00:00.000Z',
    finishedAt: '2026-03-10T12:00:08.000Z',
    tookMs: 8000,
    nextRotationAvailableAt: '2000-01-01T00:00:00.000Z',
    trigger: 'bulk' as const,
    attempts: 1,
    confirmedBy: 'answer' as const,
    untilNew: null,
    verification: null,
  });
  const fake = useFakeApi(() => ({
    'ports:list': () =>
      ok(
        portsAnswer([
          port(),
          port({ id: 'port_2', label: 'Berlin', country: 'DE', city: null }),
          port({ id: 'port_3', label: 'Paris' }),
        ]),
      ),
    'catalog:countries': () => ok(countries()),
    'catalog:citiesOf': () => ok({}),
    'ports:rotateMany': ({ portIds }) =>
      ok(
        portIds.map((portId) =>
          portId === 'port_3'
            ? {
                portId,
                ok: false as const,
                error: { code: 'rate_limited', message: 'Too many rotations', retryAfterMs: 30_000 },
              }
            : { portId, ok: true as const, receipt: receipt(portId, '100.85.9.9') },
        ),
      ),
  }));

  it('finds ports by label, IP or place', async () => {
    render(<PortsScreen />);
    await screen.findByRole('table', { name: 'Mobile ports' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search ports' }), {
      target: { value: 'germany' },
    });
    const rows = within(screen.getByRole('table', { name: 'Mobile ports' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.textContent).toContain('Berlin');
  });

  it('asks before rotating the selected ports, then rotates them and reports each outcome', async () => {
    render(<PortsScreen />);
    await screen.findByRole('table', { name: 'Mobile ports' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Sneaker drops LA' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Paris' }));
    fireEvent.click(screen.getByRole('button', { name: 'Rotate 2 selected ports' }));
    const ask = screen.getByRole('alertdialog');
    expect(ask.textContent).toMatch(/^Rotate 2 ports\?/);
    await settle();
    // Nothing is sent before the answer.
    expect(fake.current.callsTo('ports:rotateMany')).toEqual([]);
    fireEvent.click(within(ask).getByRole('button', { name: 'Rotate 2 ports' }));
    await settle();
    expect(fake.current.callsTo('ports:rotateMany')).toEqual([{ portIds: ['port_1', 'port_3'] }]);
    expect(screen.getByTestId('bulk-progress').textContent).toBe('Rotate finished: 1 done, 1 failed.');
    expect(
      within(screen.getByRole('list', { name: 'Rotate: failures' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Paris: Too many rotations']);
    const table = screen.getByRole('table', { name: 'Mobile ports' });
    const row = (name: string) =>
      within(table)
        .getAllByRole('row')
        .find((candidate) => candidate.textContent?.includes(name))!;
    expect(row('Sneaker drops LA').textContent).toContain('100.85.9.9');
    expect(within(row('Paris')).getByRole('button', { name: /: Paris$/ }).textContent).toMatch(
      /Rate limited: retry in (30|29) s/,
    );
    expect(within(row('Paris')).getByRole<HTMLButtonElement>('button', { name: /: Paris$/ }).disabled).toBe(
      true,
    );
  });
  it('shows a row’s proxy test beside the list, not inside the row, named with a link to the port', async () => {
    fake.current.handle('proxy:test', () =>
      ok({
        target: { kind: 'port', portId: 'port_2', protocol: 'http' },
        proxy: { protocol: 'http', host: '127.0.0.1', port: 8080 },
        echoUrl: 'http://ip-echo.sandbox.invalid/',
        checkedAt: new Date().toISOString(),
        ok: true,
        exit: { ip: '100.85.7.7', country: 'DE', city: null, asn: null, carrier: null },
        timings: { connectMs: 3, firstByteMs: 41, totalMs: 42 },
        failure: null,
      }),
    );
    render(<PortsScreen />);
    const table = await screen.findByRole('table', { name: 'Mobile ports' });
    fireEvent.click(within(table).getByRole('button', { name: 'Test proxy Berlin' }));
    await settle();
    // The row keeps its width: no exit IP inside it.
    expect(within(table).queryByText('100.85.7.7')).toBeNull();
    const results = screen.getByRole('table', { name: 'Proxy test results: ports' });
    const [row] = within(results).getAllByRole('row').slice(1);
    expect(row?.textContent).toContain('100.85.7.7');
    expect(within(row!).getByRole('link', { name: 'Berlin' }).getAttribute('href')).toBe('#/ports/port_2');
  });
});

describe('Ports list: health from the health checks', () => {
  const scores = (portId: string, status: PortHealth['status'], uptime24h: number | null): PortHealth => ({
    portId,
    status,
    statusSince: null,
    failuresInARow: status === 'down' ? 3 : 0,
    lastCheck: null,
    uptime24h,
    uptime30d: uptime24h,
    checks24h: uptime24h === null ? 0 : 96,
    checks30d: uptime24h === null ? 0 : 2880,
    latency24h: {
      connectP50: null,
      connectP95: null,
      firstByteP50: null,
      firstByteP95: null,
      firstByteMax: null,
    },
    rotations30d: 0,
    uniqueIpRatio30d: null,
    unchanged30d: 0,
    repeated30d: 0,
    drift30d: 0,
    lastVerdict: null,
  });
  const fake = useFakeApi(() => ({
    'ports:list': () =>
      ok(
        portsAnswer([
          port({ id: 'port_1', label: 'Austin' }),
          port({ id: 'port_2', label: 'Berlin' }),
          port({ id: 'port_3', label: 'Cairo' }),
          port({ id: 'port_4', label: 'Dakar' }),
        ]),
      ),
    'catalog:countries': () => ok(countries()),
    'catalog:citiesOf': () => ok({}),
    // Dakar has no scores at all (not checked yet): Unknown, no uptime.
    'ports:health': () =>
      ok([scores('port_1', 'down', 0.5), scores('port_2', 'up', 0.9975), scores('port_3', 'up', 0.8)]),
  }));
  const rowsOf = () =>
    within(screen.getByRole('table', { name: 'Mobile ports' }))
      .getAllByRole('row')
      .filter((row) => row.getAttribute('aria-hidden') !== 'true')
      .slice(1);
  const cellOf = (row: HTMLElement, column: string) => {
    const headers = within(screen.getByRole('table', { name: 'Mobile ports' })).getAllByRole('columnheader');
    const at = headers.findIndex((header) => header.textContent?.includes(column));
    return row.querySelectorAll('th, td')[at]?.textContent ?? '';
  };
  const showUptime = () =>
    fireEvent.click(
      within(openPopover('Choose the columns of mobile ports')).getByRole('checkbox', {
        name: 'Uptime 24 h',
      }),
    );

  it('shows each port’s health as text from one ports:health call, and reads it again with Refresh', async () => {
    render(<PortsScreen />);
    await screen.findByText('Down');
    expect(rowsOf().map((row) => [row.querySelector('th')?.textContent, cellOf(row, 'Health')])).toEqual([
      ['Austinport_1', 'Down'],
      ['Berlinport_2', 'Up'],
      ['Cairoport_3', 'Up'],
      ['Dakarport_4', 'Unknown'],
    ]);
    // Uptime is in the column chooser, hidden until asked for.
    expect(screen.queryByRole('columnheader', { name: /Uptime 24 h/ })).toBeNull();
    showUptime();
    expect(rowsOf().map((row) => cellOf(row, 'Uptime 24 h'))).toEqual(['50.0 %', '99.8 %', '80.0 %', '']);
    expect(fake.current.callsTo('ports:health')).toEqual([undefined]);
    fake.current.handle('ports:health', () => ok([scores('port_1', 'up', 0.6)]));
    fireEvent.click(screen.getByRole('button', { name: 'Refresh ports' }));
    await settle();
    expect(fake.current.callsTo('ports:health')).toEqual([undefined, undefined]);
    expect(rowsOf().map((row) => cellOf(row, 'Health'))).toEqual(['Up', 'Unknown', 'Unknown', 'Unknown']);
  });

  it('sorts by the 24-hour uptime as numbers, ports without checks last', async () => {
    render(<PortsScreen />);
    await screen.findByText('Down');
    showUptime();
    const names = () => rowsOf().map((row) => row.querySelector('th a')?.textContent);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Uptime 24 h' }));
    expect(names()).toEqual(['Austin', 'Cairo', 'Berlin', 'Dakar']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Uptime 24 h' }));
    expect(names()).toEqual(['Berlin', 'Cairo', 'Austin', 'Dakar']);
  });

  it('filters by health, each choice with its count', async () => {
    render(<PortsScreen />);
    await screen.findByText('Down');
    const choices = openFilter('Health');
    expect(choiceTexts(choices)).toEqual(['Up2', 'Down1', 'Unknown1']);
    fireEvent.click(within(choices).getByRole('checkbox', { name: /Up/ }));
    expect(rowsOf().map((row) => row.querySelector('th a')?.textContent)).toEqual(['Berlin', 'Cairo']);
  });

  it('filters by auto-renew, each choice with its count, and shows it as a column on request', async () => {
    fake.current.handle('ports:list', () =>
      ok(
        portsAnswer([
          port({ id: 'port_1', label: 'Austin' }),
          port({ id: 'port_2', label: 'Berlin', autoRenew: false }),
          port({ id: 'port_3', label: 'Cairo', autoRenew: false }),
          port({ id: 'port_4', label: 'Dakar', autoRenew: false }),
        ]),
      ),
    );
    render(<PortsScreen />);
    await screen.findByText('Down');
    const choices = openFilter('Auto-renew');
    expect(choiceTexts(choices)).toEqual(['On1', 'Off3']);
    fireEvent.click(within(choices).getByRole('checkbox', { name: /Off/ }));
    expect(rowsOf().map((row) => row.querySelector('th a')?.textContent)).toEqual([
      'Berlin',
      'Cairo',
      'Dakar',
    ]);
    // Hidden until asked for in the column chooser: the filter is what fits at 1,280 px.
    expect(screen.queryByRole('columnheader', { name: /Auto-renew/ })).toBeNull();
    fireEvent.click(
      within(openPopover('Choose the columns of mobile ports')).getByRole('checkbox', { name: 'Auto-renew' }),
    );
    expect(rowsOf().map((row) => cellOf(row, 'Auto-renew'))).toEqual(['Off', 'Off', 'Off']);
  });

  it('filters by carrier, network, rotation and expiry window, each value counted, and exports what is filtered', async () => {
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    fake.current.handle('ports:list', () =>
      ok(
        portsAnswer([
          port({ id: 'port_1', label: 'Austin', expiresAt: inDays(1) }),
          port({ id: 'port_2', label: 'Berlin', carrierName: 'Vodafone DE', expiresAt: inDays(5) }),
          port({
            id: 'port_3',
            label: 'Cairo',
            networkType: '4G',
            rotation: { mode: 'manual', intervalMinutes: null },
            expiresAt: inDays(1.5),
          }),
          port({ id: 'port_4', label: 'Dakar', status: 'expired', expiresAt: inDays(-1) }),
        ]),
      ),
    );
    fake.current.handle('app:saveFile', () => ok({ saved: true, path: '/home/me/ports.csv' }));
    useAppStore.setState({ state: appState({ mode: 'desktop' }) });
    render(<PortsScreen />);
    await screen.findByText('Down');
    expect(choiceTexts(openFilter('Carrier'))).toEqual(['T-Mobile US3', 'Vodafone DE1']);
    expect(choiceTexts(openFilter('Network'))).toEqual(['4G1', '5G3']);
    expect(choiceTexts(openFilter('Rotation'))).toEqual(['Manual1', 'On a timer3']);
    expect(choiceTexts(openFilter('Expires'))).toEqual(['Expired1', 'Within 2 days2', 'Within 7 days1']);

    const expires = openFilter('Expires');
    fireEvent.click(within(expires).getByRole('checkbox', { name: /Within 2 days/ }));
    expect(rowsOf().map((row) => row.querySelector('th a')?.textContent)).toEqual(['Austin', 'Cairo']);
    const carrier = openFilter('Carrier');
    fireEvent.click(within(carrier).getByRole('checkbox', { name: /T-Mobile US/ }));
    fireEvent.click(within(openPopover('Filter by Network')).getByRole('checkbox', { name: /5G/ }));
    expect(rowsOf().map((row) => row.querySelector('th a')?.textContent)).toEqual(['Austin']);

    fireEvent.click(screen.getByRole('button', { name: /Export CSV/ }));
    await settle();
    const [saved] = fake.current.callsTo('app:saveFile') as { content: string }[];
    const lines = saved!.content.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Austin');
  });
});
