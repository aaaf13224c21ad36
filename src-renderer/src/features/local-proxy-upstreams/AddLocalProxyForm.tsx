import { useState, type FormEvent } from 'react';
import type { IpcError, LocalProxyUpstream } from '../../../../src-shared/contract';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { RadioGroup } from '../../shared/components/RadioGroup';
import { TextField } from '../../shared/components/TextField';
import { fieldErrorsOf } from '../../shared/field-errors';
import { useLoadable } from '../../shared/loadable-slice';
import { useLocalProxiesStore } from '../local-proxies/local-proxies-store';
import { usePorts } from '../ports/ports-hooks';
import { subscriptionLists, useSubscriptionsStore } from '../subscriptions/subscriptions-store';

type Kind = 'port' | 'subscription';

const PORT_MIN = 1024;
const PORT_MAX = 65_535;

/**
 * "Add a local proxy" on the Local proxies screen: what it forwards to (a port, or a subscription's
 * main user; a sub-user or a targeting is chosen from the subscription's page), and the local port
 * (empty: the next free one). The same call as "Local proxy…" on a port or a subscription.
 */
export function AddLocalProxyForm({
  suggestedPort,
  onDone,
}: {
  suggestedPort: number | null;
  onDone: () => void;
}) {
  const add = useLocalProxiesStore((store) => store.add);
  const ports = usePorts().loadable?.data ?? null;
  const subscriptions = useLoadable(useSubscriptionsStore, subscriptionLists, 'all').loadable?.data ?? null;
  const [kind, setKind] = useState<Kind>('port');
  const [target, setTarget] = useState('');
  const [port, setPort] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [failure, setFailure] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);

  const choices =
    kind === 'port'
      ? (ports ?? []).map((row) => ({ id: row.id, name: row.label.trim() || row.id }))
      : (subscriptions ?? []).map((sub) => ({ id: sub.id, name: sub.label.trim() || sub.id }));
  const loaded = kind === 'port' ? ports !== null : subscriptions !== null;
  const chosen = choices.some((choice) => choice.id === target) ? target : (choices[0]?.id ?? '');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = port.trim();
    const number = Number(trimmed);
    const found: Record<string, string> = {};
    if (!chosen) found.target = kind === 'port' ? 'Choose a port' : 'Choose a subscription';
    if (trimmed !== '' && (!/^\d+$/.test(trimmed) || number < PORT_MIN || number > PORT_MAX))
      found.listenPort = `A port from ${PORT_MIN} to ${PORT_MAX}`;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const upstream: LocalProxyUpstream =
      kind === 'port' ? { kind: 'port', portId: chosen } : { kind: 'subscription', subscriptionId: chosen };
    setBusy(true);
    const result = await add({ upstream, ...(trimmed === '' ? {} : { listenPort: number }) });
    setBusy(false);
    if (result.ok) {
      onDone();
      return;
    }
    const fields = fieldErrorsOf(result.error, {});
    setErrors({ listenPort: fields.listenPort });
    setFailure(fields.listenPort ? null : result.error);
  };

  return (
    <form
      className="card form"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label="Add a local proxy"
    >
      <RadioGroup
        legend="Forwards to"
        value={kind}
        onChange={(value) => {
          setKind(value);
          setErrors({});
        }}
        options={[
          { value: 'port', label: 'A mobile port' },
          {
            value: 'subscription',
            label: 'A subscription’s main user',
            description:
              'For a sub-user or a targeting (country, city, session), use the subscription’s page.',
          },
        ]}
      />
      <div className={`field field--narrow${errors.target ? ' field--invalid' : ''}`}>
        <label htmlFor="add-local-proxy-target">{kind === 'port' ? 'Port' : 'Subscription'}</label>
        <select
          id="add-local-proxy-target"
          value={chosen}
          disabled={!loaded || choices.length === 0}
          onChange={(event) => setTarget(event.target.value)}
        >
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.name}
            </option>
          ))}
        </select>
        {!loaded ? <p className="field__hint">Reading the list…</p> : null}
        {loaded && choices.length === 0 ? (
          <p className="field__hint">
            {kind === 'port' ? 'This account has no ports.' : 'This account has no subscriptions.'}
          </p>
        ) : null}
        {errors.target ? <p className="field__error">{errors.target}</p> : null}
      </div>
      <TextField
        label="Local port"
        inputMode="numeric"
        value={port}
        onChange={setPort}
        placeholder={suggestedPort === null ? '24000' : String(suggestedPort)}
        error={errors.listenPort}
        hint="Empty: the next free port from 24000."
        className="field--narrow"
      />
      {failure ? <ErrorMessage error={failure} title="Could not create the local proxy" /> : null}
      <div>
        <button type="submit" className="button button--primary" disabled={busy || !chosen}>
          {busy ? 'Creating…' : 'Create local proxy'}
        </button>{' '}
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
