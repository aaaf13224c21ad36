import { useEffect, useState } from 'react';
import { useSettingsStore } from '../features/settings/settings-store';
import { setDensity } from '../shared/density';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

/**
 * Applies the theme to the document: the Settings choice, or the OS preference while it is `system`
 * (followed live when the OS switches). CSS reads `data-theme` on the root element.
 */
export function useTheme(): 'light' | 'dark' {
  const choice = useSettingsStore((store) => store.settings.data?.theme ?? 'system');
  const [prefersDark, setPrefersDark] = useState(systemPrefersDark);

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return undefined;
    const query = window.matchMedia(DARK_QUERY);
    const onChange = () => setPrefersDark(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  const theme = choice === 'system' ? (prefersDark ? 'dark' : 'light') : choice;
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.style.colorScheme = theme;
  }, [theme]);
  return theme;
}

/** Applies the row density from Settings (comfortable until the settings are read). */
export function useDensitySetting(): void {
  const density = useSettingsStore((store) => store.settings.data?.density ?? 'comfortable');
  useEffect(() => {
    setDensity(density);
  }, [density]);
}
