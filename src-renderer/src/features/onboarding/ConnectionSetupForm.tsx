import type { FormEvent } from 'react';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { PasswordField } from '../../shared/components/PasswordField';
import { TextField } from '../../shared/components/TextField';
import { UnplacedErrors } from '../../shared/components/UnplacedErrors';
import { unplacedFieldErrors } from '../../shared/field-errors';
import { useAppStore } from '../app/app-store';
import { ConnectionTestReport } from './ConnectionTestReport';
import { defaultProfileName, useOnboardingStore } from './onboarding-store';

const PLACED_FIELDS = ['name', 'baseUrl', 'apiKey', 'storage'];

/**
 * Paste the base URL and the key (the order providers show them), test, save. Used by onboarding and by
 * "Add a profile" in Settings. Enter in any field runs Save (which tests first when the inputs changed
 * since the last test). Without an OS keychain the primary action keeps the key for this session only.
 */
export function ConnectionSetupForm({ onSaved }: { onSaved?: () => void }) {
  const draft = useOnboardingStore((store) => store.draft);
  const fieldErrors = useOnboardingStore((store) => store.fieldErrors);
  const test = useOnboardingStore((store) => store.test);
  const saving = useOnboardingStore((store) => store.saving);
  const saveError = useOnboardingStore((store) => store.saveError);
  const confirmUntested = useOnboardingStore((store) => store.confirmUntested);
  const keychainUnavailable = useOnboardingStore((store) => store.keychainUnavailable);
  const setField = useOnboardingStore((store) => store.setField);
  const testConnection = useOnboardingStore((store) => store.testConnection);
  const save = useOnboardingStore((store) => store.save);
  const duplicateOf = useOnboardingStore((store) => store.duplicateOf);
  const switchToDuplicate = useOnboardingStore((store) => store.switchToDuplicate);
  const keychain = useAppStore((store) => store.state?.keychain);

  const testing = test.status === 'loading';
  const busy = testing || saving;
  const unplaced = unplacedFieldErrors(fieldErrors, PLACED_FIELDS);
  const saveAndReport = async (options?: Parameters<typeof save>[0]) => {
    if (await save(options)) onSaved?.();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void saveAndReport();
  };

  const noKeychain = keychain !== undefined && !keychain.available;
  const keyHint = noKeychain
    ? `No OS keychain is available${keychain.reason ? `: ${keychain.reason.replace(/\.?$/, '.')}` : '.'} ` +
      'The key is kept in memory for this session only; enter it again after a restart.'
    : 'Saved in your OS keychain; the app shows only its last four characters.';

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Connect an account">
      <TextField
        label="Base URL"
        type="url"
        inputMode="url"
        value={draft.baseUrl}
        onChange={(value) => setField('baseUrl', value)}
        error={fieldErrors.baseUrl}
        placeholder="https://api.example.com/api/v1"
        hint="The API address your provider gave you; it usually ends in /api/v1 (added for you if it answers there)."
        spellCheck={false}
        autoCapitalize="off"
        required
      />
      <PasswordField
        label="API key"
        value={draft.apiKey}
        onChange={(value) => setField('apiKey', value)}
        error={fieldErrors.apiKey}
        hint={keyHint}
        required
      />
      <TextField
        label="Profile name"
        value={draft.name}
        onChange={(value) => setField('name', value)}
        error={fieldErrors.name}
        placeholder={draft.baseUrl ? defaultProfileName(draft.baseUrl) : 'e.g. Work account'}
        hint="Leave empty to use the host name."
        maxLength={60}
      />

      {testing ? (
        <p role="status" className="muted">
          Testing the connection…
        </p>
      ) : null}
      {test.status === 'error' && test.error && !test.error.fields ? (
        <ErrorMessage error={test.error} title="Could not test the connection" />
      ) : null}
      {test.data ? <ConnectionTestReport result={test.data} /> : null}

      <UnplacedErrors messages={unplaced} />

      {keychainUnavailable && saveError ? (
        <div className="message message--warn" role="alert">
          <p>
            <strong>The OS keychain cannot store the key.</strong> {saveError.message}
          </p>
          <button
            type="button"
            className="button"
            disabled={busy}
            // The duplicate check already ran (or was confirmed) before the keychain refused.
            onClick={() => void saveAndReport({ storage: 'session', anyway: true, duplicate: true })}
          >
            Keep for this session only
          </button>
        </div>
      ) : saveError && !saveError.fields ? (
        <ErrorMessage error={saveError} title="Could not save the profile" />
      ) : null}

      {duplicateOf ? (
        <div className="message message--warn" role="alert" data-testid="duplicate-profile">
          <p>
            <strong>You already have this account.</strong> The profile “{duplicateOf.name}” connects to the
            same base URL with the same key.
          </p>
          <div className="form__actions">
            <button
              type="button"
              className="button button--primary"
              disabled={busy}
              onClick={() => void switchToDuplicate().then((done) => done && onSaved?.())}
            >
              Switch to {duplicateOf.name}
            </button>
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void saveAndReport({ duplicate: true, anyway: true })}
            >
              Add a second profile
            </button>
          </div>
        </div>
      ) : null}

      {confirmUntested ? (
        <div className="message message--warn" role="alert">
          <p>The connection test did not pass. Save this profile anyway? You can fix the key or URL later.</p>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void saveAndReport({ anyway: true })}
          >
            Save anyway
          </button>
        </div>
      ) : null}

      <div className="form__actions">
        <button type="button" className="button" disabled={busy} onClick={() => void testConnection()}>
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        <button type="submit" className="button button--primary" disabled={busy}>
          {saving ? 'Saving…' : noKeychain ? 'Keep for this session only' : 'Save'}
        </button>
      </div>
    </form>
  );
}
