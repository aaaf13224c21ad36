import { useId } from 'react';
import type { FieldErrors } from '../../shared/field-errors';
import { useCarriers, useCountries } from '../catalog/catalog-hooks';
import { carrierCityIdsOf } from './carrier-cities';
import { usePlaceNames } from '../catalog/place-names';

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

/** Where a relocation goes: a country, a carrier with a free modem there, and optionally one of its cities. */
export interface RelocateTarget {
  country: string;
  carrier: string;
  /** Empty: any city. */
  city: string;
}

/** What `location_unavailable` (409) means to the user. */
export const RELOCATE_UNAVAILABLE =
  'No modem is free for that carrier and city right now. Choose another carrier or city, or try again later; the port stays where it is.';

/** The target's names from the catalog (country, carrier, city), for a sentence: "T-Mobile US in Los Angeles, United States". */
export function useRelocateTargetName(target: RelocateTarget): string {
  const countries = useCountries('mobile');
  const carriers = useCarriers(target.country);
  const places = usePlaceNames([target.country]);
  const country =
    countries.loadable?.data?.find((option) => option.code === target.country)?.name ?? target.country;
  const carrier =
    carriers.loadable?.data?.find((option) => option.id === target.carrier)?.name ?? target.carrier;
  const city = target.city ? (places.city(target.country, target.city) ?? target.city) : null;
  return `${carrier} in ${city ? `${city}, ` : ''}${country}${city ? '' : ' (any city)'}`;
}

/**
 * Country, carrier and city of a relocation, from the catalog (names, not ids): only carriers with a
 * free modem, and only that carrier's cities. A port's Location tab and the Ports list's bulk
 * relocation use it.
 */
export function RelocateTargetFields({
  target,
  onChange,
  errors,
}: {
  target: RelocateTarget;
  onChange: (target: RelocateTarget) => void;
  errors: FieldErrors;
}) {
  const { country, carrier, city } = target;
  const countries = useCountries('mobile');
  const carriers = useCarriers(country);
  const places = usePlaceNames([country]);
  const available = (carriers.loadable?.data ?? []).filter((option) => option.available);
  const chosen = available.find((option) => option.id === carrier);
  const cityIds = chosen ? carrierCityIdsOf(chosen) : [];
  return (
    <>
      <Select
        label="Country"
        value={country}
        placeholder={countries.loadable?.status === 'loading' ? 'Loading…' : 'Choose a country'}
        onChange={(value) => onChange({ country: value, carrier: '', city: '' })}
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
        onChange={(value) => onChange({ country, carrier: value, city: '' })}
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
        onChange={(value) => onChange({ country, carrier, city: value })}
        options={cityIds.map((id) => ({ value: id, label: places.city(country, id) ?? id }))}
        error={errors.city}
      />
    </>
  );
}
