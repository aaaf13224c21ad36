import { type FormEvent, useEffect, useId, useState } from 'react';
import type { AlertChannelKind, AlertChannelView } from '../../../../src-shared/contract';
import type { DeliveryEventType } from '../../../../src-shared/contract/alert-routing-events';
import { CheckboxOption } from '../../shared/components/CheckboxOption';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { PasswordField } from '../../shared/components/PasswordField';
import { RefreshButton } from '../../shared/components/RefreshButton';
import { TextField } from '../../shared/components/TextField';
import { Time } from '../../shared/components/Time';
import { fieldErrorsOf } from '../../shared/field-errors';
import { type NewAlertChannel, useAlertRoutingStore } from './alert-routing-store';

const KIND_NAMES: Record<AlertChannelKind, string> = {
  webhook: 'Webhook (signed)',
  telegram: 'Telegram bot',
  ntfy: 'ntfy',
  slack: 'Slack incoming webhook',
  discord: 'Discord webhook',
  email: 'Email (SMTP)',
};
const KINDS = Object.keys(KIND_NAMES) as AlertChannelKind[];

type RoutableEvent = Exclude<DeliveryEventType, 'channel.test'>;

/** Every event a rule can route, in the order the user guide lists them. */
const EVENT_LABELS: Record<RoutableEvent, string> = {
  'port.down': 'Port down',
  'port.up': 'Port up again',
  'rotation.unchanged': 'Rotation kept the same IP',
  'rotation.repeated': 'Rotation repeated a recent IP',
  'traffic.below_threshold': 'Traffic below the threshold',
  'subscription.expiring': 'Subscription expiring (72, 24, 6, 1 h before)',
  'port.expiring': 'Port expiring (72, 24, 6, 1 h before)',
  'subscription.expired': 'Subscription expired',
  'port.expired': 'Port expired',
  'topup.credited': 'Top-up credited',
  'topup.expired': 'Top-up expired',
  'topup.rejected': 'Top-up rejected',
  'purchase.failed': 'Purchase failed',
  'schedule.failing': 'Rotation schedule failing',
  'local_proxy.failing': 'Local proxy failing',
};
const EVENTS = Object.keys(EVENT_LABELS) as RoutableEvent[];

type Draft = Record<string, string>;

/** The form's text as the call's input: only the fields of the chosen kind, numbers as numbers. */
function inputOf(kind: AlertChannelKind, draft: Draft, events: RoutableEvent[]): NewAlertChannel {
  const text = (name: string) => (draft[name]?.trim() ? draft[name].trim() : undefined);
  const number = (name: string) => (text(name) === undefined ? undefined : Number(text(name)));
  const common = {
    kind,
    name: draft.name ?? '',
    // All of them is the default; a shorter list is the rule.
    ...(events.length < EVENTS.length ? { events } : {}),
    ...(text('localProxyId') ? { localProxyId: text('localProxyId') } : {}),
    ...(text('portId') ? { portId: text('portId') } : {}),
    ...(number('quietMinutes') !== undefined ? { quietMinutes: number('quietMinutes') } : {}),
    ...(number('digestMinutes') !== undefined ? { digestMinutes: number('digestMinutes') } : {}),
  };
  const pick = (...names: string[]) =>
    Object.fromEntries(names.filter((name) => text(name) !== undefined).map((name) => [name, text(name)]));
  switch (kind) {
    case 'webhook':
    case 'slack':
    case 'discord':
      return { ...common, ...pick('url') };
    case 'telegram':
      return { ...common, ...pick('token', 'chatId', 'serverUrl') };
    case 'ntfy':
      return { ...common, ...pick('serverUrl', 'topic', 'token') };
    case 'email':
      return {
        ...common,
        ...pick('host', 'username', 'password', 'from', 'to'),
        ...(number('port') !== undefined ? { port: number('port') } : {}),
        secure: draft.secure === 'true',
      };
  }
}

function EventsFieldset({
  events,
  onChange,
  disabled,
  error,
}: {
  events: RoutableEvent[];
  onChange: (events: RoutableEvent[]) => void;
  disabled: boolean;
  error: string | undefined;
}) {
  return (
    <fieldset className="fieldset">
      <legend>Events</legend>
      {EVENTS.map((type) => (
        <CheckboxOption
          key={type}
          label={EVENT_LABELS[type]}
          checked={events.includes(type)}
          disabled={disabled}
          onChange={(checked) =>
            onChange(
              checked
                ? EVENTS.filter((item) => item === type || events.includes(item))
                : events.filter((item) => item !== type),
            )
          }
        />
      ))}
      {error ? <p className="field__error">{error}</p> : null}
    </fieldset>
  );
}

