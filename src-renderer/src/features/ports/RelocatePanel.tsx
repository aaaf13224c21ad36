import { useId, useState, type FormEvent } from 'react';
import type { IpcError, MobilePortView } from '../../../../src-shared/contract';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { Time } from '../../shared/components/Time';
import { fieldErrorsOf, type FieldErrors } from '../../shared/field-errors';
import { useCarriers, useCountries } from '../catalog/catalog-hooks';
import { carrierCityIdsOf } from './carrier-cities';
import { usePlaceNames } from './place-names';
import { usePortsStore } from './ports-store';

function Select(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  error?: string | undefined;
  placeholder: string;
}) {
  const id = useId();
  return (
    <div className={`field${props.error ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        className="input"
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      >
        <option value="">{props.placeholder}</option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {props.error ? (
        <p id={`${id}-error`} className="field__error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

const UNAVAILABLE =
  'No modem is free for that carrier and city right now. Choose another carrier or city, or try again later; the port stays where it is.';

export function RelocatePanel({ port }: { port: MobilePortView }) {
  const relocate = usePortsStore((store) => store.relocate);
  const progress = usePortsStore((store) => store.relocations[port.id]);
  const [country, setCountry] = useState(port.country);
  const [carrier, setCarrier] = useState('');
  const [city, setCity] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);
  const countries = useCountries('mobile');
  const carriers = useCarriers(country);
  const places = usePlaceNames([country]);
  const available = (carriers.loadable?.data ?? []).filter((option) => option.available);
  const chosen = available.find((option) => option.id === carrier);
  const cityIds = chosen ? carrierCityIdsOf(chosen) : [];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local: FieldErrors = {};
    if (!country) local.country = 'Choose a country';
    if (!carrier) local.carrier = 'Choose a carrier';
    if (!confirmed) local.confirm = 'Confirm that the endpoint and credentials may change';
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    const result = await relocate(port.id, { country, carrier, city: city || null });
    setBusy(false);
    if (result.ok) {
      setFailure(null);
      setConfirmed(false);
      return;
    }
    const fields = fieldErrorsOf(result.error);
    setErrors(fields);
    setFailure(Object.keys(fields).length ? null : result.error);
  };

  return (
    <section className="panel" aria-labelledby="relocate-heading">
      <h2 id="relocate-heading">Relocate</h2>
      {progress ? (
        <div
          role="status"
          className={`message ${progress.state === 'failed' ? 'message--error' : progress.state === 'active' ? 'message--ok' : 'message--warn'}`}
        >
          {progress.state === 'provisioning' ? (
            <p>
              Provisioning on the new modem (checked {progress.checks} times; next check{' '}
              <Time iso={progress.nextCheckAt} relative />
              ).
            </p>
          ) : progress.state === 'active' ? (
            <p>Relocation done: the port is active on its new modem.</p>
          ) : (
            <p>Relocation tracking stopped.</p>
          )}
          {progress.message ? <p>{progress.message}</p> : null}
        </div>
      ) : null}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Select
          label="Country"
          value={country}
          placeholder={countries.loadable?.status === 'loading' ? 'Loading…' : 'Choose a country'}
          onChange={(value) => {
            setCountry(value);
            setCarrier('');
            setCity('');
          }}
          options={(countries.loadable?.data ?? []).map((option) => ({
            value: option.code,
            label: option.name,
          }))}
          error={errors.country}
        />
        <Select
          label="Carrier"
          value={carrier}
          placeholder={carriers.loadable?.status === 'loading' ? 'Loading…' : 'Choose a carrier'}
          onChange={(value) => {
            setCarrier(value);
            setCity('');
          }}
          options={available.map((option) => ({
            value: option.id,
            label: `${option.name} (${option.networkTypes.join(', ')})`,
          }))}
          error={errors.carrier}
        />
        {country && carriers.loadable?.status === 'ready' && available.length === 0 ? (
          <p className="muted">No carrier has a free modem in this country right now.</p>
        ) : null}
        <Select
          label="City (optional)"
          value={city}
          placeholder="Any city"
          onChange={setCity}
          options={cityIds.map((id) => ({ value: id, label: places.city(country, id) ?? id }))}
          error={errors.city}
        />
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={confirmed}
            onChange={(event) => setConfirmed(event.target.checked)}
          />{' '}
          I understand the host, ports and credentials may change, and tools must be updated.
        </label>
        {errors.confirm ? (
          <p className="field__error" role="alert">
            {errors.confirm}
          </p>
        ) : null}
        {failure?.code === 'location_unavailable' ? (
          <div className="message message--error" role="alert">
            <p>{UNAVAILABLE}</p>
            <p className="muted">{failure.message}</p>
          </div>
        ) : failure ? (
          <ErrorMessage error={failure} title="Could not relocate" />
        ) : null}
        <button type="submit" className="button" disabled={busy || progress?.state === 'provisioning'}>
          {busy ? 'Relocating…' : 'Relocate'}
        </button>
      </form>
    </section>
  );
}
