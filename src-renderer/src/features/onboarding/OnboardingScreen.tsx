import { useEffect } from 'react';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { ConnectionSetupForm } from './ConnectionSetupForm';
import { useOnboardingStore } from './onboarding-store';

/**
 * Shown while no profile is active: connect an account, or try the built-in demo. The page's main
 * part: the shell frames it (header, notices, status bar).
 */
export function OnboardingScreen() {
  const demoStarting = useOnboardingStore((store) => store.demoStarting);
  const demoError = useOnboardingStore((store) => store.demoError);
  const startDemo = useOnboardingStore((store) => store.startDemo);

  useEffect(() => {
    document.title = 'Welcome · Proxy Manager';
  }, []);

  return (
    <main id="main" tabIndex={-1} className="app-main onboarding">
      <h1>Welcome to Proxy Manager</h1>
      <p className="lead">
        Connect your proxy service account with the base URL and API key your provider gave you, or try the
        app with simulated data first.
      </p>
      <div className="onboarding__columns">
        <section className="card" aria-labelledby="connect-title">
          <h2 id="connect-title">Connect your account</h2>
          <ConnectionSetupForm />
        </section>
        <section className="card" aria-labelledby="demo-title">
          <h2 id="demo-title">Just looking?</h2>
          <p>
            The demo runs a sandbox of the service inside the app: mobile ports you can rotate, with their IP
            history, subscriptions with traffic, the catalog of locations and coins, and crypto top-ups on a
            simulated chain. Nothing is charged.
          </p>
          {demoError ? <ErrorMessage error={demoError} title="Could not start the demo" /> : null}
          <button
            type="button"
            className="button button--primary"
            disabled={demoStarting}
            onClick={() => void startDemo()}
          >
            {demoStarting ? 'Starting the demo…' : 'Try demo'}
          </button>
        </section>
      </div>
    </main>
  );
}
