import { useEffect, useId, useState, type FormEvent } from 'react';
import type { SettingsView } from '../../../../src-main/ipc/contract';
import type { DesktopPreferences } from '../../../../src-main/ipc/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { RadioGroup } from '../../shared/components/RadioGroup';
import { Screen } from '../../shared/components/Screen';
import { TextField } from '../../shared/components/TextField';
import { fieldErrorsOf, unplacedFieldErrors } from '../../shared/field-errors';
import { useAppStore } from '../app/app-store';
import { ProfilesPanel } from '../profiles/ProfilesPanel';
import { useSettingsStore } from './settings-store';

type Theme = SettingsView['theme'];

function ThemeSection({ theme }: { theme: Theme }) {
  const update = useSettingsStore((store) => store.update);
  const error = useSettingsStore((store) => store.errors.theme ?? null);
  return (
    <section className="settings-section" aria-labelledby="appearance-title">
      <h2 id="appearance-title">Appearance</h2>
      <RadioGroup
        legend="Theme"
        value={theme}
        onChange={(value) => void update('theme', { theme: value })}
        options={[
          { value: 'system', label: 'Follow the system' },
          { value: 'light', label: 'Light' },
          { value: 'dark', label: 'Dark' },
        ]}
      />
      {error ? <ErrorMessage error={error} title="Could not change the theme" /> : null}
    </section>
  );
}

const DESKTOP_OPTIONS: readonly { key: keyof DesktopPreferences; label: string; hint: string }[] = [
  {
    key: 'closeToTray',
    label: 'Keep running in the tray',
    hint: 'Keep running in the tray when the window is closed, so schedules and payment watching continue.',
  },
  {
    key: 'startAtLogin',
    label: 'Start at login',
    hint: 'Start Proxy Manager when you log in to this computer, so background jobs resume on their own.',
  },
  {
    key: 'startMinimized',
    label: 'Start minimized',
    hint: 'When it starts, go straight to the tray instead of opening the window.',
  },
];