/** Edits an existing channel's rule: its events, one quiet period for them, the digest. */
function RuleForm({ channel, onDone }: { channel: AlertChannelView; onDone: () => void }) {
  const setRule = useAlertRoutingStore((store) => store.setRule);
  const error = useAlertRoutingStore((store) => store.ruleError);
  const [events, setEvents] = useState<RoutableEvent[]>(
    EVENTS.filter((type) => channel.rule.events.includes(type)),
  );
  const quiet = Object.values(channel.rule.quietMinutes)[0];
  const [quietMinutes, setQuietMinutes] = useState(quiet === undefined ? '' : String(quiet));
  const [digestMinutes, setDigestMinutes] = useState(
    channel.rule.digestMinutes === null ? '' : String(channel.rule.digestMinutes),
  );
  const [saving, setSaving] = useState(false);
  const errors = fieldErrorsOf(error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const saved = await setRule({
      channelId: channel.id,
      events,
      quietMinutes: quietMinutes.trim() === '' ? 0 : Number(quietMinutes),
      digestMinutes: digestMinutes.trim() === '' ? 0 : Number(digestMinutes),
    });
    setSaving(false);
    if (saved) onDone();
  };
  return (
    <form
      className="form"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label={`Rule of ${channel.name}`}
    >
      <EventsFieldset events={events} onChange={setEvents} disabled={saving} error={errors.events} />
      <TextField
        label="Quiet period (minutes)"
        value={quietMinutes}
        onChange={setQuietMinutes}
        error={errors.quietMinutes}
      />
      <TextField
        label="Digest every (minutes)"
        value={digestMinutes}
        onChange={setDigestMinutes}
        error={errors.digestMinutes}
        hint="Empty or 0: each event at once."
      />
      <button type="submit" className="button button--primary" disabled={saving}>
        Save rule
      </button>
      <button type="button" className="button button--quiet" onClick={onDone}>
        Cancel
      </button>
      {error && !error.fields ? <ErrorMessage error={error} title="Could not change the rule" /> : null}
    </form>
  );
}

function AddChannelForm() {
  const addChannel = useAlertRoutingStore((store) => store.addChannel);
  const adding = useAlertRoutingStore((store) => store.adding);
  const error = useAlertRoutingStore((store) => store.addError);
  const [kind, setKind] = useState<AlertChannelKind>('webhook');
  const [draft, setDraft] = useState<Draft>({});
  const [events, setEvents] = useState<RoutableEvent[]>(EVENTS);
  const kindId = useId();
  const errors = fieldErrorsOf(error);
  const field = (name: string, label: string, hint?: string) => (
    <TextField
      label={label}
      value={draft[name] ?? ''}
      onChange={(value) => setDraft((current) => ({ ...current, [name]: value }))}
      error={errors[name]}
      hint={hint}
    />
  );
  const secret = (name: string, label: string, hint?: string) => (
    <PasswordField
      label={label}
      value={draft[name] ?? ''}
      onChange={(value) => setDraft((current) => ({ ...current, [name]: value }))}
      error={errors[name]}
      hint={hint}
    />
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await addChannel(inputOf(kind, draft, events))) {
      setDraft({});
      setEvents(EVENTS);
    }
  };
  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate aria-label="Add a channel">
      <div className="field field--narrow">
        <label htmlFor={kindId}>Kind</label>
        <select
          id={kindId}
          value={kind}
          onChange={(event) => setKind(event.target.value as AlertChannelKind)}
        >
          {KINDS.map((value) => (
            <option key={value} value={value}>
              {KIND_NAMES[value]}
            </option>
          ))}
        </select>
      </div>
      {field('name', 'Channel name')}
      {kind === 'webhook' ? field('url', 'URL', 'Each request is signed (Standard Webhooks).') : null}
      {kind === 'slack' || kind === 'discord'
        ? secret('url', 'Incoming-webhook URL', 'Kept in the OS keychain: it is the secret.')
        : null}
      {kind === 'telegram' ? (
        <>
          {secret('token', 'Bot token', 'From @BotFather; kept in the OS keychain.')}
          {field('chatId', 'Chat id')}
          {field('serverUrl', 'Bot API address', 'Default https://api.telegram.org.')}
        </>
      ) : null}
      {kind === 'ntfy' ? (
        <>
          {field('serverUrl', 'Server', 'Default https://ntfy.sh.')}
          {field('topic', 'Topic')}
          {secret('token', 'Access token (optional)')}
        </>
      ) : null}
      {kind === 'email' ? (
        <>
          {field('host', 'SMTP server')}
          {field('port', 'Port', '587 (STARTTLS) by default.')}
          {field('username', 'User name')}
          {secret('password', 'Password', 'Kept in the OS keychain.')}
          {field('from', 'From')}
          {field('to', 'To')}
        </>
      ) : null}
      <EventsFieldset events={events} onChange={setEvents} disabled={adding} error={errors.events} />
      {field('localProxyId', 'Send through local proxy (id, optional)', 'Where the service is blocked.')}
      {field('portId', 'Or send through mobile port (id, optional)', 'Its gateway, with its credentials.')}
      {field(
        'quietMinutes',
        'Quiet period (minutes)',
        'The same event about the same port is held back this long.',
      )}
      {field('digestMinutes', 'Digest every (minutes)', 'Empty: each event at once.')}
      <button type="submit" className="button button--primary" disabled={adding}>
        Add channel
      </button>
      {error && !error.fields ? <ErrorMessage error={error} title="Could not add the channel" /> : null}
    </form>
  );
}

