import { useState, type FormEvent } from 'react';
import type { IpcError, MobilePortView } from '../../../../src-shared/contract';
import { CopyButton } from '../../shared/components/CopyButton';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { RadioGroup } from '../../shared/components/RadioGroup';
import { StatusBadge } from '../../shared/components/StatusBadge';
import { Tabs } from '../../shared/components/Tabs';
import { TextField } from '../../shared/components/TextField';
import { Time } from '../../shared/components/Time';
import { UnplacedErrors } from '../../shared/components/UnplacedErrors';
import { fieldErrorsOf, unplacedFieldErrors, type FieldErrors } from '../../shared/field-errors';
import { LocalProxyAction } from '../local-proxies/LocalProxyAction';
import { MASK, maskSecret } from '../../shared/mask-secret';
import { IpHistoryPanel } from './IpHistoryPanel';
import { PortHealthPanel } from './PortHealthPanel';
import { usePlaceNames } from '../catalog/place-names';
import { LABEL_MAX, ROTATION_INTERVAL_MINUTES } from './port-limits';
import { portHref } from './port-route';
import { usePortsStore } from './ports-store';
import { RelocatePanel } from './RelocatePanel';
import { ReceiptsTable } from './ReceiptsTable';
import { RotatePanel } from './RotatePanel';
import { SchedulePanel } from './SchedulePanel';
import { TrayPinPanel } from './TrayPinPanel';
import { UsagePanel } from './UsagePanel';

interface CredentialFormat {
  id: string;
  name: string;
  text: string;
}

/** The formats tools ask for. The HTTP port serves the first three, the SOCKS5 port the last. */
export function credentialFormats(port: Pick<MobilePortView, 'endpoint' | 'username' | 'password'>) {
  const { host, httpPort, socksPort } = port.endpoint;
  const user = port.username;
  const pass = port.password;
  // In URLs the user and password are percent-encoded (a `@` or `:` in a password would split it).
  const userInfo = `${encodeURIComponent(user)}:${encodeURIComponent(pass)}`;
  return [
    { id: 'colon', name: 'host:port:user:pass', text: `${host}:${httpPort}:${user}:${pass}` },
    { id: 'at', name: 'user:pass@host:port', text: `${user}:${pass}@${host}:${httpPort}` },
    { id: 'http', name: 'http://user:pass@host:port', text: `http://${userInfo}@${host}:${httpPort}` },
    { id: 'socks5', name: 'socks5://user:pass@host:port', text: `socks5://${userInfo}@${host}:${socksPort}` },
  ] satisfies CredentialFormat[];
}

