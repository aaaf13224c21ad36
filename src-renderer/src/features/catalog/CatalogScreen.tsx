import { Screen } from '../../shared/components/Screen';
import { Tabs } from '../../shared/components/Tabs';
import { useCatalogStore, type CatalogView } from './catalog-store';
import { CoinsView } from './CoinsView';
import { CountriesView } from './CountriesView';

const VIEWS = [
  { key: 'countries', label: 'Countries' },
  { key: 'coins', label: 'Coins' },
] as const satisfies readonly { key: CatalogView; label: string }[];

export function CatalogScreen() {
  const view = useCatalogStore((store) => store.view);
  const setView = useCatalogStore((store) => store.setView);
  return (
    <Screen
      title="Catalog"
      description="Where the service has exits (countries, states, cities, ISPs, carriers) and the coins it accepts."
    >
      <Tabs label="Catalog" tabs={VIEWS} selected={view} onSelect={setView}>
        {view === 'countries' ? <CountriesView /> : <CoinsView />}
      </Tabs>
    </Screen>
  );
}
