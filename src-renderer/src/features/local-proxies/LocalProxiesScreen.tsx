import { createContext, useContext, useMemo, useState, type ComponentType, type FormEvent } from 'react';
import type {
  IpcError,
  LocalProxiesView,
  LocalProxyUpstream,
  LocalProxyView,
} from '../../../../src-shared/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { PasswordField } from '../../shared/components/PasswordField';
import { RefreshButton } from '../../shared/components/RefreshButton';
import { Screen } from '../../shared/components/Screen';
import { TextField } from '../../shared/components/TextField';
import { Time } from '../../shared/components/Time';
import { UnplacedErrors } from '../../shared/components/UnplacedErrors';
import { fieldErrorsOf, unplacedFieldErrors, type FieldErrors } from '../../shared/field-errors';
import { formatBytes } from '../../shared/format/format';
import { useLoadable } from '../../shared/loadable-slice';
import { DataTable } from '../../shared/table/DataTable';
import { useAppStore } from '../app/app-store';
import { type PlaceNames, usePlaceNames } from '../catalog/place-names';
import { localProxiesList, useLocalProxiesStore } from './local-proxies-store';
import { LocalProxyHealthBadge } from './LocalProxyHealthBadge';
import { LocalProxyState } from './LocalProxyState';
import { LOCAL_PROXY_FILTERS, localProxyColumns, localProxySearchText } from './local-proxy-columns';