function AddedChannel() {
  const added = useAlertRoutingStore((store) => store.added);
  const dismiss = useAlertRoutingStore((store) => store.dismissAdded);
  if (!added?.signingSecret) return null;
  return (
    <div className="notice notice--info" role="status" data-testid="signing-secret">
      <p>Signing secret of “{added.channel.name}”. Copy it to the receiver now: it is not shown again.</p>
      <code className="code">{added.signingSecret}</code>
      <button type="button" className="button" onClick={dismiss}>
        Done
      </button>
    </div>
  );
}

function ChannelState({ channel }: { channel: AlertChannelView }) {
  if (channel.health.failing)
    return <>{`Failing${channel.health.lastError ? `: ${channel.health.lastError}` : ''}`}</>;
  // The one date-time format of the window (locale, UTC on hover), never the wire's ISO.
  if (channel.health.lastSuccessAt)
    return (
      <>
        OK (last sent <Time iso={channel.health.lastSuccessAt} />)
      </>
    );
  return <>Nothing sent yet</>;
}

function ChannelsTable() {
  const channels = useAlertRoutingStore((store) => store.channels);
  const tests = useAlertRoutingStore((store) => store.tests);
  const testChannel = useAlertRoutingStore((store) => store.testChannel);
  const removeChannel = useAlertRoutingStore((store) => store.removeChannel);
  const [editing, setEditing] = useState<string | null>(null);
  if (channels.error && !channels.data)
    return <ErrorMessage error={channels.error} title="Could not read the channels" />;
  const rows = channels.data ?? [];
  if (rows.length === 0) return <p className="muted">No channels yet: alerts stay on this desktop.</p>;
  const edited = rows.find((channel) => channel.id === editing);
  return (
    <>
      <div className="table-wrap">
        <table className="table" aria-label="Alert channels">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Sends to</th>
              <th scope="col">State</th>
              <th scope="col">Waiting</th>
              <th scope="col">Dead letters</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((channel) => {
              const test = tests[channel.id];
              return (
                <tr key={channel.id}>
                  <td>{channel.name}</td>
                  <td>{KIND_NAMES[channel.kind]}</td>
                  <td>{channel.destination}</td>
                  <td>
                    <ChannelState channel={channel} />
                  </td>
                  <td>{channel.health.pending}</td>
                  <td>{channel.health.deadLetters}</td>
                  <td>
                    <button
                      type="button"
                      className="button"
                      aria-label={`Test ${channel.name}`}
                      disabled={test === 'sending'}
                      onClick={() => void testChannel(channel.id)}
                    >
                      Test
                    </button>
                    <button
                      type="button"
                      className="button button--quiet"
                      aria-label={`Rule of ${channel.name}`}
                      onClick={() => setEditing(channel.id)}
                    >
                      Rule
                    </button>
                    <button
                      type="button"
                      className="button button--quiet"
                      aria-label={`Remove ${channel.name}`}
                      onClick={() => void removeChannel(channel.id)}
                    >
                      Remove
                    </button>
                    {test && test !== 'sending' ? (
                      <span role="status" className={test.ok ? 'muted' : 'field__error'}>
                        {test.ok ? 'Test sent.' : `Test failed: ${test.error ?? ''}`}
                      </span>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {edited ? <RuleForm key={edited.id} channel={edited} onDone={() => setEditing(null)} /> : null}
    </>
  );
}

function DeliveryLog() {
  const log = useAlertRoutingStore((store) => store.log);
  const refresh = useAlertRoutingStore((store) => store.refreshLog);
  const retryDead = useAlertRoutingStore((store) => store.retryDead);
  const entries = log.data?.entries ?? [];
  const dead = entries.filter((entry) => entry.status === 'dead').length;
  return (
    <div className="settings-subsection">
      <h3>Delivery log</h3>
      <p className="field__hint">
        Each event for each channel: retried with growing waits for 24 hours, then kept as a dead letter.
        {log.data && !log.data.sendsHere
          ? ' The desktop app or web mode that runs the background jobs sends them.'
          : ''}
      </p>
      <RefreshButton
        onRefresh={() => void refresh()}
        busy={log.status === 'loading'}
        what="the delivery log"
      />
      {dead > 0 ? (
        <button type="button" className="button" onClick={() => void retryDead()}>
          Send the {dead} dead letter{dead === 1 ? '' : 's'} again
        </button>
      ) : null}
      {log.error ? <ErrorMessage error={log.error} title="Could not read the delivery log" /> : null}
      {entries.length === 0 ? (
        <p className="muted">Nothing delivered yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Delivery log">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Channel</th>
                <th scope="col">Outcome</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last error</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={`${entry.eventId}-${entry.channelId}`}>
                  <td>
                    <Time iso={entry.sentAt ?? entry.lastAttemptAt ?? entry.queuedAt} />
                  </td>
                  <td>{entry.eventType}</td>
                  <td>{entry.channelName}</td>
                  <td>{entry.status === 'dead' ? 'dead letter' : entry.status.replace('_', ' ')}</td>
                  <td>{entry.attempts}</td>
                  <td>{entry.lastError ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function LocalReceiver() {
  const receiver = useAlertRoutingStore((store) => store.receiver);
  const loadReceiver = useAlertRoutingStore((store) => store.loadReceiver);
  const url = receiver.data?.url ?? null;
  const messages = receiver.data?.messages ?? [];
  return (
    <div className="settings-subsection">
      <h3>Try it offline</h3>
      <p className="field__hint">
        A receiver on this computer that answers like a webhook endpoint, Telegram’s Bot API, ntfy, Slack and
        Discord. Point a channel at it (the demo needs nothing else), press Test, and see what arrived.
      </p>
      {url ? (
        <ul className="muted" data-testid="receiver-addresses">
          <li>Webhook URL: {url}/webhook</li>
          <li>Telegram Bot API address: {url}/telegram (any bot token and chat id)</li>
          <li>ntfy server: {url}/ntfy (any topic)</li>
          <li>
            Slack or Discord URL: {url}/slack, {url}/discord
          </li>
        </ul>
      ) : null}
      <button
        type="button"
        className="button"
        disabled={receiver.status === 'loading'}
        onClick={() => void loadReceiver(url === null)}
      >
        {url ? 'Show what arrived' : 'Start the local receiver'}
      </button>
      {receiver.error ? <ErrorMessage error={receiver.error} title="Could not start the receiver" /> : null}
      {messages.length > 0 ? (
        <div className="table-wrap">
          <table className="table" aria-label="Received by the local receiver">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">As</th>
                <th scope="col">Event</th>
                <th scope="col">Signature</th>
              </tr>
            </thead>
            <tbody>
              {messages.map((message, index) => (
                <tr key={`${message.at}-${index}`}>
                  <td>
                    <Time iso={message.at} />
                  </td>
                  <td>{message.kind}</td>
                  <td>{message.eventType ?? '?'}</td>
                  <td>{message.signature}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}

/** Settings → Alerts → Channels: alerts delivered away from this desktop, with a Test button and the delivery log. */
export function AlertChannelsSection() {
  const load = useAlertRoutingStore((store) => store.load);
  const actionError = useAlertRoutingStore((store) => store.actionError);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section className="settings-section" aria-labelledby="alert-channels-title">
      <h2 id="alert-channels-title" tabIndex={-1}>
        Alert channels
      </h2>
      <p className="field__hint">
        Alerts that reach you away from this desktop: a signed webhook, Telegram, ntfy, Slack, Discord or
        email. Secrets stay in the OS keychain.
      </p>
      <AddedChannel />
      <ChannelsTable />
      {actionError ? <ErrorMessage error={actionError} title="Could not do that" /> : null}
      <div className="settings-subsection">
        <h3>Add a channel</h3>
        <AddChannelForm />
      </div>
      <DeliveryLog />
      <LocalReceiver />
    </section>
  );
}
