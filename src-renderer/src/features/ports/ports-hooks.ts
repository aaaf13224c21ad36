import { useLoadable } from '../../shared/loadable-slice';
import { portsList, usePortsStore } from './ports-store';

export function usePorts() {
  const { loadable, retry } = useLoadable(usePortsStore, portsList);
  return { loadable, refresh: retry };
}
