import { useEffect } from 'react';
import { usePortsStore } from './ports-store';

export function usePorts() {
  const loadable = usePortsStore((store) => store.ports);
  const load = usePortsStore((store) => store.load);
  // Also when the list falls back to idle: the account changed and its ports were dropped.
  const idle = loadable.status === 'idle';
  useEffect(() => {
    void load();
  }, [load, idle]);
  return { loadable, refresh: () => void load(true) };
}
