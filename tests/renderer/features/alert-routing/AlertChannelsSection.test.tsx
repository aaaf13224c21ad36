import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AlertChannelView, DeliveryLogEntry, DeliveryLogView } from '../../../../src-shared/contract';
import { AlertChannelsSection } from '../../../../src-renderer/src/features/alert-routing/AlertChannelsSection';
import { useAlertRoutingStore } from '../../../../src-renderer/src/features/alert-routing/alert-routing-store';
import { formatDateTime } from '../../../../src-renderer/src/shared/format/format';
import { fail, ok } from '../../support/fake-api';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

const hook: AlertChannelView = {
  id: 'ach_0123456789abcdef',
  kind: 'webhook',
  name: 'Ops hook',
  destination: 'https://ops.example.com/in',
  hasSecret: true,
  localProxyId: null,
  viaPort: null,
  rule: { events: ['port.down'], quietMinutes: {}, digestMinutes: null },
  createdAt: '2026-01-01T00:00:00.000Z',
  health: {
    consecutiveFailures: 4,
    lastSuccessAt: null,
    lastFailureAt: '2026-01-01T00:10:00.000Z',
    lastError: 'Could not reach the webhook (ECONNREFUSED).',
    pending: 2,
    deadLetters: 1,
    failing: true,
  },
};
const dead: DeliveryLogEntry = {
  eventId: 'evt_1',
  eventType: 'port.down',
  channelId: hook.id,
  channelName: 'Ops hook',
  channelKind: 'webhook',
  status: 'dead',
  attempts: 97,
  queuedAt: '2026-01-01T00:00:00.000Z',
  lastAttemptAt: '2026-01-01T23:59:00.000Z',
  nextAttemptAt: null,
  sentAt: null,
  lastError: 'Given up: not delivered within 24 hours.',
  digestId: null,
};
const log: DeliveryLogView = { entries: [dead], sendsHere: true };

