import { create } from 'zustand';
import type { CallInput, IpcError, SavedTableView } from '../../../../src-shared/contract';
import { callApi } from '../../api/window-api';

type ListId = CallInput<'settings:saveTableViews'>['list'];

/** Every list's saved views, kept in settings (`settings:tableViews`), read once per window. */
interface TableViewsStore {
  views: Record<string, SavedTableView[]> | null;
  loading: boolean;
  errors: Record<string, IpcError | null>;
  load: () => Promise<void>;
  save: (listId: string, views: SavedTableView[]) => Promise<boolean>;
}

export const useTableViewsStore = create<TableViewsStore>()((set, get) => ({
  views: null,
  loading: false,
  errors: {},
  load: async () => {
    if (get().views !== null || get().loading) return;
    set({ loading: true });
    const result = await callApi((api) => api.settings.tableViews());
    set({ loading: false, ...(result.ok ? { views: result.value } : {}) });
  },
  save: async (listId, views) => {
    const result = await callApi((api) => api.settings.saveTableViews({ list: listId as ListId, views }));
    set((store) => ({
      errors: { ...store.errors, [listId]: result.ok ? null : result.error },
      ...(result.ok ? { views: result.value } : {}),
    }));
    return result.ok;
  },
}));

const NO_VIEWS: SavedTableView[] = [];

/** One list's saved views, with save and remove. */
export function useTableViews(listId: string | undefined) {
  const list = useTableViewsStore((store) => (listId ? store.views?.[listId] : undefined)) ?? NO_VIEWS;
  const error = useTableViewsStore((store) => (listId ? (store.errors[listId] ?? null) : null));
  const load = useTableViewsStore((store) => store.load);
  const saveAll = useTableViewsStore((store) => store.save);
  return {
    list,
    error,
    /** Read when the views menu first opens: a list's first render makes no call for them. */
    load,
    save: (view: SavedTableView) =>
      listId
        ? saveAll(listId, [...list.filter((other) => other.name !== view.name), view])
        : Promise.resolve(false),
    remove: (name: string) =>
      listId
        ? saveAll(
            listId,
            list.filter((view) => view.name !== name),
          )
        : Promise.resolve(false),
  };
}
