import { Activity, useEffect, useState } from 'react';
import type { Subscription } from '../../../../src-shared/api-types';
import type { CredentialFormat, IpcError } from '../../../../src-shared/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { RefreshButton } from '../../shared/components/RefreshButton';
import { Screen } from '../../shared/components/Screen';
import { StatusBadge } from '../../shared/components/StatusBadge';
import { Tabs } from '../../shared/components/Tabs';
import { TextField } from '../../shared/components/TextField';
import { Time } from '../../shared/components/Time';
import { fieldErrorsOf, unplacedFieldErrors } from '../../shared/field-errors';
import { MASK, maskSecret } from '../../shared/mask-secret';
import { formatBytes } from '../../shared/format/format';
import { useLoadable } from '../../shared/loadable-slice';
import { CopyButton } from '../../shared/components/CopyButton';
import { CredentialFormatSelect } from './CredentialFormatSelect';
import { LocalProxyAction } from '../local-proxies/LocalProxyAction';
import { ProxyStringBuilder } from './ProxyStringBuilder';
import { SubscriptionHealthSummary } from './SubscriptionHealthSummary';
import { SubUsersPanel } from './SubUsersPanel';
import { PRODUCTS } from './SubscriptionsList';
import { TrafficBar } from './TrafficBar';
import { UsagePanel } from './UsagePanel';
import { subscriptionHref } from './subscription-route';
import { subscriptionDetails, subUserLists, useSubscriptionsStore } from './subscriptions-store';

const LABEL_MAX = 60;

type DetailTab = 'overview' | 'sub-users' | 'usage' | 'builder';
const TABS: readonly { key: DetailTab; label: string }[] = [
  { key: 'overview', label: 'Overview' },
  { key: 'sub-users', label: 'Sub-users' },
  { key: 'usage', label: 'Usage' },
  { key: 'builder', label: 'Proxy strings' },
];

function EditForm({ subscription }: { subscription: Subscription }) {
  const update = useSubscriptionsStore((store) => store.update);
  const [label, setLabel] = useState(subscription.label);
  const [autoRenew, setAutoRenew] = useState(subscription.autoRenew);
  const [error, setError] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const localError = label.trim().length > LABEL_MAX ? `At most ${LABEL_MAX} characters` : undefined;
  const errors = fieldErrorsOf(error);
  const submit = async () => {
    if (localError) return;
    const patch: { label?: string; autoRenew?: boolean } = {};
    if (label.trim() !== subscription.label) patch.label = label.trim();
    if (autoRenew !== subscription.autoRenew) patch.autoRenew = autoRenew;
    if (Object.keys(patch).length === 0) return;
    setBusy(true);
    setSaved(false);
    const result = await update({ subscriptionId: subscription.id, ...patch });
    setBusy(false);
    setError(result.ok ? null : result.error);
    setSaved(result.ok);
  };
  const unplaced = unplacedFieldErrors(errors, ['label', 'autoRenew']);
  return (
    <form
      className="form"
      aria-label="Edit subscription"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextField
        label="Label"
        value={label}
        onChange={setLabel}
        maxLength={LABEL_MAX + 20}
        error={localError ?? errors.label}
        hint={`${label.trim().length} of ${LABEL_MAX} characters`}
      />
      <label className="checkbox">
        <input type="checkbox" checked={autoRenew} onChange={(event) => setAutoRenew(event.target.checked)} />
        Renew automatically
      </label>
      {error && (unplaced.length > 0 || !error.fields) ? (
        <ErrorMessage error={error} title="Could not save" />
      ) : null}
      <div className="form__actions">
        <button type="submit" className="button" disabled={busy || Boolean(localError)}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <span role="status" className="muted small">
          {saved ? 'Saved' : ''}
        </span>
      </div>
    </form>
  );
}

/** The main user's line in every format, built by main (the one place proxy strings are made). */
function Credentials({ subscription }: { subscription: Subscription }) {
  const [format, setFormat] = useState<CredentialFormat>('http_url');
  const [line, setLine] = useState<{ key: string; text: string } | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const buildProxyString = useSubscriptionsStore((store) => store.buildProxyString);
  const key = `${subscription.id}|${subscription.password}|${format}`;
  const [shown, setShown] = useState(false);
  const { id, password } = subscription;
  useEffect(() => {
    let current = true;
    void buildProxyString({
      subscriptionId: id,
      targeting: {},
      format,
      protocol: format === 'socks5_url' ? 'socks5' : 'http',
    }).then((result) => {
      if (!current) return;
      if (result.ok) setLine({ key: `${id}|${password}|${format}`, text: result.value.lines[0] ?? '' });
      setError(result.ok ? null : result.error);
    });
    return () => {
      current = false;
    };
  }, [buildProxyString, id, password, format]);
  return (
    <section aria-labelledby="credentials-title" className="card">
      <h2 id="credentials-title">Main user</h2>
      <dl className="facts">
        <dt>Username</dt>
        <dd>
          <code>{subscription.username}</code> <CopyButton text={subscription.username} what="username" />
        </dd>
        <dt>Password</dt>
        <dd>
          <code aria-label={shown ? 'Password' : 'Password (hidden)'}>
            {shown ? subscription.password : MASK}
          </code>{' '}
          <button
            type="button"
            className="button button--quiet"
            aria-pressed={shown}
            onClick={() => setShown(!shown)}
          >
            {shown ? 'Hide password' : 'Show password'}
          </button>
          <CopyButton text={subscription.password} what="password" />
        </dd>
        <dt>Endpoint</dt>
        <dd>
          <code>{subscription.endpoint.host}</code> · HTTP port <code>{subscription.endpoint.httpPort}</code>{' '}
          · SOCKS5 port <code>{subscription.endpoint.socksPort}</code>
        </dd>
      </dl>
      <CredentialFormatSelect
        label="Format"
        value={format}
        onChange={setFormat}
        className="field field--inline"
      />
      {error ? <ErrorMessage error={error} title="Could not build the line" /> : null}
      {line?.key === key ? (
        <p className="proxy-line">
          {/* Masked like the password above until it is shown; Copy copies the real line. */}
          <code aria-label="Main user proxy line">
            {shown ? line.text : maskSecret(line.text, subscription.password)}
          </code>{' '}
          <CopyButton text={line.text} what="proxy line" />
        </p>
      ) : null}
      <h3>Local proxy</h3>
      <p className="muted small">
        An address on this computer that adds these credentials itself; for targeting, use the string
        builder&apos;s “Local proxy…”.
      </p>
      <LocalProxyAction
        upstream={{ kind: 'subscription', subscriptionId: subscription.id }}
        name={`${subscription.label} main user`}
      />
    </section>
  );
}

