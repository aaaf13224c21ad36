import { type FormEvent, useId, useState } from 'react';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { TextField } from '../../shared/components/TextField';
import { Time } from '../../shared/components/Time';
import { fieldErrorsOf } from '../../shared/field-errors';
import { useUpdatesStore } from './updates-store';

/** A checkbox with its hint (the settings' own `CheckboxOption` look, without importing that feature). */
function Switch(props: {
  label: string;
  hint: string;
  checked: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
}) {
  const hintId = useId();
  return (
    <div className="checkbox-field">
      <label>
        <input
          type="checkbox"
          checked={props.checked}
          disabled={props.disabled}
          aria-describedby={hintId}
          onChange={(event) => props.onChange(event.target.checked)}
        />{' '}
        {props.label}
      </label>
      <p id={hintId} className="field__hint">
        {props.hint}
      </p>
    </div>
  );
}

/** Settings → Updates: the automatic check's switches, the proxy for updates, and "Check for updates". */
export function UpdatesSection() {
  const status = useUpdatesStore((store) => store.status);
  const busy = useUpdatesStore((store) => store.busy);
  const error = useUpdatesStore((store) => store.error);
  const { check, setPreferences } = useUpdatesStore.getState();
  const [proxy, setProxy] = useState<string | null>(null);
  if (!status) return null;
  const { preferences } = status;
  const shownProxy = proxy ?? preferences.proxyUrl ?? '';
  const saveProxy = async (event: FormEvent) => {
    event.preventDefault();
    if (await setPreferences({ proxyUrl: shownProxy.trim() === '' ? null : shownProxy.trim() }))
      setProxy(null);
  };
  const fieldErrors = fieldErrorsOf(error);
  return (
    <section className="settings-section" aria-labelledby="updates-title">
      <h2 id="updates-title" tabIndex={-1}>
        Updates
      </h2>
      <Switch
        label="Check for updates automatically"
        hint="At start and once a day, from the signed release feed. Nothing is installed without you."
        checked={preferences.checkAutomatically}
        disabled={busy !== null}
        onChange={(checkAutomatically) => void setPreferences({ checkAutomatically })}
      />
      <Switch
        label="Also while the demo runs"
        hint="Off: the demo never reaches out to the internet on its own."
        checked={preferences.checkInDemo}
        disabled={busy !== null}
        onChange={(checkInDemo) => void setPreferences({ checkInDemo })}
      />
      <form
        className="form"
        onSubmit={(event) => void saveProxy(event)}
        noValidate
        aria-label="Update proxy setting"
      >
        <TextField
          label="Proxy for updates"
          inputMode="url"
          className="field--wide"
          placeholder="http://127.0.0.1:3128"
          hint="Leave empty to connect directly. No user name or password (they would be stored in settings.json)."
          value={shownProxy}
          onChange={setProxy}
          error={fieldErrors.proxyUrl}
        />
        <button type="submit" className="button" disabled={busy !== null || proxy === null}>
          Save proxy
        </button>
      </form>
      <p className="muted" data-testid="update-check-status">
        Proxy Manager {status.currentVersion}.{' '}
        {status.available
          ? `Update available: ${status.available.version}.`
          : status.heldBack
            ? `${status.heldBack.version} is being rolled out; this installation is not among the first ${Math.round(status.heldBack.rollout * 100)}% yet.`
            : status.lastCheckedAt && !status.problem
              ? 'Up to date.'
              : ''}{' '}
        {status.lastCheckedAt ? (
          <>
            Last checked <Time iso={status.lastCheckedAt} />.
          </>
        ) : (
          'Not checked yet.'
        )}
      </p>
      {status.problem ? <p className="field__error">{status.problem.message}</p> : null}
      <button type="button" className="button" disabled={busy !== null} onClick={() => void check()}>
        {busy === 'check' ? 'Checking…' : 'Check for updates'}
      </button>
      {error && !fieldErrors.proxyUrl ? (
        <ErrorMessage error={error} title="Could not change the update settings" />
      ) : null}
    </section>
  );
}
