import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { citiesKey, useCatalogStore } from '../../../../src-renderer/src/features/catalog/catalog-store';
import { usePlaceNames } from '../../../../src-renderer/src/features/catalog/place-names';
import { ok } from '../../support/fake-api';
import { cities, countries } from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

describe('usePlaceNames', () => {
  const fake = useFakeApi(() => ({
    'catalog:countries': () => ok(countries()),
    'catalog:citiesOf': ({ countryCodes }) =>
      ok(Object.fromEntries(countryCodes.map((code) => [code, code === 'US' ? cities() : []]))),
  }));

  it('names places from the catalog, asking for every country’s cities in one call', async () => {
    const codes = ['US', 'DE', 'US'];
    const { result } = renderHook(() => usePlaceNames(codes));
    expect(result.current.location('US', 'los_angeles')).toBe('Los Angeles, US');
    await settle();
    expect(result.current.location('US', 'los_angeles')).toBe('Los Angeles, United States');
    expect(result.current.location('DE', 'some_town')).toBe('Some Town, Germany');
    expect(result.current.location('DE', null)).toBe('Germany');
    expect(fake.current.callsTo('catalog:citiesOf')).toEqual([{ countryCodes: ['DE', 'US'] }]);
  });

  it('keeps the same names object (no re-render of every row) when unrelated catalog lists change', async () => {
    const codes = ['US'];
    const { result } = renderHook(() => usePlaceNames(codes));
    await settle();
    const names = result.current;
    // Another country's cities, and this country's list reloading with its data kept.
    act(() =>
      useCatalogStore.setState((state) => ({
        cities: {
          ...state.cities,
          [citiesKey('FR', 'all')]: { status: 'ready', data: [], error: null },
          [citiesKey('US', 'all')]: { ...state.cities[citiesKey('US', 'all')]!, status: 'loading' },
        },
      })),
    );
    expect(result.current).toBe(names);
    act(() =>
      useCatalogStore.setState((state) => ({
        cities: {
          ...state.cities,
          [citiesKey('US', 'all')]: {
            status: 'ready',
            data: [{ id: 'los_angeles', name: 'City of Los Angeles', state: null }],
            error: null,
          },
        },
      })),
    );
    expect(result.current).not.toBe(names);
    expect(result.current.location('US', 'los_angeles')).toBe('City of Los Angeles, United States');
  });

  it('renders nothing again when the catalog answers without naming anything new', async () => {
    // Not in the catalog's countries, no cities: the ids read the same before and after the answers.
    const codes = ['ZZ'];
    let renders = 0;
    const { result } = renderHook(() => {
      renders += 1;
      return usePlaceNames(codes);
    });
    const names = result.current;
    const rendersBefore = renders;
    expect(names.location('ZZ', 'some_town')).toBe('Some Town, ZZ');
    await settle();
    expect(fake.current.callsTo('catalog:countries')).toHaveLength(1);
    expect(fake.current.callsTo('catalog:citiesOf')).toEqual([{ countryCodes: ['ZZ'] }]);
    expect(result.current).toBe(names);
    // Not even the component asking renders again (on the ports screen: the whole screen).
    expect(renders).toBe(rendersBefore);
  });
});
