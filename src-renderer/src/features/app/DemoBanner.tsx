import { useAppStore } from './app-store';

/** Permanent while the demo profile is active: nothing on screen is a real account. */
export function DemoBanner() {
  const isDemo = useAppStore((store) => store.state?.activeProfile?.kind === 'demo');
  const stopDemo = useAppStore((store) => store.stopDemo);
  if (!isDemo) return null;
  return (
    <div className="demo-banner" role="note" aria-label="Demo mode" data-testid="demo-banner">
      <p>
        <strong>Demo mode.</strong> You are connected to the built-in sandbox: every port, subscription and
        payment here is simulated, and no real account is touched.
      </p>
      <button type="button" className="button button--small" onClick={() => void stopDemo()}>
        Leave demo
      </button>
    </div>
  );
}