/** `new_york` -> `New York`: the catalog has no state names to look up. */
const readableId = (id: string) =>
  id
    .split(/[_-]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

/**
 * What follows the target of a local proxy: the sub-user and the targeting of a subscription, its
 * places by their catalog names.
 */
function upstreamDetails(upstream: LocalProxyUpstream, places: PlaceNames): string {
  if (upstream.kind === 'port') return '';
  const t = upstream.targeting ?? {};
  const place = t.country ? places.location(t.country, t.city ?? null) : '';
  const where = [
    place,
    t.state ? readableId(t.state) : '',
    t.asn === undefined ? '' : `AS${t.asn}`,
    t.zip ? `ZIP ${t.zip}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return [
    '',
    upstream.subUserId ? `sub-user ${upstream.subUserId}` : 'main user',
    where,
    t.session ? `session ${t.session}` : '',
  ]
    .filter((part, index) => index === 0 || part)
    .join(' · ');
}

const PORT_PATTERN = /^\d+$/;
const NO_COUNTRIES: readonly string[] = [];

/** Name, port, rotation behaviour and, on request, other computers with a local login. */
function EditForm({ proxy, onDone }: { proxy: LocalProxyView; onDone: () => void }) {
  const update = useLocalProxiesStore((store) => store.update);
  const [label, setLabel] = useState(proxy.label);
  const [port, setPort] = useState(String(proxy.listen.port));
  const [closeOnRotation, setCloseOnRotation] = useState(proxy.closeOnRotation);
  const [network, setNetwork] = useState(proxy.allowNetwork);
  const [bindAddress, setBindAddress] = useState(proxy.allowNetwork ? proxy.listen.host : '0.0.0.0');
  const [username, setUsername] = useState(proxy.auth?.username ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local: FieldErrors = {};
    if (!label.trim()) local.label = 'Give the local proxy a name';
    if (!PORT_PATTERN.test(port.trim())) local.listenPort = 'A port from 1024 to 65535';
    if (network && !username.trim()) local['auth.username'] = 'Other computers need a user name';
    if (network && password.length < 8 && !proxy.auth) local['auth.password'] = 'At least 8 characters';
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    const listenChanged = network !== proxy.allowNetwork || (network && bindAddress !== proxy.listen.host);
    setBusy(true);
    const result = await update({
      id: proxy.id,
      label: label.trim(),
      listenPort: Number(port.trim()),
      closeOnRotation,
      ...(listenChanged || password
        ? {
            allowNetwork: network,
            bindAddress: network ? bindAddress.trim() : '127.0.0.1',
            auth: network ? { username: username.trim(), password } : null,
          }
        : {}),
    });
    setBusy(false);
    if (result.ok) {
      onDone();
      return;
    }
    const fields = fieldErrorsOf(result.error);
    setErrors(fields);
    setFailure(Object.keys(fields).length > 0 ? null : result.error);
  };
  const unplaced = unplacedFieldErrors(errors, [
    'label',
    'listenPort',
    'bindAddress',
    'auth.username',
    'auth.password',
  ]);
  return (
    <form
      className="form card"
      aria-label={`Change ${proxy.label}`}
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <TextField label="Name" value={label} onChange={setLabel} error={errors.label} />
      <TextField
        label="Local port"
        inputMode="numeric"
        value={port}
        onChange={setPort}
        error={errors.listenPort}
        hint="Kept across restarts; tools keep their setting when the upstream changes."
      />
      {proxy.upstream.kind === 'port' ? (
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={closeOnRotation}
            onChange={(event) => setCloseOnRotation(event.target.checked)}
          />{' '}
          Close open connections when the port rotates (the next request leaves from the new IP)
        </label>
      ) : null}
      <label className="checkbox-field">
        <input type="checkbox" checked={network} onChange={(event) => setNetwork(event.target.checked)} /> Let
        other computers use it (needs a local user name and password)
      </label>
      {network ? (
        <fieldset className="fieldset">
          <legend>Other computers</legend>
          <p className="message message--warn">
            Anyone on your network who has this user name and password can send traffic through your proxy, on
            your account&apos;s traffic.
          </p>
          <TextField
            label="Listen on address"
            value={bindAddress}
            onChange={setBindAddress}
            error={errors.bindAddress ?? errors.allowNetwork}
            hint="0.0.0.0 for every network interface, or one of this computer's addresses."
          />
          <TextField
            label="Local user name"
            value={username}
            onChange={setUsername}
            autoComplete="off"
            error={errors['auth.username'] ?? errors.auth}
          />
          <PasswordField
            label="Local password"
            value={password}
            onChange={setPassword}
            error={errors['auth.password']}
            hint={proxy.auth ? 'Empty: keep the current one.' : '8 to 128 characters; kept in the keychain.'}
          />
        </fieldset>
      ) : null}
      <UnplacedErrors messages={unplaced} />
      {failure ? <ErrorMessage error={failure} title="Could not save" /> : null}
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save'}
      </button>{' '}
      <button type="button" className="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}

/**
 * What the screen shows of the ports and subscriptions, handed in by the app layer
 * (`app/screen-components.tsx`, from `features/local-proxy-upstreams/`): those read the ports' and
 * subscriptions' stores, and their pages import this feature ("Local proxy…", `LocalProxyAction`),
 * so this feature does not import them back.
 */
export interface LocalProxiesScreenProps {
  /** The port or subscription a local proxy forwards to, as a link to its page. */
  upstreamLink: ComponentType<{ upstream: LocalProxyUpstream }>;
  /** "Add a local proxy": a port or a subscription to forward to, and the local port. */
  addForm: ComponentType<{ suggestedPort: number | null; onDone: () => void }>;
}

/** What the rows' actions share with the screen: where they run, the open detail, a failure to show. */
interface RowActionsState {
  runsHere: boolean;
  openId: string | null;
  toggleOpen: (id: string) => void;
  report: (proxy: LocalProxyView, error: IpcError | null) => void;
}
const RowActionsContext = createContext<RowActionsState>({
  runsHere: false,
  openId: null,
  toggleOpen: () => undefined,
  report: () => undefined,
});

/** A row's Start or Stop (where the proxies run here) and Details (the card above the table). */
function RowActions({ proxy }: { proxy: LocalProxyView }) {
  const { start, stop } = useLocalProxiesStore();
  const { runsHere, openId, toggleOpen, report } = useContext(RowActionsContext);
  const act = async (run: () => Promise<{ ok: boolean; error?: IpcError }>) => {
    const result = await run();
    report(proxy, result.ok ? null : (result.error ?? null));
  };
  return (
    <span className="row-actions">
      {runsHere ? (
        proxy.state === 'running' ? (
          <button
            type="button"
            className="button button--small"
            aria-label={`Stop ${proxy.label}`}
            onClick={() => void act(() => stop(proxy.id))}
          >
            Stop
          </button>
        ) : (
          <button
            type="button"
            className="button button--small button--primary"
            aria-label={`Start ${proxy.label}`}
            onClick={() => void act(() => start(proxy.id))}
          >
            Start
          </button>
        )
      ) : null}{' '}
      <button
        type="button"
        className="button button--small button--quiet"
        aria-expanded={openId === proxy.id}
        aria-label={`Details of ${proxy.label}`}
        onClick={() => toggleOpen(proxy.id)}
      >
        Details
      </button>
    </span>
  );
}

/** One local proxy in full, opened from its row: connection details, traffic, last error, change and remove. */
function ProxyDetail({
  proxy,
  runsHere,
  upstreamLink: UpstreamLink,
  onClose,
}: {
  proxy: LocalProxyView;
  runsHere: boolean;
  upstreamLink: LocalProxiesScreenProps['upstreamLink'];
  onClose: () => void;
}) {
  const { remove } = useLocalProxiesStore();
  const [editing, setEditing] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);
  const act = async (run: () => Promise<{ ok: boolean; error?: IpcError }>) => {
    const result = await run();
    setError(result.ok ? null : (result.error ?? null));
  };
  const { stats, lastError } = proxy;
  const country = proxy.upstream.kind === 'subscription' ? proxy.upstream.targeting?.country : undefined;
  const places = usePlaceNames(country ? [country] : NO_COUNTRIES);
  return (
    <section className="card local-proxy" aria-labelledby={`local-proxy-${proxy.id}`}>
      <h2 id={`local-proxy-${proxy.id}`}>
        {proxy.label} <LocalProxyState proxy={proxy} /> <LocalProxyHealthBadge proxy={proxy} />
      </h2>
      <p>
        <code>{proxy.url}</code>{' '}
        <span className="muted small">
          HTTP and SOCKS5 on the same port
          {proxy.auth ? `; tools log in as ${proxy.auth.username}` : '; no password'}
        </span>
      </p>
      <p className="muted small">
        Forwards to <UpstreamLink upstream={proxy.upstream} />
        {upstreamDetails(proxy.upstream, places)}
        {proxy.upstreamEndpoint ? ` at ${proxy.upstreamEndpoint.host}:${proxy.upstreamEndpoint.port}` : ''}
        {proxy.closeOnRotation ? ' · closes connections at a rotation' : ''}
      </p>
      {proxy.listenError ? (
        <p className="message message--error" role="alert">
          {proxy.listenError}
        </p>
      ) : null}
      <dl className="local-proxy__stats" aria-label={`Traffic of ${proxy.label}`}>
        <div>
          <dt>Open connections</dt>
          <dd>{stats.openConnections}</dd>
        </div>
        <div>
          <dt>Requests</dt>
          <dd>{stats.requests}</dd>
        </div>
        <div>
          <dt>Sent</dt>
          <dd>{formatBytes(stats.bytesUp)}</dd>
        </div>
        <div>
          <dt>Received</dt>
          <dd>{formatBytes(stats.bytesDown)}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd>{stats.failures}</dd>
        </div>
        {stats.rejectedConnections > 0 ? (
          <div>
            <dt>Refused (too many connections)</dt>
            <dd>{stats.rejectedConnections}</dd>
          </div>
        ) : null}
      </dl>
      {lastError ? (
        <div className="message message--warn">
          <p>
            <strong>Last upstream error</strong> (<Time iso={lastError.at} relative />
            {lastError.status !== null ? `, ${lastError.status}` : ''}): {lastError.message}
          </p>
          {lastError.detail ? <p className="muted small">The upstream said: {lastError.detail}</p> : null}
        </div>
      ) : null}
      {error ? <ErrorMessage error={error} title="Could not do that" /> : null}
      <div className="row-actions">
        {runsHere ? (
          <>
            <button type="button" className="button button--quiet" onClick={() => setEditing((v) => !v)}>
              Change…
            </button>
            {confirmRemove ? (
              <span className="confirm" role="group" aria-label={`Confirm removing ${proxy.label}`}>
                Tools using {proxy.url} will stop working.{' '}
                <button
                  type="button"
                  className="button button--danger"
                  onClick={() => void act(() => remove(proxy.id))}
                >
                  Remove
                </button>{' '}
                <button type="button" className="button" onClick={() => setConfirmRemove(false)}>
                  Cancel
                </button>
              </span>
            ) : (
              <button
                type="button"
                className="button button--quiet button--danger"
                onClick={() => setConfirmRemove(true)}
              >
                Remove…
              </button>
            )}
          </>
        ) : null}
        <button
          type="button"
          className="button button--quiet"
          aria-label={`Close ${proxy.label}`}
          onClick={onClose}
        >
          Close
        </button>
      </div>
      {editing ? <EditForm proxy={proxy} onDone={() => setEditing(false)} /> : null}
    </section>
  );
}

const proxyKey = (proxy: LocalProxyView) => proxy.id;
const proxyName = (proxy: LocalProxyView) => proxy.label;

/** The list as a table (search, filters, sort, columns, views, CSV), with one proxy opened above it. */
function LocalProxiesTable({
  view,
  upstreamLink,
}: {
  view: LocalProxiesView;
  upstreamLink: LocalProxiesScreenProps['upstreamLink'];
}) {
  const saveTextFile = useAppStore((store) => store.saveTextFile);
  const [openId, setOpenId] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ label: string; error: IpcError } | null>(null);
  const columns = useMemo(() => localProxyColumns({ upstreamLink, actions: RowActions }), [upstreamLink]);
  const actions = useMemo<RowActionsState>(
    () => ({
      runsHere: view.runsHere,
      openId,
      toggleOpen: (id) => setOpenId((current) => (current === id ? null : id)),
      report: (proxy, error) => setFailure(error ? { label: proxy.label, error } : null),
    }),
    [view.runsHere, openId],
  );
  const open = view.proxies.find((proxy) => proxy.id === openId);
  return (
    <RowActionsContext.Provider value={actions}>
      {failure ? <ErrorMessage error={failure.error} title={`Could not do that: ${failure.label}`} /> : null}
      {open ? (
        <ProxyDetail
          key={open.id}
          proxy={open}
          runsHere={view.runsHere}
          upstreamLink={upstreamLink}
          onClose={() => setOpenId(null)}
        />
      ) : null}
      <DataTable
        label="Local proxies"
        listId="local-proxies"
        rows={view.proxies}
        rowKey={proxyKey}
        rowName={proxyName}
        columns={columns}
        filters={LOCAL_PROXY_FILTERS}
        searchText={localProxySearchText}
        searchLabel="Search local proxies"
        onOpen={(proxy) => setOpenId(proxy.id)}
        exportCsv={{ fileName: 'local-proxies', save: saveTextFile }}
        rowHeight={52}
      />
    </RowActionsContext.Provider>
  );
}

/**
 * Every local proxy (of every profile) in one table: its address to copy, start and stop, live traffic
 * and the last error of its upstream; Details opens one in full. Made from a port, a subscription or a
 * sub-user ("Local proxy…" there) or with "Add a local proxy…".
 */
export function LocalProxiesScreen({ upstreamLink, addForm: AddLocalProxyForm }: LocalProxiesScreenProps) {
  const { loadable, retry } = useLoadable(useLocalProxiesStore, localProxiesList);
  const [adding, setAdding] = useState(false);
  return (
    <Screen
      fill
      title="Local proxies"
      description="Addresses on this computer (http://127.0.0.1:PORT, SOCKS5 on the same port) that forward to a port or subscription and add its credentials: tools need no password, and keep working through rotations, password resets and relocations."
      actions={
        <>
          <button
            type="button"
            className="button button--primary"
            aria-expanded={adding}
            onClick={() => setAdding(!adding)}
          >
            Add a local proxy…
          </button>
          <RefreshButton onRefresh={retry} busy={loadable?.status === 'loading'} what="local proxies" />
        </>
      }
    >
      {adding ? (
        <AddLocalProxyForm
          suggestedPort={loadable?.data?.suggestedPort ?? null}
          onDone={() => setAdding(false)}
        />
      ) : null}
      <AsyncContent
        loadable={loadable}
        what="local proxies"
        onRetry={retry}
        isEmpty={(view) => view.proxies.length === 0}
        empty={
          <p>
            No local proxies yet. Choose <strong>Add a local proxy…</strong>, or open a port, a subscription
            or a sub-user and choose <strong>Local proxy…</strong>.
          </p>
        }
      >
        {(view) => (
          <div className="fill-column">
            {view.runsHere ? null : <p className="message message--info">{view.message}</p>}
            <LocalProxiesTable view={view} upstreamLink={upstreamLink} />
          </div>
        )}
      </AsyncContent>
    </Screen>
  );
}
