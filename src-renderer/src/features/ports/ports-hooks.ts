import { useLoadable } from '../../shared/loadable-slice';
import { portsList, usePortsStore } from './ports-store';

export function usePorts() {
  const { loadable } = useLoadable(usePortsStore, portsList);
  // Refresh and Retry wait for the service (`fresh`), not main's snapshot.
  return { loadable, refresh: () => void usePortsStore.getState().load(true) };
}