describe('Settings → Alert channels', () => {
  const fake = useFakeApi(() => {
    // Its store is a module singleton like the others the test kit resets.
    useAlertRoutingStore.setState(useAlertRoutingStore.getInitialState(), true);
    return {
      'alertRouting:channels': () => ok([hook]),
      'alertRouting:deliveries': () => ok(log),
    };
  });

  it('lists the channels with a failing one marked, and the delivery log with its dead letters', async () => {
    render(<AlertChannelsSection />);
    const channels = await screen.findByRole('table', { name: 'Alert channels' });
    expect(within(channels).getByText('Ops hook')).toBeTruthy();
    expect(within(channels).getByText(/^Failing: Could not reach the webhook/)).toBeTruthy();
    const rows = within(screen.getByRole('table', { name: 'Delivery log' })).getAllByRole('row');
    expect(rows[1]?.textContent).toContain('port.down');
    expect(rows[1]?.textContent).toContain('dead letter');
    expect(rows[1]?.textContent).toContain('97');
    fake.current.handle('alertRouting:retryDead', () => ok({ requeued: 1 }));
    fireEvent.click(screen.getByRole('button', { name: 'Send the 1 dead letter again' }));
    await settle();
    expect(fake.current.callsTo('alertRouting:retryDead')).toEqual([{}]);
  });

  it('tests a channel and shows the outcome', async () => {
    fake.current.handle('alertRouting:testChannel', () =>
      ok({ ok: false, error: 'The webhook answered HTTP 404.', entry: dead }),
    );
    render(<AlertChannelsSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Test Ops hook' }));
    await settle();
    expect(fake.current.callsTo('alertRouting:testChannel')).toEqual([{ channelId: hook.id }]);
    expect(screen.getByText('Test failed: The webhook answered HTTP 404.')).toBeTruthy();
  });

  it('adds a Telegram channel with only its fields, and shows field errors from main', async () => {
    fake.current.handle('alertRouting:addChannel', () =>
      fail('invalid_input', 'Check the form', {
        fields: [{ field: 'chatId', message: 'Enter the chat id' }],
      }),
    );
    render(<AlertChannelsSection />);
    await screen.findByRole('table', { name: 'Alert channels' });
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'telegram' } });
    fireEvent.change(screen.getByLabelText('Channel name'), { target: { value: 'Phone' } });
    fireEvent.change(screen.getByLabelText('Bot token'), { target: { value: '123:abc' } });
    fireEvent.change(screen.getByLabelText('Quiet period (minutes)'), { target: { value: '30' } });
    for (const name of ['Top-up credited', 'Top-up expired', 'Top-up rejected', 'Purchase failed'])
      fireEvent.click(screen.getByRole('checkbox', { name }));
    fireEvent.click(screen.getByRole('button', { name: 'Add channel' }));
    await settle();
    expect(fake.current.callsTo('alertRouting:addChannel')).toEqual([
      {
        kind: 'telegram',
        name: 'Phone',
        token: '123:abc',
        quietMinutes: 30,
        events: [
          'port.down',
          'port.up',
          'rotation.unchanged',
          'rotation.repeated',
          'traffic.below_threshold',
          'subscription.expiring',
          'port.expiring',
          'subscription.expired',
          'port.expired',
          'schedule.failing',
          'local_proxy.failing',
        ],
      },
    ]);
    expect(screen.getByText('Enter the chat id')).toBeTruthy();
  });

  it('shows a new webhook’s signing secret once', async () => {
    fake.current.handle('alertRouting:addChannel', () =>
      ok({ channel: { ...hook, id: 'ach_aaaaaaaaaaaaaaaa', name: 'New' }, signingSecret: 'whsec_c2VjcmV0' }),
    );
    render(<AlertChannelsSection />);
    await screen.findByRole('table', { name: 'Alert channels' });
    fireEvent.change(screen.getByLabelText('Channel name'), { target: { value: 'New' } });
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'https://x.example/in' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add channel' }));
    await settle();
    expect(screen.getByTestId('signing-secret').textContent).toContain('whsec_c2VjcmV0');
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('signing-secret')).toBeNull();
  });

  it('starts the local receiver and shows its addresses and what arrived', async () => {
    fake.current.handle('alertRouting:localReceiver', (input?: { start?: boolean }) =>
      ok({
        url: 'http://127.0.0.1:40000',
        messages: input?.start
          ? []
          : [
              {
                at: '2026-01-01T00:00:00.000Z',
                kind: 'webhook',
                eventId: 'evt_1',
                eventType: 'channel.test',
                text: '{}',
                signature: 'valid',
              },
            ],
      }),
    );
    render(<AlertChannelsSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Start the local receiver' }));
    await settle();
    expect(screen.getByTestId('receiver-addresses').textContent).toContain('http://127.0.0.1:40000/webhook');
    fireEvent.click(screen.getByRole('button', { name: 'Show what arrived' }));
    await settle();
    expect(fake.current.callsTo('alertRouting:localReceiver')).toEqual([{ start: true }, {}]);
    const row = within(screen.getByRole('table', { name: 'Received by the local receiver' })).getAllByRole(
      'row',
    )[1];
    expect(row?.textContent).toContain('channel.test');
    expect(row?.textContent).toContain('valid');
  });

  it('shows its times in the window’s one format (locale, UTC on hover), never the wire’s ISO', async () => {
    const sentAt = '2026-01-01T00:05:00.000Z';
    fake.current.handle('alertRouting:channels', () =>
      ok([
        {
          ...hook,
          health: { ...hook.health, consecutiveFailures: 0, lastSuccessAt: sentAt, failing: false },
        },
      ]),
    );
    fake.current.handle('alertRouting:deliveries', () =>
      ok({ ...log, entries: [{ ...dead, status: 'sent', sentAt, lastError: null }] }),
    );
    fake.current.handle('alertRouting:localReceiver', () =>
      ok({
        url: 'http://127.0.0.1:40000',
        messages: [
          {
            at: sentAt,
            kind: 'webhook',
            eventId: 'evt_1',
            eventType: 'channel.test',
            text: '{}',
            signature: 'valid',
          },
        ],
      }),
    );
    render(<AlertChannelsSection />);
    const channels = await screen.findByRole('table', { name: 'Alert channels' });
    fireEvent.click(await screen.findByRole('button', { name: 'Start the local receiver' }));
    await settle();
    const received = screen.getByRole('table', { name: 'Received by the local receiver' });
    const tables = [channels, screen.getByRole('table', { name: 'Delivery log' }), received];
    const shown = formatDateTime(sentAt);
    for (const table of tables) {
      expect(table.textContent).not.toContain('2026-01-01T');
      const time = within(table).getByText(shown);
      expect(time.tagName).toBe('TIME');
      expect(time.getAttribute('title')).toBe('2026-01-01 00:05:00 UTC');
    }
    expect(within(channels).getByRole('cell', { name: `OK (last sent ${shown})` })).toBeTruthy();
  });

  it('edits a channel’s rule: its events, quiet period and digest', async () => {
    fake.current.handle('alertRouting:setRule', (input: { digestMinutes?: number }) =>
      ok({
        ...hook,
        rule: {
          events: ['port.down', 'port.up'],
          quietMinutes: {},
          digestMinutes: input.digestMinutes ?? null,
        },
      }),
    );
    render(<AlertChannelsSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Rule of Ops hook' }));
    const form = screen.getByRole('form', { name: 'Rule of Ops hook' });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Port up again' }));
    fireEvent.change(within(form).getByLabelText('Digest every (minutes)'), { target: { value: '60' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save rule' }));
    await settle();
    expect(fake.current.callsTo('alertRouting:setRule')).toEqual([
      { channelId: hook.id, events: ['port.down', 'port.up'], quietMinutes: 0, digestMinutes: 60 },
    ]);
    expect(screen.queryByRole('form', { name: 'Rule of Ops hook' })).toBeNull();
  });
});
