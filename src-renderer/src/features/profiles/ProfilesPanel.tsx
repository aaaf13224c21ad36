import { useState } from 'react';
import { useAppStore } from '../app/app-store';
import { ConnectionSetupForm } from '../onboarding/ConnectionSetupForm';
import { useOnboardingStore } from '../onboarding/onboarding-store';
import { ProfileCard } from './ProfileCard';

export function ProfilesPanel() {
  const profiles = useAppStore((store) => store.state?.profiles);
  const [adding, setAdding] = useState(false);
  const resetDraft = useOnboardingStore((store) => store.reset);
  const toggleAdding = () => {
    if (adding) resetDraft();
    setAdding(!adding);
  };
  return (
    <section className="settings-section" aria-labelledby="profiles-title">
      <h2 id="profiles-title" tabIndex={-1}>
        Profiles
      </h2>
      <p className="muted">
        One profile per account (base URL and API key). The key stays in main; only its last four characters
        are shown.
      </p>
      {profiles && profiles.length > 0 ? (
        <ul className="profiles">
          {profiles.map((profile) => (
            <ProfileCard key={profile.id} profile={profile} />
          ))}
        </ul>
      ) : (
        <p>No profiles yet. Add one with the base URL and API key your provider gave you.</p>
      )}
      <button type="button" className="button" aria-expanded={adding} onClick={toggleAdding}>
        {adding ? 'Cancel adding a profile' : 'Add a profile'}
      </button>
      {adding ? (
        <div className="card">
          <h3>Add a profile</h3>
          <ConnectionSetupForm onSaved={() => setAdding(false)} />
        </div>
      ) : null}
    </section>
  );
}
