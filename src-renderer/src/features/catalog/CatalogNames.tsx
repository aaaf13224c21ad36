import { useCities, useCoins, useCountries } from './catalog-hooks';

/**
 * Names from the catalog where the API gives ids (`US`, `los_angeles`, `tron`): the name shows, the id
 * goes in a tooltip and, with `showId`, a secondary line. While the catalog loads (or when it does not
 * know the id) the id itself shows, so nothing is hidden. Any screen may use these; each list is
 * loaded once and cached by the catalog store.
 */

function countryName(countries: readonly { code: string; name: string }[] | null, code: string) {
  return countries?.find((country) => country.code.toUpperCase() === code.toUpperCase())?.name ?? null;
}

function cityName(cities: readonly { id: string; name: string }[] | null, id: string) {
  return cities?.find((city) => city.id === id)?.name ?? null;
}

function networkName(
  coins: readonly { code: string; networks: readonly { id: string; name: string }[] }[] | null,
  coinCode: string,
  networkId: string,
) {
  const coin = coins?.find((candidate) => candidate.code.toUpperCase() === coinCode.toUpperCase());
  return coin?.networks.find((network) => network.id === networkId)?.name ?? null;
}

function Named({
  name,
  id,
  label,
  showId,
}: {
  name: string | null;
  id: string;
  label: string;
  showId: boolean;
}) {
  if (name === null) return <span className="named">{id}</span>;
  return (
    <span className="named" title={`${label}: ${id}`}>
      {name}
      {showId ? <span className="named__id">{id}</span> : null}
    </span>
  );
}

/** "United States" for `US`; with a city, "Los Angeles, United States" for `US` + `los_angeles`. */
export function LocationName({
  countryCode,
  cityId,
  showId = false,
}: {
  countryCode: string;
  cityId?: string | null;
  showId?: boolean;
}) {
  const countries = useCountries('all').loadable?.data ?? null;
  const country = countryName(countries, countryCode);
  if (cityId)
    return <CityLocation country={country} countryCode={countryCode} cityId={cityId} showId={showId} />;
  return <Named name={country} id={countryCode} label="Country code" showId={showId} />;
}

function CityLocation({
  country,
  countryCode,
  cityId,
  showId,
}: {
  country: string | null;
  countryCode: string;
  cityId: string;
  showId: boolean;
}) {
  const cities = useCities(countryCode, 'all').loadable?.data ?? null;
  const city = cityName(cities, cityId);
  return (
    <Named
      name={city !== null && country !== null ? `${city}, ${country}` : null}
      id={`${countryCode} · ${cityId}`}
      label="Location id"
      showId={showId}
    />
  );
}

/** The catalog's name of a coin's network ("Tron (TRC-20)"), or its id until the catalog is read. */
export function useNetworkName(coinCode: string, networkId: string): string {
  const coins = useCoins().loadable?.data ?? null;
  return networkName(coins, coinCode, networkId) ?? networkId;
}

/** "Tron (TRC-20)" for `USDT` + `tron`. */
export function NetworkName({
  coinCode,
  networkId,
  showId = false,
}: {
  coinCode: string;
  networkId: string;
  showId?: boolean;
}) {
  const coins = useCoins().loadable?.data ?? null;
  return (
    <Named name={networkName(coins, coinCode, networkId)} id={networkId} label="Network id" showId={showId} />
  );
}
