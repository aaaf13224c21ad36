import { useEffect } from 'react';
import type { DesktopPreferences, SettingsView } from '../../../../src-shared/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { RadioGroup } from '../../shared/components/RadioGroup';
import { Screen } from '../../shared/components/Screen';
import { useAppStore } from '../app/app-store';
import { ProfilesPanel } from '../profiles/ProfilesPanel';
import { AlertsSection } from './AlertsSection';
import { AutomationSection } from './AutomationSection';
import { CheckboxOption } from './CheckboxOption';
import { HealthChecksSection } from './HealthChecksSection';
import { PreferenceForm, type PreferenceField } from './PreferenceForm';
import { useSettingsStore } from './settings-store';

type Theme = SettingsView['theme'];
type Density = SettingsView['density'];

const THEME_LABELS: Record<Theme, string> = { system: 'follow the system', light: 'light', dark: 'dark' };

const DENSITY_LABELS: Record<Density, string> = { comfortable: 'comfortable', compact: 'compact' };

function AppearanceSection({ theme, density }: { theme: Theme; density: Density }) {
  const update = useSettingsStore((store) => store.update);
  const error = useSettingsStore((store) => store.errors.theme ?? null);
  const densityError = useSettingsStore((store) => store.errors.density ?? null);
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
      <RadioGroup
        legend="Table rows"
        value={density}
        onChange={(value) =>
          void update('density', { density: value }, `Table rows: ${DENSITY_LABELS[value]}`)
        }
        options={[
          {
            value: 'comfortable',
            label: 'Comfortable',
            description: 'Two lines where a row has details (a port’s id, when its IP changed).',
          },
          {
            value: 'compact',
            label: 'Compact',
            description: 'One line per row, details in the port’s page: many more ports fit on the screen.',
          },
        ]}
      />
      {densityError ? <ErrorMessage error={densityError} title="Could not change the table rows" /> : null}
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

/** Only in the desktop app: web mode has no tray, no login items and no window to minimize. */
function DesktopSection({ preferences }: { preferences: DesktopPreferences }) {
  const update = useSettingsStore((store) => store.update);
  const saving = useSettingsStore((store) => store.saving.desktop ?? false);
  const error = useSettingsStore((store) => store.errors.desktop ?? null);
  return (
    <section className="settings-section" aria-labelledby="desktop-title">
      <h2 id="desktop-title">Desktop</h2>
      {DESKTOP_OPTIONS.map((option) => (
        <CheckboxOption
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

const POLLING_FIELDS: readonly PreferenceField[] = [
  {
    name: 'polling.usageVisibleMinutes',
    label: 'Usage refresh, window open',
    unit: 'minutes',
    kind: 'whole',
    hint: 'How often traffic usage is read (and alerts checked) while a window shows. Web mode always uses this one.',
    read: (s) => String(s.polling.usageVisibleMinutes),
  },
  {
    name: 'polling.usageMinutes',
    label: 'Usage refresh, in the tray',
    unit: 'minutes',
    kind: 'whole',
    hint: 'The same, while the app runs in the tray with no window.',
    read: (s) => String(s.polling.usageMinutes),
  },
  {
    name: 'polling.topUpVerifyingSeconds',
    label: 'Top-up check while verifying',
    unit: 'seconds',
    kind: 'whole',
    hint: 'The service asks for no less than 10 s.',
    read: (s) => String(s.polling.topUpVerifyingSeconds),
  },
  {
    name: 'polling.topUpAwaitingPaymentSeconds',
    label: 'Top-up check while awaiting payment',
    unit: 'seconds',
    kind: 'whole',
    hint: 'The service asks for no less than 30 s.',
    read: (s) => String(s.polling.topUpAwaitingPaymentSeconds),
  },
];

const PROXY_TEST_FIELDS: readonly PreferenceField[] = [
  {
    name: 'proxyTest.ipEchoUrl',
    label: 'IP-echo URL',
    kind: 'text',
    inputMode: 'url',
    className: 'field--wide',
    hint: 'Asked through the proxy by “Test this proxy” to learn its exit IP (real accounts; the demo uses the sandbox’s own echo). https://, or http:// only to this computer.',
    read: (s) => s.proxyTest.ipEchoUrl,
  },
];

/** Keyed by the values: an undo or a change from another window shows in the fields. */
const valuesKey = (fields: readonly PreferenceField[], settings: SettingsView) =>
  JSON.stringify(fields.map((field) => field.read(settings)));

function PollingSection({ settings }: { settings: SettingsView }) {
  return (
    <section className="settings-section" aria-labelledby="polling-title">
      <h2 id="polling-title">Polling</h2>
      <PreferenceForm
        key={valuesKey(POLLING_FIELDS, settings)}
        section="polling"
        labelledBy="polling-title"
        fields={POLLING_FIELDS}
        settings={settings}
      />
    </section>
  );
}

function ProxyTestSection({ settings }: { settings: SettingsView }) {
  return (
    <section className="settings-section" aria-labelledby="proxy-test-title">
      <h2 id="proxy-test-title">Proxy test</h2>
      <PreferenceForm
        key={valuesKey(PROXY_TEST_FIELDS, settings)}
        section="proxyTest"
        labelledBy="proxy-test-title"
        fields={PROXY_TEST_FIELDS}
        settings={settings}
      />
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
      description="Profiles and keys, appearance, polling, alerts, the proxy test and automation. Preferences apply as soon as you change them; Undo puts the last change back."
    >
      <ProfilesPanel />
      <AsyncContent loadable={settings} what="settings" onRetry={() => void load(true)} isEmpty={() => false}>
        {(view) => {
          const desktop = desktopMode ? view.desktop : undefined;
          return (
            <>
              <AppearanceSection theme={view.theme} density={view.density} />
              {desktop ? <DesktopSection preferences={desktop} /> : null}
              <PollingSection settings={view} />
              <AlertsSection settings={view} />
              <ProxyTestSection settings={view} />
              <HealthChecksSection settings={view} />
              <AutomationSection />
              <UndoToast />
            </>
          );
        }}
      </AsyncContent>
    </Screen>
  );
}
