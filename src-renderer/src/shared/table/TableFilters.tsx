import type { DataFilter, FacetChoice } from './table-model';
import { Popover } from './Popover';

interface TableFiltersProps<T> {
  filters: readonly DataFilter<T>[];
  chosen: Readonly<Record<string, readonly string[]>>;
  /** Each filter's choices with their counts (over what the other filters and the search keep). */
  facets: (filterId: string) => FacetChoice[];
  onChange: (filterId: string, values: string[]) => void;
}

/**
 * One button per filter ("Status", "Country: 2"), each opening its choices as checkboxes with how
 * many rows each gives ("Active 812", "Expired 31"); several choices of one filter add up, filters
 * narrow each other.
 */
export function TableFilters<T>({ filters, chosen, facets, onChange }: TableFiltersProps<T>) {
  return (
    <span className="table-filters" role="group" aria-label="Filters">
      {filters.map((filter) => {
        const kept = chosen[filter.id] ?? [];
        return (
          <Popover
            key={filter.id}
            className={kept.length ? 'popover--active' : undefined}
            summary={
              <>
                {filter.label}
                {kept.length ? `: ${kept.length === 1 ? kept[0] : kept.length}` : ''}
                <span aria-hidden="true"> ▾</span>
              </>
            }
            summaryLabel={`Filter by ${filter.label}${kept.length ? ` (${kept.join(', ')})` : ''}`}
          >
            {() => {
              const choices = facets(filter.id);
              return (
                <fieldset className="table-filters__choices">
                  <legend>{filter.label}</legend>
                  {choices.length === 0 ? <p className="muted small">No values.</p> : null}
                  {choices.map((choice) => (
                    <label key={choice.value} className="table-filters__choice">
                      <input
                        type="checkbox"
                        checked={kept.includes(choice.value)}
                        onChange={(event) =>
                          onChange(
                            filter.id,
                            event.target.checked
                              ? [...kept, choice.value]
                              : kept.filter((value) => value !== choice.value),
                          )
                        }
                      />
                      <span className="table-filters__value">{choice.value}</span>
                      <span className="table-filters__count" data-testid="facet-count">
                        {choice.count}
                      </span>
                    </label>
                  ))}
                  {kept.length ? (
                    <button
                      type="button"
                      className="button button--small button--quiet"
                      onClick={() => onChange(filter.id, [])}
                    >
                      Any {filter.label.toLowerCase()}
                    </button>
                  ) : null}
                </fieldset>
              );
            }}
          </Popover>
        );
      })}
    </span>
  );
}
