import { useId, useMemo, useState } from 'react';
import type { Subscription } from '../../../../src-shared/api-types';
import type { CredentialFormat, IpcError, ProxyTestTargetInput } from '../../../../src-shared/contract';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { TextField } from '../../shared/components/TextField';
import { fieldErrorsOf } from '../../shared/field-errors';
import { useLoadable } from '../../shared/loadable-slice';
import { safeFileName } from '../../shared/file-name';
import { maskSecret } from '../../shared/mask-secret';
import { SaveOutcomeMessage } from '../../shared/components/SaveOutcomeMessage';
import type { SaveOutcome } from '../../shared/save-outcome';
import { useAppStore } from '../app/app-store';
import { useCities, useCountries, useStates } from '../catalog/catalog-hooks';
import { TestAllResults, type NamedTarget } from '../proxy-test/TestAllResults';
import { LocalProxyAction } from '../local-proxies/LocalProxyAction';
import { TestProxyButton } from '../proxy-test/TestProxyButton';
import { CopyButton } from '../../shared/components/CopyButton';
import { CredentialFormatSelect } from './CredentialFormatSelect';
import { subUserLists, useSubscriptionsStore } from './subscriptions-store';

const ZIP = /^\d{5}$/;

/** Client-side checks that need no catalog: the rest (ids, combinations) is main's. */
function localTargetingErrors(input: { country: string; zip: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  if (input.zip !== '') {
    if (!ZIP.test(input.zip)) errors.zip = 'A ZIP code is exactly 5 digits.';
    else if (input.country !== '' && input.country !== 'US')
      errors.zip = 'ZIP targeting is for the United States only.';
  }
  return errors;
}

type Option = { value: string; label: string };

function Select({
  label,
  value,
  onChange,
  options,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: Option[];
  error?: string | undefined;
}) {
  const id = useId();
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** State (only where the catalog lists states for the country) and city, from the catalog. */
function PlaceFields(props: {
  country: string;
  state: string;
  setState: (value: string) => void;
  city: string;
  setCity: (value: string) => void;
  errors: Record<string, string>;
}) {
  const states = useStates(props.country).loadable?.data ?? [];
  const cities = useCities(props.country, 'all').loadable?.data ?? [];
  const inState = cities.filter((c) => !props.state || c.state === props.state);
  return (
    <>
      {states.length > 0 ? (
        <Select
          label="State"
          value={props.state}
          onChange={(value) => {
            props.setState(value);
            props.setCity('');
          }}
          options={states.map((s) => ({ value: s.id, label: s.name }))}
          error={props.errors.state}
        />
      ) : null}
      <Select
        label="City"
        value={props.city}
        onChange={props.setCity}
        options={inState.map((c) => ({ value: c.id, label: c.name }))}
        error={props.errors.city}
      />
    </>
  );
}

/** `proxy:testMany` takes at most this many targets in one call. */
const SESSION_TESTS_MAX = 200;

/**
 * "Test all" over the numbered sessions the export writes (`<prefix>1` … `<prefix>N`), with the shown
 * string's targeting: each session should get its own exit IP, and this shows whether it does.
 */
function SessionTests(props: { built: ProxyTestTargetInput; sessionPrefix: string; count: string }) {
  const { built, sessionPrefix } = props;
  const count = Number(props.count);
  const targets = useMemo<NamedTarget[]>(() => {
    if (built.kind !== 'subscription' || !Number.isSafeInteger(count) || count < 1) return [];
    return Array.from({ length: Math.min(count, SESSION_TESTS_MAX) }, (_, index) => {
      const session = `${sessionPrefix}${index + 1}`;
      return {
        target: { ...built, targeting: { ...built.targeting, session } },
        label: `session ${session}`,
      };
    });
  }, [built, sessionPrefix, count]);
  if (targets.length === 0) return null;
  return <TestAllResults targets={targets} what="sessions" />;
}

export function ProxyStringBuilder({ subscription }: { subscription: Subscription }) {
  const buildProxyString = useSubscriptionsStore((store) => store.buildProxyString);
  const subUsers =
    useLoadable(useSubscriptionsStore, subUserLists, subscription.id).loadable?.data?.rows ?? [];
  const countries = useCountries('all').loadable?.data ?? [];
  const [who, setWho] = useState('');
  const [country, setCountry] = useState('');
  const [state, setState] = useState('');
  const [city, setCity] = useState('');
  const [asn, setAsn] = useState('');
  const [zip, setZip] = useState('');
  const [session, setSession] = useState('');
  const [format, setFormat] = useState<CredentialFormat>('http_url');
  const [protocol, setProtocol] = useState<'http' | 'socks5'>('http');
  const [count, setCount] = useState('10');
  const [line, setLine] = useState<string | null>(null);
  // The password inside the shown line (the user it was built for), masked until shown.
  const [linePassword, setLinePassword] = useState('');
  const [shown, setShown] = useState(false);
  // What the shown line was built from, so "Test" sends that string, not the form's later edits.
  const [built, setBuilt] = useState<ProxyTestTargetInput | null>(null);
  const [error, setError] = useState<IpcError | null>(null);

  const local = localTargetingErrors({ country, zip });
  const errors = {
    ...fieldErrorsOf(error, {
      'targeting.country': 'country',
      'targeting.state': 'state',
      'targeting.city': 'city',
      'targeting.asn': 'asn',
      'targeting.zip': 'zip',
      'targeting.session': 'session',
    }),
    ...local,
  };

  const request = (lines?: number) => ({
    subscriptionId: subscription.id,
    ...(who ? { subUserId: who } : {}),
    targeting: {
      ...(country ? { country } : {}),
      ...(state ? { state } : {}),
      ...(city ? { city } : {}),
      ...(asn.trim() ? { asn: Number(asn.trim()) } : {}),
      ...(zip ? { zip } : {}),
      ...(session && lines === undefined ? { session } : {}),
    },
    format,
    protocol,
    ...(lines === undefined ? {} : { count: lines, sessionPrefix: session || 's' }),
  });
  const build = async () => {
    if (Object.keys(local).length > 0) return;
    const input = request();
    const result = await buildProxyString(input);
    setError(result.ok ? null : result.error);
    setLine(result.ok ? (result.value.lines[0] ?? '') : null);
    setLinePassword(result.ok ? result.value.password : '');
    setBuilt(
      result.ok
        ? {
            kind: 'subscription',
            subscriptionId: input.subscriptionId,
            ...(input.subUserId ? { subUserId: input.subUserId } : {}),
            targeting: input.targeting,
            // The URL formats name their scheme; the bare formats go through the chosen port.
            protocol: format === 'socks5_url' ? 'socks5' : format === 'http_url' ? 'http' : protocol,
          }
        : null,
    );
  };
  const saveTextFile = useAppStore((store) => store.saveTextFile);
  const [exported, setExported] = useState<SaveOutcome | null>(null);
  const exportLines = async () => {
    if (Object.keys(local).length > 0) return;
    const result = await buildProxyString(request(Number(count)));
    setError(result.ok ? null : result.error);
    setExported(
      result.ok
        ? await saveTextFile({
            // The id is the service's: `safeFileName` keeps the name within the save rule.
            fileName: safeFileName(`proxies-${subscription.id}.txt`),
            content: `${result.value.lines.join('\n')}\n`,
          })
        : null,
    );
  };
  return (
    <form
      className="form card"
      aria-label="Proxy string builder"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void build();
      }}
    >
      <label className="field">
        <span>User</span>
        <select value={who} onChange={(event) => setWho(event.target.value)}>
          <option value="">Main user ({subscription.username})</option>
          {subUsers.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label} ({s.username})
            </option>
          ))}
        </select>
      </label>
      <Select
        label="Country"
        value={country}
        onChange={(value) => {
          setCountry(value);
          setState('');
          setCity('');
        }}
        options={countries.map((c) => ({ value: c.code, label: c.name }))}
        error={errors.country}
      />
      {country ? (
        <PlaceFields
          country={country}
          state={state}
          setState={setState}
          city={city}
          setCity={setCity}
          errors={errors}
        />
      ) : null}
      <TextField label="ASN" value={asn} onChange={setAsn} inputMode="numeric" error={errors.asn} />
      <TextField
        label="US ZIP code"
        value={zip}
        onChange={setZip}
        inputMode="numeric"
        maxLength={10}
        error={errors.zip}
        hint="Exactly 5 digits; goes with a state, replaces city and ASN."
      />
      <TextField
        label="Sticky session id"
        value={session}
        onChange={setSession}
        error={errors.session}
        hint="The same id keeps the same exit IP for a while. Letters, digits and underscores."
      />
      <CredentialFormatSelect label="Format" value={format} onChange={setFormat} />
      <label className="field">
        <span>Port</span>
        <select value={protocol} onChange={(event) => setProtocol(event.target.value as 'http' | 'socks5')}>
          <option value="http">HTTP ({subscription.endpoint.httpPort})</option>
          <option value="socks5">SOCKS5 ({subscription.endpoint.socksPort})</option>
        </select>
      </label>
      {error && !error.fields ? <ErrorMessage error={error} title="Could not build the string" /> : null}
      <div className="form__actions">
        <button type="submit" className="button">
          Build
        </button>
        <TextField
          label="Lines to export"
          value={count}
          onChange={setCount}
          inputMode="numeric"
          error={errors.count}
        />
        <button type="button" className="button button--quiet" onClick={() => void exportLines()}>
          Export lines with numbered sessions
        </button>
      </div>
      <SaveOutcomeMessage outcome={exported} failedTitle="Could not save the lines" />
      {line !== null ? (
        <p className="proxy-line">
          {/* The password stays masked until shown, as everywhere else; Copy copies the real string. */}
          <code aria-label="Proxy string">{shown ? line : maskSecret(line, linePassword)}</code>{' '}
          <button
            type="button"
            className="button button--quiet button--small"
            aria-pressed={shown}
            onClick={() => setShown(!shown)}
          >
            {shown ? 'Hide password' : 'Show password'}
          </button>{' '}
          <CopyButton text={line} what="proxy string" />
        </p>
      ) : null}
      {line !== null && built ? <TestProxyButton target={built} label="this string" /> : null}
      {line !== null && built?.kind === 'subscription' ? (
        <LocalProxyAction
          upstream={{
            kind: 'subscription',
            subscriptionId: built.subscriptionId,
            ...(built.subUserId ? { subUserId: built.subUserId } : {}),
            ...(built.targeting ? { targeting: built.targeting } : {}),
          }}
          name="this string"
        />
      ) : null}
      {line !== null && built ? (
        <SessionTests built={built} sessionPrefix={session || 's'} count={count} />
      ) : null}
      <p className="muted small">
        When no exit IP matches the targeting, the gateway answers your tool with its own error page (an HTTP
        error from the proxy), not with an API error: the string itself is valid, the place has no IPs right
        now. Widen the targeting (drop the city or ZIP) and try again.
      </p>
    </form>
  );
}