function ResetPassword({ subscription }: { subscription: Subscription }) {
  const resetPassword = useSubscriptionsStore((store) => store.resetPassword);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: true } | { ok: false; error: IpcError } | null>(null);
  const reset = async () => {
    setBusy(true);
    const result = await resetPassword(subscription.id);
    setBusy(false);
    setConfirming(false);
    setOutcome(result.ok ? { ok: true } : result);
  };
  return (
    <section aria-labelledby="reset-title" className="card">
      <h2 id="reset-title">Reset password</h2>
      <p className="warning">
        The old password stops working at the gateway within 60 seconds: every tool using it must get the new
        one.
      </p>
      {confirming ? (
        <div role="alertdialog" aria-label="Confirm password reset" className="confirm">
          <p>Reset the main user&rsquo;s password now?</p>
          <button
            type="button"
            className="button button--danger"
            disabled={busy}
            onClick={() => void reset()}
          >
            {busy ? 'Resetting…' : 'Reset password'}
          </button>
          <button type="button" className="button button--quiet" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" className="button" onClick={() => setConfirming(true)}>
          Reset password…
        </button>
      )}
      {outcome?.ok ? (
        <p role="status">The password was reset; the new one is shown above.</p>
      ) : outcome ? (
        <ErrorMessage error={outcome.error} title="Could not reset the password" />
      ) : null}
    </section>
  );
}

function Overview({ subscription }: { subscription: Subscription }) {
  return (
    <div className="stack">
      <section className="card" aria-label="Traffic">
        <TrafficBar used={subscription.trafficUsedBytes} total={subscription.trafficTotalBytes} />
        <p className="muted small">
          {formatBytes(subscription.trafficRemainingBytes)} left ·{' '}
          {PRODUCTS[subscription.productId] ?? subscription.productId} · plan{' '}
          <code>{subscription.planId}</code> · <StatusBadge status={subscription.status} /> · expires{' '}
          {subscription.expiresAt ? <Time iso={subscription.expiresAt} /> : 'never'}
        </p>
      </section>
      <SubscriptionHealthSummary subscriptionId={subscription.id} />
      <EditForm key={`${subscription.label}|${subscription.autoRenew}`} subscription={subscription} />
      <Credentials subscription={subscription} />
      <ResetPassword subscription={subscription} />
    </div>
  );
}

/**
 * The Sub-users tab, rendered (hidden, in an `Activity`) as soon as its list is in, and kept when
 * another tab is chosen: choosing it shows a table already built (5,000 sub-users) rather than
 * building it in the click, and brings back the search, sort and scroll it was left with. Hidden,
 * it runs no effects; what changed meanwhile renders as it shows. The other tabs mount when chosen.
 */
function KeptSubUsersTab({ subscription, shown }: { subscription: Subscription; shown: boolean }) {
  // Held data counts (a refresh keeps it while loading): the hidden tab is not dropped meanwhile.
  const listIn = useSubscriptionsStore(
    (state) => (subUserLists.read(state, subUserLists.key(subscription.id))?.data ?? null) !== null,
  );
  const [kept, setKept] = useState(shown);
  if (shown && !kept) setKept(true);
  if (!shown && !kept && !listIn) return null;
  return (
    <Activity mode={shown ? 'visible' : 'hidden'}>
      <SubUsersPanel subscription={subscription} />
    </Activity>
  );
}

export function SubscriptionDetail({ id }: { id: string }) {
  const { loadable, retry } = useLoadable(useSubscriptionsStore, subscriptionDetails, id);
  const loadHealth = useSubscriptionsStore((store) => store.loadHealth);
  // Refresh reads the health summary's uptime and latency again too (a live change patches only the status).
  const refresh = () => {
    retry();
    void loadHealth(id, true);
  };
  const [tab, setTab] = useState<DetailTab>('overview');
  const title = loadable?.data?.label || id;
  return (
    <Screen
      title={title}
      back={<a href={subscriptionHref(null)}>← All subscriptions</a>}
      actions={
        <RefreshButton onRefresh={refresh} busy={loadable?.status === 'loading'} what="subscription" />
      }
    >
      <AsyncContent loadable={loadable} what="subscription" onRetry={retry} isEmpty={() => false}>
        {(subscription) => (
          <Tabs label="Subscription" tabs={TABS} selected={tab} onSelect={setTab}>
            {tab === 'overview' ? <Overview subscription={subscription} /> : null}
            <KeptSubUsersTab subscription={subscription} shown={tab === 'sub-users'} />
            {tab === 'usage' ? <UsagePanel subscription={subscription} /> : null}
            {tab === 'builder' ? <ProxyStringBuilder subscription={subscription} /> : null}
          </Tabs>
        )}
      </AsyncContent>
    </Screen>
  );
}
