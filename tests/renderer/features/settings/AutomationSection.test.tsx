import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditEntry, AutomationTokenView, RestApiStatus, Scope } from '../../../../src-shared/contract';
import { AutomationSection } from '../../../../src-renderer/src/features/settings/AutomationSection';
import { fail, ok } from '../../support/fake-api';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

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
});