function DesktopOption({
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  const hintId = useId();
  return (
    <div className="checkbox-field">
      <label>
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          aria-describedby={hintId}
          onChange={(event) => onChange(event.target.checked)}
        />{' '}
        {label}
      </label>
      <p id={hintId} className="field__hint">
        {hint}
      </p>
    </div>
  );
}

/** Only in the desktop app: web mode has no tray, no login items and no window to minimize. */
function DesktopSection({ preferences }: { preferences: DesktopPreferences }) {
  const update = useSettingsStore((store) => store.update);
  const saving = useSettingsStore((store) => store.saving.desktop ?? false);
  const error = useSettingsStore((store) => store.errors.desktop ?? null);
  return (
    <section className="settings-section" aria-labelledby="desktop-title">
      <h2 id="desktop-title">Desktop</h2>
      {DESKTOP_OPTIONS.map((option) => (
        <DesktopOption
          key={option.key}
          label={option.label}
          hint={option.hint}
          checked={preferences[option.key]}
          disabled={saving}
          onChange={(checked) => void update('desktop', { desktop: { [option.key]: checked } })}
        />
      ))}
      {error ? <ErrorMessage error={error} title="Could not change the desktop preferences" /> : null}
    </section>
  );
}

interface NumberDraft {
  usageMinutes: string;
  topUpVerifyingSeconds: string;
  topUpAwaitingPaymentSeconds: string;
  trafficRemainingPercent: string;
  expiryWarningDays: string;
}

const draftOf = (settings: SettingsView): NumberDraft => ({
  usageMinutes: String(settings.polling.usageMinutes),
  topUpVerifyingSeconds: String(settings.polling.topUpVerifyingSeconds),
  topUpAwaitingPaymentSeconds: String(settings.polling.topUpAwaitingPaymentSeconds),
  trafficRemainingPercent: String(settings.alerts.trafficRemainingPercent),
  expiryWarningDays: String(settings.alerts.expiryWarningDays),
});

/** An empty field reads as NaN, so that it fails the whole-number check instead of becoming 0. */
function numberOrText(value: string): number {
  const trimmed = value.trim();
  return trimmed === '' ? Number.NaN : Number(trimmed);
}

const FIELD_NAMES: Record<string, keyof NumberDraft> = {
  'polling.usageMinutes': 'usageMinutes',
  'polling.topUpVerifyingSeconds': 'topUpVerifyingSeconds',
  'polling.topUpAwaitingPaymentSeconds': 'topUpAwaitingPaymentSeconds',
  'alerts.trafficRemainingPercent': 'trafficRemainingPercent',
  'alerts.expiryWarningDays': 'expiryWarningDays',
};

function PollingSection({ settings }: { settings: SettingsView }) {
  const [draft, setDraft] = useState(() => draftOf(settings));
  const [localErrors, setLocalErrors] = useState<Partial<Record<keyof NumberDraft, string>>>({});
  const update = useSettingsStore((store) => store.update);
  const saving = useSettingsStore((store) => store.saving.polling ?? false);
  const error = useSettingsStore((store) => store.errors.polling ?? null);
  const saved = useSettingsStore((store) => store.saved.polling ?? false);
  const clearFeedback = useSettingsStore((store) => store.clearFeedback);
  const serverErrors = fieldErrorsOf(error, FIELD_NAMES);
  const errors = { ...serverErrors, ...localErrors };
  const unplaced = unplacedFieldErrors(serverErrors, Object.values(FIELD_NAMES));

  const set = (field: keyof NumberDraft) => (value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setLocalErrors((current) => ({ ...current, [field]: undefined }));
    clearFeedback('polling');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const numbers = Object.fromEntries(
      (Object.entries(draft) as [keyof NumberDraft, string][]).map(([field, value]) => [
        field,
        numberOrText(value),
      ]),
    ) as Record<keyof NumberDraft, number>;
    // Only "not a whole number" is checked here (JSON cannot carry it); ranges are main's to judge.
    const notWhole = Object.fromEntries(
      Object.entries(numbers)
        .filter(([, value]) => !Number.isInteger(value))
        .map(([field]) => [field, 'Enter a whole number']),
    );
    setLocalErrors(notWhole);
    if (Object.keys(notWhole).length > 0) return;
    await update('polling', {
      polling: {
        usageMinutes: numbers.usageMinutes,
        topUpVerifyingSeconds: numbers.topUpVerifyingSeconds,
        topUpAwaitingPaymentSeconds: numbers.topUpAwaitingPaymentSeconds,
      },
      alerts: {
        trafficRemainingPercent: numbers.trafficRemainingPercent,
        expiryWarningDays: numbers.expiryWarningDays,
      },
    });
  };

  const numberField = (field: keyof NumberDraft, label: string, hint: string, unit: string) => (
    <TextField
      label={label}
      inputMode="numeric"
      value={draft[field]}
      onChange={set(field)}
      error={errors[field]}
      hint={hint}
      addon={<span className="field__unit">{unit}</span>}
      className="field--narrow"
    />
  );

  return (
    <section className="settings-section" aria-labelledby="polling-title">
      <h2 id="polling-title">Polling and alerts</h2>
      <form
        className="form"
        onSubmit={(event) => void submit(event)}
        noValidate
        aria-labelledby="polling-title"
      >
        {numberField('usageMinutes', 'Usage refresh', 'How often traffic usage is read.', 'minutes')}
        {numberField(
          'topUpVerifyingSeconds',
          'Top-up check while verifying',
          'The service asks for no less than 10 s.',
          'seconds',
        )}
        {numberField(
          'topUpAwaitingPaymentSeconds',
          'Top-up check while awaiting payment',
          'The service asks for no less than 30 s.',
          'seconds',
        )}
        {numberField(
          'trafficRemainingPercent',
          'Low-traffic alert',
          'Warn when a subscription has this share of its traffic left.',
          '% left',
        )}
        {numberField(
          'expiryWarningDays',
          'Expiry warning',
          'Warn this many days before a port or subscription expires.',
          'days before',
        )}
        {unplaced.length > 0 ? (
          <ul className="field__error" role="alert">
            {unplaced.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        ) : null}
        {error && !error.fields ? <ErrorMessage error={error} title="Could not save" /> : null}
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => {
              setDraft(draftOf(settings));
              setLocalErrors({});
              clearFeedback('polling');
            }}
          >
            Undo changes
          </button>
          {saved ? (
            <span role="status" className="text-ok">
              Saved.
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}

export function SettingsScreen() {
  const settings = useSettingsStore((store) => store.settings);
  const desktopMode = useAppStore((store) => store.state?.mode === 'desktop');
  const load = useSettingsStore((store) => store.load);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <Screen title="Settings" description="Profiles and keys, appearance, polling intervals and alerts.">
      <ProfilesPanel />
      <AsyncContent loadable={settings} what="settings" onRetry={() => void load(true)} isEmpty={() => false}>
        {(view) => {
          const desktop = desktopMode ? view.desktop : undefined;
          return (
            <>
              <ThemeSection theme={view.theme} />
              {desktop ? <DesktopSection preferences={desktop} /> : null}
              <PollingSection settings={view} />
            </>
          );
        }}
      </AsyncContent>
    </Screen>
  );
}
