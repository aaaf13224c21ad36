import { useEffect, useState } from 'react';
import { WEB_TOKEN_MISSING, WEB_TOKEN_REJECTED } from '../api/web-transport';
import { accountKey, useAppStore } from '../features/app/app-store';
import { useSettingsStore } from '../features/settings/settings-store';
import { ErrorMessage } from '../shared/components/ErrorMessage';
import { followLinksAtOnce } from '../shared/routes';
import { watchAccountScope } from './account-scope';
import { AppShell, OnboardingShell } from './AppShell';
import { connectEventBridge } from './event-bridge';
import { watchNavigation } from './screen-data';
import { useDensitySetting, useTheme } from './use-theme';

function StartupProblem() {
  const loadError = useAppStore((store) => store.loadError);
  const load = useAppStore((store) => store.load);
  if (!loadError) return null;
  const tokenProblem = loadError.code === WEB_TOKEN_MISSING || loadError.code === WEB_TOKEN_REJECTED;
  return (
    <main className="startup" id="main">
      <h1>Proxy Manager cannot start</h1>
      <ErrorMessage error={loadError} onRetry={tokenProblem ? undefined : () => void load()} />
      {tokenProblem ? (
        <p>
          Web mode only answers pages opened from the link it prints. Run <code>npm run web</code> and open
          the <code>http://127.0.0.1:…/#token=…</code> URL from its <code>WEB_READY</code> line.
        </p>
      ) : null}
    </main>
  );
}

export function App() {
  const state = useAppStore((store) => store.state);
  const loadError = useAppStore((store) => store.loadError);
  const [listsReadAheadFor, setListsReadAheadFor] = useState<string | null>(null);
  useTheme();
  useDensitySetting();

  useEffect(() => {
    // The scope watches the app store before the bridge feeds it, so the first switch is seen too.
    const stopWatchingScope = watchAccountScope();
    const disconnect = connectEventBridge();
    // A screen's data is asked for as the navigation starts, not after the screen mounts.
    // Once an account's lists are in, their screens are rendered (hidden) ahead of a first visit.
    const stopWatchingNavigation = watchNavigation({
      afterReadAhead: () => setListsReadAheadFor(accountKey(useAppStore.getState().state)),
    });
    const stopFollowingLinks = followLinksAtOnce();
    void useSettingsStore.getState().load();
    return () => {
      stopFollowingLinks();
      stopWatchingNavigation();
      disconnect();
      stopWatchingScope();
    };
  }, []);

  if (!state) {
    return loadError ? (
      <StartupProblem />
    ) : (
      <main className="startup" id="main" aria-busy="true">
        <p role="status">Starting Proxy Manager…</p>
      </main>
    );
  }
  return state.activeProfile ? <AppShell listsReadAheadFor={listsReadAheadFor} /> : <OnboardingShell />;
}
