import { useEffect } from 'react';
import { usePortsStore } from './ports-store';

export function usePorts() {
  const loadable = usePortsStore((store) => store.ports);
  const load = usePortsStore((store) => store.load);
  useEffect(() => {
    void load();
  }, [load]);
  return { loadable, refresh: () => void load(true) };
}