function CredentialsPanel({ port }: { port: MobilePortView }) {
  const [revealed, setRevealed] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const [resetError, setResetError] = useState<IpcError | null>(null);
  const [linkError, setLinkError] = useState<IpcError | null>(null);
  const resetPassword = usePortsStore((store) => store.resetPassword);
  const revealRotationLink = usePortsStore((store) => store.revealRotationLink);
  const reset = async () => {
    const result = await resetPassword(port.id);
    setConfirmReset(false);
    setResetError(result.ok ? null : result.error);
  };
  // The link is fetched for this one copy and dropped: it holds the API key.
  const rotationLink = async () => {
    const result = await revealRotationLink(port.id);
    setLinkError(result.ok ? null : result.error);
    return result.ok ? result.value.rotationLink : null;
  };
  return (
    <section className="panel" aria-labelledby="credentials-heading">
      <h2 id="credentials-heading">Endpoint and credentials</h2>
      <dl className="port-facts">
        <dt>Host</dt>
        <dd>
          <code>{port.endpoint.host}</code>
        </dd>
        <dt>HTTP port</dt>
        <dd>
          <code>{port.endpoint.httpPort}</code>
        </dd>
        <dt>SOCKS5 port</dt>
        <dd>
          <code>{port.endpoint.socksPort}</code>
        </dd>
        <dt>Username</dt>
        <dd>
          <code>{port.username}</code> <CopyButton text={port.username} what="username" />
        </dd>
        <dt>Password</dt>
        <dd>
          <code aria-label={revealed ? 'Password' : 'Password (hidden)'}>
            {revealed ? port.password : MASK}
          </code>{' '}
          <button
            type="button"
            className="button button--small button--quiet"
            aria-pressed={revealed}
            onClick={() => setRevealed((value) => !value)}
          >
            {revealed ? 'Hide password' : 'Show password'}
          </button>{' '}
          <CopyButton text={port.password} what="password" />{' '}
          {confirmReset ? (
            <span className="confirm" role="group" aria-label="Confirm password reset">
              Tools using the old password will stop working.{' '}
              <button
                type="button"
                className="button button--small button--danger"
                onClick={() => void reset()}
              >
                Reset password
              </button>{' '}
              <button type="button" className="button button--small" onClick={() => setConfirmReset(false)}>
                Cancel
              </button>
            </span>
          ) : (
            <button type="button" className="button button--small" onClick={() => setConfirmReset(true)}>
              Reset password…
            </button>
          )}
        </dd>
      </dl>
      {resetError ? <ErrorMessage error={resetError} title="Could not reset the password" /> : null}
      <table className="table credential-formats" aria-label="Credential formats">
        <tbody>
          {credentialFormats(port).map((format) => (
            <tr key={format.id}>
              <th scope="row">{format.name}</th>
              <td>
                <code>{revealed ? format.text : maskSecret(format.text, port.password)}</code>
              </td>
              <td>
                <CopyButton text={format.text} what={format.name} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {port.hasRotationLink ? (
        <div className="rotation-link">
          <h3>Rotation link</h3>
          <p>
            <code>https://…/rotate?key=••••••••</code>{' '}
            <CopyButton text={rotationLink} what="rotation link" label="Copy rotation link" />
          </p>
          <p className="message message--warn">
            Anyone holding this link can rotate this port: it contains your API key, which has the{' '}
            <code>proxies</code> scope. Share it only with tools you trust; it is fetched for each copy and
            not kept by the app.
          </p>
          {linkError ? <ErrorMessage error={linkError} title="Could not get the rotation link" /> : null}
        </div>
      ) : null}
    </section>
  );
}

type Mode = 'manual' | 'interval';

/** Checks the form as main would, so that the user sees the error before anything is sent. */
function validateSettings(label: string, mode: Mode, minutes: string): FieldErrors {
  const errors: FieldErrors = {};
  const trimmed = label.trim();
  if (!trimmed) errors.label = 'Give the port a label';
  else if (trimmed.length > LABEL_MAX) errors.label = `At most ${LABEL_MAX} characters`;
  if (mode === 'interval') {
    const value = Number(minutes);
    if (!/^\d+$/.test(minutes.trim())) errors.intervalMinutes = 'Whole minutes';
    else if (value < ROTATION_INTERVAL_MINUTES.min)
      errors.intervalMinutes = `At least ${ROTATION_INTERVAL_MINUTES.min} minute`;
    else if (value > ROTATION_INTERVAL_MINUTES.max)
      errors.intervalMinutes = `At most ${ROTATION_INTERVAL_MINUTES.max} minutes (24 hours)`;
  }
  return errors;
}

const FIELD_ALIASES = { 'rotation.intervalMinutes': 'intervalMinutes', 'rotation.mode': 'mode' };

function SettingsPanel({ port, onShowRotation }: { port: MobilePortView; onShowRotation: () => void }) {
  const update = usePortsStore((store) => store.update);
  const [label, setLabel] = useState(port.label);
  const [autoRenew, setAutoRenew] = useState(port.autoRenew);
  const [mode, setMode] = useState<Mode>(port.rotation.mode === 'interval' ? 'interval' : 'manual');
  const [minutes, setMinutes] = useState(String(port.rotation.intervalMinutes ?? 30));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<IpcError | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const local = validateSettings(label, mode, minutes);
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    const result = await update(port.id, {
      label: label.trim(),
      autoRenew,
      rotation: mode === 'manual' ? { mode } : { mode, intervalMinutes: Number(minutes) },
    });
    setBusy(false);
    if (result.ok) {
      setFailure(null);
      setSaved(true);
      return;
    }
    const fields = fieldErrorsOf(result.error, FIELD_ALIASES);
    setErrors(fields);
    setFailure(Object.keys(fields).length ? null : result.error);
  };
  const unplaced = unplacedFieldErrors(errors, ['label', 'intervalMinutes', 'mode']);
  return (
    <section className="panel" aria-labelledby="settings-heading">
      <h2 id="settings-heading">Label, renewal and server-side rotation</h2>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label="Label"
          value={label}
          onChange={setLabel}
          error={errors.label}
          hint={`Up to ${LABEL_MAX} characters.`}
        />
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={autoRenew}
            onChange={(event) => setAutoRenew(event.target.checked)}
          />{' '}
          Renew automatically before it expires
        </label>
        <RadioGroup
          legend="Server-side rotation"
          value={mode}
          onChange={setMode}
          error={errors.mode}
          options={[
            { value: 'manual', label: 'Manual', description: 'Only when you (or the app) ask.' },
            { value: 'interval', label: 'Every N minutes', description: 'The service rotates on its own.' },
          ]}
        />
        {mode === 'interval' ? (
          <TextField
            label="Minutes between rotations"
            inputMode="numeric"
            value={minutes}
            onChange={setMinutes}
            error={errors.intervalMinutes}
            hint={`${ROTATION_INTERVAL_MINUTES.min}-${ROTATION_INTERVAL_MINUTES.max} minutes.`}
          />
        ) : null}
        <p className="muted small">
          Server-side rotation keeps running when this app is closed, in whole minutes. The app&apos;s own
          schedule (&ldquo;App schedule&rdquo;, in the{' '}
          <button type="button" className="link-button" onClick={onShowRotation}>
            Rotation tab
          </button>
          ) can rotate every few seconds or minutes or on a cron expression, add jitter and stagger a group of
          ports, but only while the app runs.
        </p>
        <UnplacedErrors messages={unplaced} />
        {failure ? <ErrorMessage error={failure} title="Could not save" /> : null}
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        {saved ? (
          <span role="status" className="muted">
            {' '}
            Saved.
          </span>
        ) : null}
      </form>
    </section>
  );
}

export type PortDetailTab =
  'rotation' | 'health' | 'credentials' | 'settings' | 'location' | 'history' | 'usage';
const PORT_DETAIL_TABS: readonly { key: PortDetailTab; label: string }[] = [
  { key: 'rotation', label: 'Rotation' },
  { key: 'health', label: 'Health' },
  { key: 'credentials', label: 'Credentials' },
  { key: 'settings', label: 'Settings' },
  { key: 'location', label: 'Location' },
  { key: 'history', label: 'IP history' },
  { key: 'usage', label: 'Usage' },
];

/** A port's detail in tabs, as a subscription's: the facts stay above, one tab's panels below. */
export function PortDetail({
  port,
  initialTab = 'rotation',
}: {
  port: MobilePortView;
  initialTab?: PortDetailTab;
}) {
  const places = usePlaceNames([port.country]);
  const [tab, setTab] = useState<PortDetailTab>(initialTab);
  const name = port.label || port.id;
  return (
    <section className="screen port-detail" aria-labelledby="port-detail-heading">
      <p className="back-link">
        <a href={portHref(null)}>← All ports</a>
      </p>
      <h1 id="port-detail-heading" tabIndex={-1}>
        {name} <StatusBadge status={port.status} />
      </h1>
      <p className="muted">
        {places.location(port.country, port.city)} · {port.carrierName} {port.networkType} · IP{' '}
        <code>{port.currentIp}</code> changed <Time iso={port.ipChangedAt} relative /> · expires{' '}
        <Time iso={port.expiresAt} />
        {port.autoRenew ? ' (renews automatically)' : ' (auto-renew off)'}
      </p>
      <Tabs label="Port" tabs={PORT_DETAIL_TABS} selected={tab} onSelect={setTab}>
        {tab === 'rotation' ? (
          <>
            <RotatePanel portId={port.id} label={name} />
            <ReceiptsTable portId={port.id} />
            <SchedulePanel
              key={`schedule-${port.id}`}
              portId={port.id}
              onShowServerRotation={() => setTab('settings')}
            />
            <TrayPinPanel portId={port.id} />
          </>
        ) : null}
        {tab === 'health' ? <PortHealthPanel portId={port.id} /> : null}
        {tab === 'credentials' ? (
          <>
            <CredentialsPanel port={port} />
            <section className="panel" aria-labelledby="local-proxy-heading">
              <h2 id="local-proxy-heading">Local proxy</h2>
              <p className="muted small">
                An address on this computer (HTTP and SOCKS5) that adds this port&apos;s credentials itself
                and follows its rotations, password resets and relocations.
              </p>
              <LocalProxyAction upstream={{ kind: 'port', portId: port.id }} name={name} />
            </section>
          </>
        ) : null}
        {tab === 'settings' ? (
          <SettingsPanel key={port.id} port={port} onShowRotation={() => setTab('rotation')} />
        ) : null}
        {tab === 'location' ? <RelocatePanel port={port} /> : null}
        {tab === 'history' ? <IpHistoryPanel portId={port.id} /> : null}
        {tab === 'usage' ? <UsagePanel portId={port.id} /> : null}
      </Tabs>
    </section>
  );
}
