import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { RotationVerdict } from '../../../../src-shared/contract';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { PortDetail } from '../../../../src-renderer/src/features/ports/PortDetail';
import type { SaveTextFile } from '../../../../src-renderer/src/shared/save-outcome';
import { ok } from '../../support/fake-api';
import { carriers, cities, countries, port } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';
import { choiceTexts, openFilter } from '../../support/table-popovers';
import { receipt } from './port-fixtures';

const verdict = (kind: RotationVerdict['kind'], message: string): RotationVerdict => ({
  kind,
  exitIp: '100.85.7.7',
  asn: 65001,
  country: 'US',
  expectedAsn: 65001,
  expectedCountry: 'US',
  seenBefore: null,
  checks: 1,
  message,
});

const stored = [
  receipt({ id: 'r_1', ip: '100.85.0.1', finishedAt: '2026-03-10T12:00:09.000Z', tookMs: 9000 }),
  receipt({
    id: 'r_2',
    previousIp: '100.85.0.1',
    ip: '100.85.0.1',
    sameIp: true,
    trigger: 'schedule',
    finishedAt: '2026-03-10T13:00:04.000Z',
    tookMs: 4000,
  }),
  receipt({
    id: 'r_3',
    previousIp: '100.85.0.1',
    ip: '100.85.0.3',
    trigger: 'schedule',
    finishedAt: '2026-03-10T14:00:12.000Z',
    tookMs: 12_000,
    verdict: verdict('clean', 'A new IP on the same network.'),
  }),
];

describe('Rotation receipts on the port page', () => {
  const fake = useFakeApi(() => ({
    'ports:receipts': () => ok(stored),
    'ports:relocations': () => ok([]),
    'catalog:countries': () => ok(countries()),
    'catalog:cities': () => ok(cities()),
    'catalog:carriers': () => ok(carriers()),
  }));

  const table = () => screen.getByRole('table', { name: 'Rotation receipts' });
  const ips = () =>
    within(table())
      .getAllByRole('rowheader')
      .map((cell) => cell.textContent);

  it('lists every receipt kept, newest first, with facets by trigger, outcome and verdict, sort and CSV', async () => {
    const save = vi.fn<SaveTextFile>(() =>
      Promise.resolve({ status: 'downloaded', fileName: 'receipts-port_1.csv' }),
    );
    useAppStore.setState({ saveTextFile: save });
    render(<PortDetail port={port()} />);
    await settle();
    expect(ips()).toEqual(['100.85.0.3', '100.85.0.1', '100.85.0.1']);
    // Local time in the cell, the exact UTC on hover.
    expect(table().querySelector('tbody time')?.getAttribute('title')).toMatch(/2026-03-10.*UTC/);

    expect(choiceTexts(openFilter('Trigger'))).toEqual(['Button1', 'Schedule2']);
    expect(choiceTexts(openFilter('Verdict'))).toEqual(['clean1', 'None2']);
    const outcomes = openFilter('Outcome');
    expect(choiceTexts(outcomes)).toEqual(['New IP2', 'Same IP1']);
    fireEvent.click(within(outcomes).getByRole('checkbox', { name: /New IP/ }));
    expect(ips()).toEqual(['100.85.0.3', '100.85.0.1']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Took' }));
    expect(ips()).toEqual(['100.85.0.1', '100.85.0.3']);

    fireEvent.click(
      within(table().closest('.data-table') as HTMLElement).getByRole('button', { name: /Export CSV/ }),
    );
    await settle();
    expect(save).toHaveBeenCalledWith({
      fileName: 'receipts-port_1.csv',
      type: 'text/csv',
      content:
        'Finished,Trigger,From,To,Outcome,Verdict,Took\r\n' +
        '2026-03-10T12:00:09.000Z,Button,100.85.1.2,100.85.0.1,New IP,,9000\r\n' +
        '2026-03-10T14:00:12.000Z,Schedule,100.85.0.1,100.85.0.3,New IP,clean: A new IP on the same network.,12000\r\n',
    });
  });

  it('adds the receipts of rotations made here to the table, beside the ones kept before', async () => {
    let rotations = 0;
    fake.current.handle('ports:rotate', () => {
      rotations += 1;
      return ok(
        receipt({
          id: `r_new_${rotations}`,
          previousIp: '100.85.0.3',
          ip: `100.85.1.${rotations}`,
          finishedAt: `2026-03-10T15:00:0${rotations}.000Z`,
          nextRotationAvailableAt: '2000-01-01T00:00:00.000Z',
        }),
      );
    });
    fake.current.handle('ports:ipHistory', () =>
      ok({ data: [], pagination: { page: 1, perPage: 20, total: 0, totalPages: 1 } }),
    );
    render(<PortDetail port={port()} />);
    await settle();
    for (const _ of [1, 2]) {
      fireEvent.click(screen.getAllByRole('button', { name: /: Sneaker drops LA$/ })[0]!);
      await settle();
    }
    expect(ips()).toEqual(['100.85.1.2', '100.85.1.1', '100.85.0.3', '100.85.0.1', '100.85.0.1']);
    // One read of the kept receipts: the table and the Rotate panel share it.
    expect(fake.current.callsTo('ports:receipts')).toHaveLength(1);
  });
});
