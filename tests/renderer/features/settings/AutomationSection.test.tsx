import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AuditEntry, AutomationTokenView, RestApiStatus, Scope } from '../../../../src-shared/contract';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import type { SaveTextFile } from '../../../../src-renderer/src/shared/save-outcome';
import { AutomationSection } from '../../../../src-renderer/src/features/settings/AutomationSection';
import { fail, ok } from '../../support/fake-api';
import { settle, useFakeApi } from '../../support/renderer-test-kit';
import { choiceTexts, openFilter } from '../../support/table-popovers';

const cron: AutomationTokenView = {
  id: 'tok_0123456789ab',
  name: 'cron',
  scopes: ['read', 'rotate'],
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUsedAt: null,
};
const off: RestApiStatus = { enabled: false, port: 24080, url: null, error: null };
const entry: AuditEntry = {
  at: '2026-01-02T00:00:00.000Z',
  surface: 'rest',
  caller: { kind: 'token', tokenId: cron.id, name: 'cron' },
  channel: 'ports:rotate',
  outcome: 'ok',
  durationMs: 12,
};

describe('Settings → Automation', () => {
  const fake = useFakeApi(() => ({
    'automation:tokens': () => ok([cron]),
    'automation:restStatus': () => ok(off),
    'automation:audit': () => ok([entry]),
  }));

  it('lists the tokens (never their values) and the audit log', async () => {
    render(<AutomationSection />);
    const tokens = await screen.findByRole('table', { name: 'Tokens' });
    expect(within(tokens).getByText('cron')).toBeTruthy();
    expect(within(tokens).getByText('read, rotate')).toBeTruthy();
    expect(within(tokens).getByText('never')).toBeTruthy();
    const audit = screen.getByRole('table', { name: 'Audit log' });
    expect(within(audit).getByText('ports:rotate')).toBeTruthy();
    expect(screen.getByTestId('rest-status').textContent).toBe('Off.');
  });

  it('creates a token with the chosen scopes and shows its value once', async () => {
    fake.current.handle('automation:createToken', (input: { name: string; scopes: Scope[] }) =>
      ok({
        token: { ...cron, id: 'tok_aaaaaaaaaaaa', name: input.name, scopes: input.scopes },
        secret: 'pmt_secret',
      }),
    );
    render(<AutomationSection />);
    await screen.findByRole('table', { name: 'Tokens' });
    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: 'agent' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /rotate/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    await settle();
    expect(fake.current.callsTo('automation:createToken')).toEqual([
      { name: 'agent', scopes: ['read', 'rotate'] },
    ]);
    expect(screen.getByTestId('created-token').textContent).toContain('pmt_secret');
    expect(within(screen.getByRole('table', { name: 'Tokens' })).getByText('agent')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('created-token')).toBeNull();
    expect(document.body.textContent).not.toContain('pmt_secret');
  });

  it('shows a field error from main next to the name', async () => {
    fake.current.handle('automation:createToken', () =>
      fail('invalid_input', 'A token with this name exists.', {
        fields: [{ field: 'name', message: 'A token with this name exists' }],
      }),
    );
    render(<AutomationSection />);
    await screen.findByRole('table', { name: 'Tokens' });
    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: 'cron' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    await settle();
    expect(screen.getByText('A token with this name exists')).toBeTruthy();
  });

  it('revokes a token', async () => {
    fake.current.handle('automation:revokeToken', () => ok({ revoked: true }));
    render(<AutomationSection />);
    await screen.findByRole('table', { name: 'Tokens' });
    fireEvent.click(screen.getByRole('button', { name: 'Revoke cron' }));
    await settle();
    expect(fake.current.callsTo('automation:revokeToken')).toEqual([{ tokenId: cron.id }]);
    expect(screen.getByText('No tokens yet.')).toBeTruthy();
  });

  it('turns the REST API on and shows where it listens', async () => {
    fake.current.handle('automation:setRest', () =>
      ok({ enabled: true, port: 24080, url: 'http://127.0.0.1:24080', error: null }),
    );
    render(<AutomationSection />);
    await screen.findByRole('table', { name: 'Tokens' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Serve the local REST API' }));
    await settle();
    expect(fake.current.callsTo('automation:setRest')).toEqual([{ enabled: true }]);
    expect(screen.getByTestId('rest-status').textContent).toContain('http://127.0.0.1:24080');
  });

  it('shows the audit on the shared table: newest first, filters by outcome, surface and caller with counts, sort by duration, CSV', async () => {
    const entries: AuditEntry[] = [
      entry,
      { ...entry, at: '2026-01-02T00:00:05.000Z', channel: 'ports:list', durationMs: 900 },
      {
        ...entry,
        at: '2026-01-02T00:00:03.000Z',
        surface: 'mcp',
        caller: { kind: 'mcp' },
        channel: 'rotate_until_new',
        outcome: 'scope_denied',
        durationMs: 3,
      },
    ];
    fake.current.handle('automation:audit', () => ok(entries));
    const save = vi.fn<SaveTextFile>(() => Promise.resolve({ status: 'downloaded', fileName: 'audit.csv' }));
    useAppStore.setState({ saveTextFile: save });
    render(<AutomationSection />);
    const audit = await screen.findByRole('table', { name: 'Audit log' });
    const calls = () =>
      within(audit)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent);
    expect(calls()).toEqual(['ports:list', 'rotate_until_new', 'ports:rotate']);

    const outcomes = openFilter('Outcome');
    expect(choiceTexts(outcomes)).toEqual(['ok2', 'scope_denied1']);
    const via = openFilter('Via');
    expect(choiceTexts(via)).toEqual(['MCP1', 'REST2']);
    fireEvent.click(within(via).getByRole('checkbox', { name: /REST/ }));
    expect(calls()).toEqual(['ports:list', 'ports:rotate']);
    const callers = openFilter('Caller');
    expect(choiceTexts(callers)).toEqual(['cron2']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Duration' }));
    expect(calls()).toEqual(['ports:rotate', 'ports:list']);
    fireEvent.click(screen.getByRole('button', { name: /Export CSV/ }));
    await settle();
    expect(save).toHaveBeenCalledWith({
      fileName: 'audit.csv',
      type: 'text/csv',
      content:
        'Time,Via,Caller,Call,Outcome,Duration\r\n' +
        '2026-01-02T00:00:00.000Z,REST,cron,ports:rotate,ok,12\r\n' +
        '2026-01-02T00:00:05.000Z,REST,cron,ports:list,ok,900\r\n',
    });
  });

  it('offers Copy for a new token, and shows the audit’s times in local time (UTC on hover) with durations', async () => {
    const writeText = vi.fn((_text: string) => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fake.current.handle('automation:createToken', (input: { name: string; scopes: Scope[] }) =>
      ok({
        token: { ...cron, id: 'tok_bbbbbbbbbbbb', name: input.name, scopes: input.scopes },
        secret: 'pmt_x',
      }),
    );
    fake.current.handle('automation:audit', () => ok([entry, { ...entry, durationMs: 2400 }]));
    render(<AutomationSection />);
    const audit = await screen.findByRole('table', { name: 'Audit log' });
    const time = audit.querySelector('tbody time');
    expect(time?.getAttribute('title')).toMatch(/2026-01-02.*UTC/);
    expect(time?.textContent).not.toContain('2026-01-02T00:00:00.000Z');
    expect(audit.textContent).toContain('12 ms');
    expect(audit.textContent).toContain('2.4 s');
    const tokens = screen.getByRole('table', { name: 'Tokens' });
    expect(tokens.textContent).not.toContain('2026-01-01T00:00:00.000Z');

    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: 'agent' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Copy token agent' }));
    await settle();
    expect(writeText).toHaveBeenCalledWith('pmt_x');
  });

  it('says how to reach the MCP server in real code, with no markdown and no bare file path', async () => {
    render(<AutomationSection />);
    await screen.findByRole('table', { name: 'Tokens' });
    const section = screen.getByRole('region', { name: 'Automation' });
    expect(section.textContent).not.toContain('`');
    expect(section.textContent).not.toContain('See docs/automation.md');
    expect(within(section).getByText('proxy-manager mcp').tagName).toBe('CODE');
    expect(within(section).getByRole('button', { name: 'Copy the MCP server command' })).toBeTruthy();
  });

  it('changes the REST port when the field is left, without an Apply button', async () => {
    fake.current.handle('automation:setRest', (input) => ok({ ...off, port: input.port ?? off.port }));
    render(<AutomationSection />);
    await screen.findByRole('table', { name: 'Tokens' });
    expect(screen.queryByRole('button', { name: 'Change port' })).toBeNull();
    expect(screen.queryAllByRole('button', { name: /apply/i, hidden: true })).toEqual([]);
    const port = screen.getByLabelText('Port');
    fireEvent.change(port, { target: { value: '24081' } });
    fireEvent.blur(port);
    await settle();
    expect(fake.current.callsTo('automation:setRest')).toEqual([{ port: 24081 }]);
  });
});
