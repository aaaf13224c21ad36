import { useMemo } from 'react';
import type { Country } from '../../../../src-shared/api-types';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { RadioGroup } from '../../shared/components/RadioGroup';
import { TextField } from '../../shared/components/TextField';
import { useCountries } from './catalog-hooks';
import { useCatalogStore } from './catalog-store';
import { CountryDetail } from './CountryDetail';
import { PRODUCT_FILTER_OPTIONS, productLabel } from './product-labels';

function matchesSearch(country: Country, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [country.name, country.code, country.region].some((text) => text.toLowerCase().includes(needle));
}

function CountryTable({ countries }: { countries: Country[] }) {
  const search = useCatalogStore((store) => store.search);
  const selected = useCatalogStore((store) => store.selectedCountry);
  const selectCountry = useCatalogStore((store) => store.selectCountry);
  const setSearch = useCatalogStore((store) => store.setSearch);
  const shown = useMemo(
    () => countries.filter((country) => matchesSearch(country, search)),
    [countries, search],
  );
  return (
    <>
      {shown.length === 0 ? (
        // The empty state says it all (no "0 of N countries" above it) and offers the way back.
        <div className="empty" role="status">
          <p>No country matches “{search.trim()}”. Search by name, code (US) or region.</p>
          <button type="button" className="button" onClick={() => setSearch('')}>
            Clear the search
          </button>
        </div>
      ) : (
        <p className="muted" role="status" aria-live="polite">
          {shown.length === countries.length
            ? `${countries.length} countries`
            : `${shown.length} of ${countries.length} countries match “${search.trim()}”`}
        </p>
      )}
      {shown.length === 0 ? null : (
        <div className="table-wrap">
          <table className="table" aria-label="Countries">
            <thead>
              <tr>
                <th scope="col">Country</th>
                <th scope="col">Region</th>
                <th scope="col">Products</th>
                <th scope="col" className="numeric">
                  Cities
                </th>
                <th scope="col" className="numeric">
                  ASNs
                </th>
                <th scope="col" className="numeric">
                  Carriers
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((country) => (
                <tr key={country.code} className={country.code === selected ? 'is-selected' : undefined}>
                  <th scope="row">
                    <button
                      type="button"
                      className="link-button"
                      aria-current={country.code === selected ? 'true' : undefined}
                      onClick={() => selectCountry(country.code)}
                    >
                      {country.name} <span className="code">{country.code}</span>
                    </button>
                  </th>
                  <td>{country.region}</td>
                  <td>{country.products.map(productLabel).join(', ')}</td>
                  <td className="numeric">{country.cities}</td>
                  <td className="numeric">{country.asns}</td>
                  <td className="numeric">{country.carriers}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export function CountriesView() {
  const product = useCatalogStore((store) => store.product);
  const search = useCatalogStore((store) => store.search);
  const selected = useCatalogStore((store) => store.selectedCountry);
  const setProduct = useCatalogStore((store) => store.setProduct);
  const setSearch = useCatalogStore((store) => store.setSearch);
  const { loadable, retry } = useCountries(product);
  // Looked up in every list read so far: the product filter may hide the selected country, whose details stay open.
  const selectedCountry = useCatalogStore((store) => {
    for (const list of Object.values(store.countries)) {
      const found = list?.data?.find((country) => country.code === selected);
      if (found) return found;
    }
    return null;
  });
  return (
    <div className="catalog">
      <div className="catalog__list">
        <div className="toolbar">
          <RadioGroup
            legend="Product"
            value={product}
            options={PRODUCT_FILTER_OPTIONS}
            onChange={setProduct}
            segmented
          />
          <TextField
            label="Search countries"
            type="search"
            value={search}
            onChange={setSearch}
            placeholder="Name, code or region"
            className="toolbar__search"
          />
        </div>
        <AsyncContent
          loadable={loadable}
          what="countries"
          onRetry={retry}
          empty={
            <div className="empty">
              <p>The service lists no countries for this product.</p>
              {product !== 'all' ? (
                <button type="button" className="button" onClick={() => setProduct('all')}>
                  Show every product
                </button>
              ) : (
                <button type="button" className="button" onClick={retry}>
                  Ask again
                </button>
              )}
            </div>
          }
        >
          {(countries) => <CountryTable countries={countries} />}
        </AsyncContent>
      </div>
      <div className="catalog__detail">
        {selected ? (
          <CountryDetail code={selected} country={selectedCountry} />
        ) : (
          <p className="muted empty">Select a country to see its states, cities, ISPs and carriers.</p>
        )}
      </div>
    </div>
  );
}
