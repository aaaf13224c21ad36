import { useMemo, useState } from 'react';
import type { Carrier, Country } from '../../../../src-shared/api-types';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { RadioGroup } from '../../shared/components/RadioGroup';
import { Tabs } from '../../shared/components/Tabs';
import { TextField } from '../../shared/components/TextField';
import { useAsns, useCarriers, useCities, useStates } from './catalog-hooks';
import { useCatalogStore, type CountryDetailTab } from './catalog-store';
import { PRODUCT_FILTER_OPTIONS, productLabel } from './product-labels';

const TABS = [
  { key: 'states', label: 'States' },
  { key: 'cities', label: 'Cities' },
  { key: 'asns', label: 'ASNs' },
  { key: 'carriers', label: 'Carriers' },
] as const satisfies readonly { key: CountryDetailTab; label: string }[];

/** Long lists (cities, ASNs) get a filter box; it matches any column. */
function useFilter<T>(items: readonly T[], text: (item: T) => string) {
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const needle = query.trim().toLowerCase();
    return needle ? items.filter((item) => text(item).toLowerCase().includes(needle)) : items;
  }, [items, query, text]);
  return { query, setQuery, shown };
}

function StatesPanel({ code }: { code: string }) {
  const { loadable, retry } = useStates(code);
  return (
    <AsyncContent
      loadable={loadable}
      what="states"
      onRetry={retry}
      empty={<p>This country has no state targeting (the service lists no states for it).</p>}
    >
      {(states) => (
        <table className="table" aria-label={`States of ${code}`}>
          <thead>
            <tr>
              <th scope="col">State</th>
              <th scope="col">Code</th>
              <th scope="col">Username segment</th>
              <th scope="col" className="numeric">
                Cities
              </th>
            </tr>
          </thead>
          <tbody>
            {states.map((state) => (
              <tr key={state.id}>
                <th scope="row">{state.name}</th>
                <td>{state.code}</td>
                <td>
                  <code>-state-{state.id}</code>
                </td>
                <td className="numeric">{state.cities}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </AsyncContent>
  );
}

const cityText = (city: { name: string; id: string; state: string | null }) =>
  `${city.name} ${city.id} ${city.state ?? ''}`;

function CitiesTable({
  code,
  cities,
}: {
  code: string;
  cities: { id: string; name: string; state: string | null }[];
}) {
  const { query, setQuery, shown } = useFilter(cities, cityText);
  return (
    <>
      <TextField label="Filter cities" type="search" value={query} onChange={setQuery} />
      <p className="muted" role="status">
        {shown.length === cities.length
          ? `${cities.length} cities`
          : `${shown.length} of ${cities.length} cities`}
      </p>
      <table className="table" aria-label={`Cities of ${code}`}>
        <thead>
          <tr>
            <th scope="col">City</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((city) => (
            <tr key={city.id}>
              <th scope="row" title={`City id: ${city.id}`}>
                {city.name}
                <span className="named__id">{city.id}</span>
              </th>
              <td>{city.state ?? <span className="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function CitiesPanel({ code }: { code: string }) {
  const product = useCatalogStore((store) => store.cityProduct);
  const setProduct = useCatalogStore((store) => store.setCityProduct);
  const { loadable, retry } = useCities(code, product);
  return (
    <>
      <RadioGroup
        legend="Cities for product"
        value={product}
        options={PRODUCT_FILTER_OPTIONS}
        onChange={setProduct}
        segmented
      />
      <AsyncContent
        loadable={loadable}
        what="cities"
        onRetry={retry}
        empty={
          <p>
            No cities{product === 'all' ? '' : ` with ${productLabel(product)}`} in this country.
            {product === 'mobile' || product === 'mobile-gb'
              ? ' Mobile products need 4G/5G modems in the city.'
              : ''}
          </p>
        }
      >
        {(cities) => <CitiesTable code={code} cities={cities} />}
      </AsyncContent>
    </>
  );
}

const asnText = (asn: { asn: number; name: string }) => `AS${asn.asn} ${asn.name}`;

function AsnsPanel({ code }: { code: string }) {
  const { loadable, retry } = useAsns(code);
  return (
    <AsyncContent
      loadable={loadable}
      what="ASNs"
      onRetry={retry}
      empty={<p>No ISPs (ASNs) listed for this country. ASN targeting is for residential only.</p>}
    >
      {(asns) => <AsnsTable code={code} asns={asns} />}
    </AsyncContent>
  );
}

function AsnsTable({ code, asns }: { code: string; asns: { asn: number; name: string }[] }) {
  const { query, setQuery, shown } = useFilter(asns, asnText);
  return (
    <>
      <TextField label="Filter ASNs" type="search" value={query} onChange={setQuery} />
      <table className="table" aria-label={`ASNs of ${code}`}>
        <thead>
          <tr>
            <th scope="col" className="numeric">
              ASN
            </th>
            <th scope="col">ISP</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((asn) => (
            <tr key={asn.asn}>
              <td className="numeric">
                <code>AS{asn.asn}</code>
              </td>
              <td>{asn.name}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function CarriersPanel({ code }: { code: string }) {
  const { loadable, retry } = useCarriers(code);
  return (
    <AsyncContent
      loadable={loadable}
      what="carriers"
      onRetry={retry}
      empty={<p>No mobile carriers in this country.</p>}
    >
      {(carriers: Carrier[]) => (
        <table className="table" aria-label={`Carriers of ${code}`}>
          <thead>
            <tr>
              <th scope="col">Carrier</th>
              <th scope="col">Availability</th>
              <th scope="col">Networks</th>
              <th scope="col" className="numeric">
                Cities
              </th>
            </tr>
          </thead>
          <tbody>
            {carriers.map((carrier) => (
              <tr key={carrier.id}>
                <th scope="row">
                  {carrier.name} <code className="code">{carrier.id}</code>
                </th>
                <td>
                  <span className={`badge ${carrier.available ? 'badge--ok' : 'badge--muted'}`}>
                    {carrier.available ? 'Available' : 'Not available'}
                  </span>
                </td>
                <td>{carrier.networkTypes.join(', ') || '—'}</td>
                <td className="numeric">{carrier.cities.length}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </AsyncContent>
  );
}

export function CountryDetail({ code, country }: { code: string; country: Country | null }) {
  const chosenTab = useCatalogStore((store) => store.detailTab);
  const setTab = useCatalogStore((store) => store.setDetailTab);
  const selectCountry = useCatalogStore((store) => store.selectCountry);
  // The country entry does not say whether it has states (the spec's fields have no count), so the
  // list is read: a country without any (Germany) has no States tab and opens on its cities.
  const states = useStates(code).loadable?.data ?? null;
  const noStates = states !== null && states.length === 0;
  const tabs = noStates ? TABS.filter((known) => known.key !== 'states') : TABS;
  const tab = noStates && chosenTab === 'states' ? 'cities' : chosenTab;
  return (
    <section className="card country-detail" aria-labelledby="country-detail-title">
      <div className="card__header">
        <h2 id="country-detail-title">
          {country ? country.name : code} <span className="code">{code}</span>
        </h2>
        <button
          type="button"
          className="button button--small"
          onClick={() => selectCountry(null)}
          aria-label="Close country details"
        >
          Close
        </button>
      </div>
      {country ? (
        <p className="muted">
          {country.region} · {country.products.map(productLabel).join(', ') || 'no products'}
        </p>
      ) : null}
      <Tabs label={`Details of ${country?.name ?? code}`} tabs={tabs} selected={tab} onSelect={setTab}>
        {tab === 'states' ? <StatesPanel code={code} /> : null}
        {tab === 'cities' ? <CitiesPanel code={code} /> : null}
        {tab === 'asns' ? <AsnsPanel code={code} /> : null}
        {tab === 'carriers' ? <CarriersPanel code={code} /> : null}
      </Tabs>
    </section>
  );
}
