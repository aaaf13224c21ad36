import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { credentialFormats, PortDetail } from '../../../../src-renderer/src/features/ports/PortDetail';
import { validateRange } from '../../../../src-renderer/src/features/ports/UsagePanel';
import type { IpcResult, IpHistoryView } from '../../../../src-shared/contract';
import { fail, ok } from '../../support/fake-api';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { usePortsStore } from '../../../../src-renderer/src/features/ports/ports-store';
import { appState, carriers, cities, countries, port } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';
import { receipt } from './port-fixtures';

const history = (page: number) => ({
  data: [
    {
      ip: `100.85.0.${page}`,
      assignedAt: '2026-03-10T12:00:00.000Z',
      releasedAt: null,
      trigger: page === 1 ? 'api' : 'something_new',
      receipt: page === 1 ? receipt() : null,
    },
  ],
  pagination: { page, perPage: 20, total: 25, totalPages: 2 },
});

describe('Port detail', () => {
  const fake = useFakeApi(() => ({
    'ports:receipts': () => ok([]),
    'ports:relocations': () => ok([]),
    'ports:ipHistory': ({ page }) => ok(history(page)),
    'ports:usage': ({ from, to }) =>
      ok({
        from: from ?? '2026-03-01',
        to: to ?? '2026-03-30',
        totalBytes: 2048,
        totalRequests: 12,
        points: [{ date: '2026-03-01', bytes: 2048, requests: 12 }],
        byCountry: [],
      }),
    'catalog:countries': () => ok(countries()),
    'catalog:cities': () => ok(cities()),
    'catalog:carriers': () => ok(carriers()),
  }));
  const clipboard = { writeText: vi.fn((_text: string) => Promise.resolve()) };
  beforeEach(() => {
    clipboard.writeText.mockClear();
    Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true });
  });
  afterEach(() => vi.restoreAllMocks());

  const secretPort = () =>
    port({
      username: 'user1',
      password: 'p@ss:w',
      endpoint: { host: 'gw.example.com', httpPort: 8000, socksPort: 9000 },
    });

  it('gives the endpoint in the formats tools ask for, URL parts encoded', () => {
    expect(credentialFormats(secretPort()).map((format) => format.text)).toEqual([
      'gw.example.com:8000:user1:p@ss:w',
      'user1:p@ss:w@gw.example.com:8000',
      'http://user1:p%40ss%3Aw@gw.example.com:8000',
      'socks5://user1:p%40ss%3Aw@gw.example.com:9000',
    ]);
  });

  it('hides the password until asked, and copies each format', async () => {
    render(<PortDetail port={secretPort()} initialTab="credentials" />);
    await settle();
    const formats = screen.getByRole('table', { name: 'Credential formats' });
    expect(formats.textContent).not.toContain('p@ss:w');
    fireEvent.click(screen.getByRole('button', { name: 'Copy socks5://user:pass@host:port' }));
    await settle();
    expect(clipboard.writeText).toHaveBeenCalledWith('socks5://user1:p%40ss%3Aw@gw.example.com:9000');
    expect(await screen.findByText(/Copied/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(formats.textContent).toContain('gw.example.com:8000:user1:p@ss:w');
  });

  it('resets the password only after confirmation', async () => {
    fake.current.handle('ports:resetPassword', () => ok(port({ password: 'new' })));
    render(<PortDetail port={port()} initialTab="credentials" />);
    fireEvent.click(screen.getByRole('button', { name: 'Reset password…' }));
    expect(fake.current.callsTo('ports:resetPassword')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await settle();
    expect(fake.current.callsTo('ports:resetPassword')).toEqual([{ portId: 'port_1' }]);
  });

  it('reads the rotation link only to copy it, with the warning', async () => {
    fake.current.handle('ports:revealRotationLink', () =>
      ok({ rotationLink: 'https://api/rotate?key=SECRET' }),
    );
    render(<PortDetail port={port()} initialTab="credentials" />);
    await settle();
    expect(screen.getByText(/Anyone holding this link can rotate this port/)).toBeTruthy();
    expect(fake.current.callsTo('ports:revealRotationLink')).toEqual([]);
    expect(document.body.textContent).not.toContain('SECRET');
    fireEvent.click(screen.getByRole('button', { name: 'Copy rotation link' }));
    await settle();
    await settle();
    expect(fake.current.callsTo('ports:revealRotationLink')).toEqual([{ portId: 'port_1' }]);
    expect(clipboard.writeText).toHaveBeenCalledWith('https://api/rotate?key=SECRET');
    expect(document.body.textContent).not.toContain('SECRET');
  });

  it('names each rotation mode by its label alone and reads its hint as the description, not run together', () => {
    render(<PortDetail port={port()} initialTab="settings" />);
    const interval = screen.getByRole('radio', {
      name: 'Every N minutes',
      description: 'The service rotates on its own.',
    });
    expect(interval).toBeTruthy();
    expect(
      screen.getByRole('radio', { name: 'Manual', description: 'Only when you (or the app) ask.' }),
    ).toBeTruthy();
    // Its own line under the label, not a run-on of the label's text.
    const hint = screen.getByText('The service rotates on its own.');
    expect(hint.tagName).toBe('P');
    expect(interval.closest('label')?.textContent).toBe('Every N minutes');
  });

  it('checks label and interval before saving, then shows what main rejects next to the field', async () => {
    fake.current.handle('ports:update', () =>
      fail('invalid_input', 'Invalid', {
        fields: [{ field: 'rotation.intervalMinutes', message: 'Not allowed for this plan' }],
      }),
    );
    render(<PortDetail port={port()} initialTab="settings" />);
    fireEvent.change(screen.getByLabelText('Label'), { target: { value: 'x'.repeat(61) } });
    fireEvent.change(screen.getByLabelText('Minutes between rotations'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('At most 60 characters')).toBeTruthy();
    expect(screen.getByText('At least 1 minute')).toBeTruthy();
    expect(fake.current.callsTo('ports:update')).toEqual([]);
    fireEvent.change(screen.getByLabelText('Label'), { target: { value: ' Shop ' } });
    fireEvent.change(screen.getByLabelText('Minutes between rotations'), { target: { value: '15' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(fake.current.callsTo('ports:update')).toEqual([
      {
        portId: 'port_1',
        label: 'Shop',
        autoRenew: true,
        rotation: { mode: 'interval', intervalMinutes: 15 },
      },
    ]);
    expect(screen.getByText('Not allowed for this plan')).toBeTruthy();
  });

  it('says plainly when the carrier gave back the same IP, and offers to rotate again once allowed', async () => {
    fake.current.handle('ports:rotate', () =>
      ok(receipt({ sameIp: true, ip: '100.85.1.2', nextRotationAvailableAt: '2000-01-01T00:00:00.000Z' })),
    );
    render(<PortDetail port={port()} />);
    fireEvent.click(screen.getAllByRole('button', { name: /: Sneaker drops LA$/ })[0]!);
    expect(screen.getByText(/Rotating: the carrier usually takes/)).toBeTruthy();
    await settle();
    const receiptView = screen.getByRole('region', { name: 'Rotation receipt' });
    expect(receiptView.textContent).toContain('9.0 s');
    expect(screen.getByText(/gave back the same IP \(100\.85\.1\.2\)/)).toBeTruthy();
    expect(screen.getByRole('button', { name: /: Sneaker drops LA$/ }).textContent).toBe(
      'Rotate again: Sneaker drops LA',
    );
  });

  it('points from the app schedule to the Settings tab and back, not to panels "above" or "below"', async () => {
    render(<PortDetail port={port()} />);
    await settle();
    const schedule = screen.getByRole('region', { name: 'App schedule' });
    expect(schedule.textContent).not.toMatch(/\((above|below)/);
    fireEvent.click(within(schedule).getByRole('button', { name: 'Settings tab' }));
    expect(screen.getByRole('tab', { name: 'Settings', selected: true })).toBeTruthy();
    expect(screen.getByText(/Server-side rotation keeps running/).textContent).not.toMatch(/below/);
    fireEvent.click(screen.getByRole('button', { name: 'Rotation tab' }));
    expect(screen.getByRole('tab', { name: 'Rotation', selected: true })).toBeTruthy();
  });

  it('puts the back link above the title, as a subscription does', () => {
    render(<PortDetail port={port()} initialTab="settings" />);
    const back = screen.getByRole('link', { name: '← All ports' });
    const title = screen.getByRole('heading', { level: 1 });
    expect(back.compareDocumentPosition(title) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('counts down a cooldown and a 429', async () => {
    const future = new Date(Date.now() + 40_000).toISOString();
    fake.current.handle('ports:rotate', () => ok(receipt({ nextRotationAvailableAt: future })));
    render(<PortDetail port={port()} />);
    fireEvent.click(screen.getByRole('button', { name: /: Sneaker drops LA$/ }));
    await settle();
    expect(screen.getByText(/Next rotation available in (40|39) s/)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /: Sneaker drops LA$/ }).disabled).toBe(
      true,
    );
  });

  it('shows the Retry-After of a 429 as a countdown', async () => {
    fake.current.handle('ports:rotate', () =>
      fail('rate_limited', 'Too many requests', { retryAfterMs: 90_000 }),
    );
    render(<PortDetail port={port()} />);
    fireEvent.click(screen.getByRole('button', { name: /: Sneaker drops LA$/ }));
    await settle();
    expect(screen.getByText(/Rotation limit reached/).textContent).toMatch(/next try in 1:(30|29)/);
  });

  it('relocates only with confirmation and explains location_unavailable', async () => {
    fake.current.handle('ports:relocate', () => fail('location_unavailable', 'No modem in los_angeles'));
    render(<PortDetail port={port()} initialTab="location" />);
    await settle();
    const carrier = await screen.findByLabelText('Carrier');
    // Only available carriers, with their network types.
    expect(
      within(carrier)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose a carrier', 'T-Mobile US (4G, 5G)']);
    fireEvent.change(carrier, { target: { value: 'tmobile_us' } });
    fireEvent.change(screen.getByLabelText('City (optional)'), { target: { value: 'los_angeles' } });
    fireEvent.click(screen.getByRole('button', { name: 'Relocate' }));
    expect(screen.getByText('Confirm that the endpoint and credentials may change')).toBeTruthy();
    expect(fake.current.callsTo('ports:relocate')).toEqual([]);
    fireEvent.click(screen.getByRole('checkbox', { name: /host, ports and credentials may change/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Relocate' }));
    await settle();
    expect(fake.current.callsTo('ports:relocate')).toEqual([
      { portId: 'port_1', country: 'US', carrier: 'tmobile_us', city: 'los_angeles' },
    ]);
    expect(screen.getByText(/No modem is free for that carrier and city/)).toBeTruthy();
  });

  it('pages the IP history with unknown triggers as they come, and downloads the CSV', async () => {
    fake.current.handle('ports:exportIpHistory', () =>
      ok({ fileName: 'port-port_1-ip-history.csv', csv: 'ip\n1.2.3.4\n', rows: 1 }),
    );
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:csv';
    });
    URL.revokeObjectURL = vi.fn();
    render(<PortDetail port={port()} initialTab="history" />);
    const table = await screen.findByRole('table', { name: 'IP history' });
    expect(table.textContent).toContain('button · from 100.85.1.2 in 9.0 s');
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    await settle();
    expect(screen.getByRole('table', { name: 'IP history' }).textContent).toContain('something_new');
    expect(fake.current.callsTo('ports:ipHistory')).toEqual([
      { portId: 'port_1', page: 1, perPage: 20 },
      { portId: 'port_1', page: 2, perPage: 20 },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await settle();
    expect(await created[0]?.text()).toBe('ip\n1.2.3.4\n');
    expect(screen.getByText('port-port_1-ip-history.csv').parentElement?.textContent).toBe(
      'Downloaded as port-port_1-ip-history.csv. 1 rows.',
    );
  });

  it('marks the new IP as current in the history as soon as a rotation’s receipt arrives, then reads it again', async () => {
    // What the service answers before the rotation: the old IP is current.
    const before = {
      data: [
        {
          ip: '100.85.1.2',
          assignedAt: '2026-03-10T11:55:00.000Z',
          releasedAt: null,
          trigger: 'manual',
          receipt: null,
        },
      ],
      pagination: { page: 1, perPage: 20, total: 1, totalPages: 1 },
    };
    fake.current.handle('ports:ipHistory', () => ok(before));
    render(<PortDetail port={port()} initialTab="history" />);
    const table = await screen.findByRole('table', { name: 'IP history' });
    const reads = fake.current.callsTo('ports:ipHistory').length;
    // The answer to the second read is held back: what shows meanwhile comes from the receipt.
    let answer: (value: IpcResult<IpHistoryView>) => void = () => undefined;
    fake.current.handle('ports:ipHistory', () => new Promise((resolve) => (answer = resolve)));
    act(() =>
      usePortsStore.getState().applyRotation({
        profileId: 'prof_work',
        portId: 'port_1',
        phase: 'finished',
        trigger: 'button',
        receipt: receipt(),
      }),
    );
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.querySelector('th')?.textContent)).toEqual(['100.85.7.7', '100.85.1.2']);
    expect(within(rows[0]!).getByText('current')).toBeTruthy();
    expect(within(rows[1]!).queryByText('current')).toBeNull();
    expect(rows[0]?.textContent).toContain('button · from 100.85.1.2 in 9.0 s');
    expect(fake.current.callsTo('ports:ipHistory').length).toBe(reads + 1);
    answer(ok(before));
    await settle();
  });

  it('desktop: saves the IP history through main and says where, or the error on the spot', async () => {
    useAppStore.setState({ state: appState({ mode: 'desktop' }) });
    fake.current.handle('ports:exportIpHistory', () =>
      ok({ fileName: 'port-port_1-ip-history.csv', csv: 'ip\n1.2.3.4\n', rows: 1 }),
    );
    fake.current.handle('app:saveFile', () => ok({ saved: true, path: '/home/me/Downloads/h.csv' }));
    render(<PortDetail port={port()} initialTab="history" />);
    await screen.findByRole('table', { name: 'IP history' });
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await settle();
    expect(fake.current.callsTo('app:saveFile')).toEqual([
      { fileName: 'port-port_1-ip-history.csv', content: 'ip\n1.2.3.4\n' },
    ]);
    expect(screen.getByText('/home/me/Downloads/h.csv').parentElement?.textContent).toBe(
      'Saved to /home/me/Downloads/h.csv. 1 rows.',
    );
    fake.current.handle('app:saveFile', () => fail('internal_error', 'EACCES: permission denied'));
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await settle();
    expect(screen.getByText(/Could not export the IP history/).parentElement?.textContent).toBe(
      'Could not export the IP history: EACCES: permission denied',
    );
  });

  it('checks the usage range on the form before asking, and says bandwidth is unlimited', async () => {
    render(<PortDetail port={port()} initialTab="usage" />);
    await settle();
    expect(screen.getByText(/Bandwidth on mobile ports is unlimited/)).toBeTruthy();
    const before = fake.current.callsTo('ports:usage').length;
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-01-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show range' }));
    expect(screen.getByText('At most 366 days (this range has 425)')).toBeTruthy();
    expect(fake.current.callsTo('ports:usage')).toHaveLength(before);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-02-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show range' }));
    await settle();
    expect(fake.current.callsTo('ports:usage').at(-1)).toEqual({
      portId: 'port_1',
      from: '2026-02-01',
      to: '2026-03-01',
    });
    expect(validateRange('2026-03-02', '2026-03-01')).toEqual({ to: 'The end is before the start' });
    expect(validateRange('2026-01-01', '2026-12-31')).toEqual({});
  });
});
