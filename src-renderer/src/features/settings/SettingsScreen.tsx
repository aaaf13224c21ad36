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

const THEME_LABELS: Record<Theme, string> = { system: 'follow the system', light: 'light', dark: 'dark' };

function ThemeSection({ theme }: { theme: Theme }) {
  const update = useSettingsStore((store) => store.update);
  const error = useSettingsStore((store) => store.errors.theme ?? null);
  return (
    <section className="settings-section" aria-labelledby="appearance-title">
      <h2 id="appearance-title">Appearance</h2>
      <RadioGroup
        legend="Theme"
        value={theme}
        onChange={(value) => void update('theme', { theme: value }, `Theme: ${THEME_LABELS[value]}`)}
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
          onChange={(checked) =>
            void update(
              'desktop',
              { desktop: { [option.key]: checked } },
              `${option.label}: ${checked ? 'on' : 'off'}`,
            )
          }
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

const NUMBER_LABELS: Record<keyof NumberDraft, { label: string; unit: string }> = {
  usageMinutes: { label: 'Usage refresh', unit: 'minutes' },
  topUpVerifyingSeconds: { label: 'Top-up check while verifying', unit: 'seconds' },
  topUpAwaitingPaymentSeconds: { label: 'Top-up check while awaiting payment', unit: 'seconds' },
  trafficRemainingPercent: { label: 'Low-traffic alert', unit: '% left' },
  expiryWarningDays: { label: 'Expiry warning', unit: 'days before' },
};

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
  const clearFeedback = useSettingsStore((store) => store.clearFeedback);
  const serverErrors = fieldErrorsOf(error, FIELD_NAMES);
  const errors = { ...serverErrors, ...localErrors };
  const unplaced = unplacedFieldErrors(serverErrors, Object.values(FIELD_NAMES));

  const set = (field: keyof NumberDraft) => (value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setLocalErrors((current) => ({ ...current, [field]: undefined }));
    clearFeedback('polling');
  };

  // Applies the fields that changed (on leaving a field, or Enter); the toast offers Undo.
  const commit = async () => {
    const current = draftOf(settings);
    const changed = (Object.keys(draft) as (keyof NumberDraft)[]).filter(
      (field) => draft[field].trim() !== current[field],
    );
    if (changed.length === 0) return;
    const numbers = Object.fromEntries(
      (Object.entries(draft) as [keyof NumberDraft, string][]).map(([field, value]) => [
        field,
        numberOrText(value),
      ]),
    ) as Record<keyof NumberDraft, number>;
    // Only "not a whole number" is checked here (JSON cannot carry it); ranges are main's to judge.
    const notWhole = Object.fromEntries(
      changed
        .filter((field) => !Number.isInteger(numbers[field]))
        .map((field) => [field, 'Enter a whole number']),
    );
    setLocalErrors(notWhole);
    if (Object.keys(notWhole).length > 0) return;
    const description = changed
      .map((field) => `${NUMBER_LABELS[field].label}: ${numbers[field]} ${NUMBER_LABELS[field].unit}`)
      .join(', ');
    await update(
      'polling',
      {
        polling: {
          usageMinutes: numbers.usageMinutes,
          topUpVerifyingSeconds: numbers.topUpVerifyingSeconds,
          topUpAwaitingPaymentSeconds: numbers.topUpAwaitingPaymentSeconds,
        },
        alerts: {
          trafficRemainingPercent: numbers.trafficRemainingPercent,
          expiryWarningDays: numbers.expiryWarningDays,
        },
      },
      description,
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void commit();
  };

  const numberField = (field: keyof NumberDraft, hint: string) => (
    <TextField
      label={NUMBER_LABELS[field].label}
      inputMode="numeric"
      value={draft[field]}
      onChange={set(field)}
      onBlur={() => void commit()}
      error={errors[field]}
      hint={hint}
      addon={<span className="field__unit">{NUMBER_LABELS[field].unit}</span>}
      className="field--narrow"
    />
  );

  return (
    <section className="settings-section" aria-labelledby="polling-title">
      <h2 id="polling-title">Polling and alerts</h2>
      <form className="form" onSubmit={submit} noValidate aria-labelledby="polling-title">
        {numberField('usageMinutes', 'How often traffic usage is read.')}
        {numberField('topUpVerifyingSeconds', 'The service asks for no less than 10 s.')}
        {numberField('topUpAwaitingPaymentSeconds', 'The service asks for no less than 30 s.')}
        {numberField(
          'trafficRemainingPercent',
          'Warn when a subscription has this share of its traffic left.',
        )}
        {numberField('expiryWarningDays', 'Warn this many days before a port or subscription expires.')}
        {unplaced.length > 0 ? (
          <ul className="field__error" role="alert">
            {unplaced.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        ) : null}
        {error && !error.fields ? <ErrorMessage error={error} title="Could not save" /> : null}
        {/* Enter applies too; the button is for keyboard users who expect one, not a second Save. */}
        <button type="submit" className="visually-hidden" tabIndex={-1} disabled={saving}>
          Apply
        </button>
      </form>
    </section>
  );
}

/** The last preference change, with Undo: preferences apply at once, so this is the way back. */
function UndoToast() {
  const change = useSettingsStore((store) => store.lastChange);
  const undoLast = useSettingsStore((store) => store.undoLast);
  const dismiss = useSettingsStore((store) => store.dismissLastChange);
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {change ? (
        <div className="toast" data-testid="settings-undo">
          <span>Applied. {change.description}.</span>
          <button type="button" className="button" onClick={() => void undoLast()}>
            Undo
          </button>
          <button type="button" className="button button--link" onClick={dismiss} aria-label="Dismiss">
            ×
          </button>
        </div>
      ) : null}
    </div>
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
    <Screen
      title="Settings"
      description="Profiles and keys, appearance, polling intervals and alerts. Preferences apply as soon as you change them; Undo puts the last change back."
    >
      <ProfilesPanel />
      <AsyncContent loadable={settings} what="settings" onRetry={() => void load(true)} isEmpty={() => false}>
        {(view) => {
          const desktop = desktopMode ? view.desktop : undefined;
          return (
            <>
              <ThemeSection theme={view.theme} />
              {desktop ? <DesktopSection preferences={desktop} /> : null}
              {/* Keyed by the values: an undo or a change from another window shows in the fields. */}
              <PollingSection key={JSON.stringify([view.polling, view.alerts])} settings={view} />
              <UndoToast />
            </>
          );
        }}
      </AsyncContent>
    </Screen>
  );
}
