import { useEffect, useState } from 'react';
import type { DesktopPreferences, SettingsView } from '../../../../src-shared/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { CheckboxOption } from '../../shared/components/CheckboxOption';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { RadioGroup } from '../../shared/components/RadioGroup';
import { Screen } from '../../shared/components/Screen';
import { useFromHash } from '../../shared/routes';
import { useAppStore } from '../app/app-store';
import { ProfilesPanel } from '../profiles/ProfilesPanel';
import { AlertChannelsSection } from '../alert-routing/AlertChannelsSection';
import { AlertsSection } from './AlertsSection';
import { AutomationSection } from './AutomationSection';
import { HealthChecksSection } from './HealthChecksSection';
import { NotificationsSection } from './NotificationsSection';
import { PreferenceForm, type PreferenceField } from './PreferenceForm';
import { useSettingsStore } from './settings-store';
import { TrayPinsSetting } from './TrayPinsSetting';
import { UpdatesSection } from '../updates/UpdatesSection';

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
      <h2 id="appearance-title" tabIndex={-1}>
        Appearance
      </h2>
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
      <h2 id="desktop-title" tabIndex={-1}>
        Desktop
      </h2>
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
      <TrayPinsSetting />
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
      <h2 id="polling-title" tabIndex={-1}>
        Polling
      </h2>
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
      <h2 id="proxy-test-title" tabIndex={-1}>
        Proxy test
      </h2>
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

/** How long the undo toast stays: long enough to read and reach Undo, short enough not to cover the screen. */
export const UNDO_TOAST_MS = 10_000;

/**
 * The last preference change, with Undo: preferences apply at once, so this is the way back. It goes
 * away on its own after a few seconds, but not while the pointer or the focus is on it.
 */
function UndoToast() {
  const change = useSettingsStore((store) => store.lastChange);
  const undoLast = useSettingsStore((store) => store.undoLast);
  const dismiss = useSettingsStore((store) => store.dismissLastChange);
  // Held for one change: a toast dismissed while hovered or focused does not hold the next one.
  const [heldFor, setHeldFor] = useState<typeof change>(null);
  const held = change !== null && heldFor === change;
  const setHeld = (on: boolean) => setHeldFor(on ? change : null);
  useEffect(() => {
    if (!change || held) return undefined;
    const timer = setTimeout(dismiss, UNDO_TOAST_MS);
    return () => clearTimeout(timer);
  }, [change, held, dismiss]);
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {change ? (
        <div
          className="toast"
          data-testid="settings-undo"
          onMouseEnter={() => setHeld(true)}
          onMouseLeave={() => setHeld(false)}
          onFocus={() => setHeld(true)}
          onBlur={() => setHeld(false)}
        >
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

/** The groups of Settings, in page order, each reached from the side navigation (`#/settings/alerts`). */
const SETTINGS_SECTIONS = [
  { id: 'profiles', label: 'Profiles', heading: 'profiles-title' },
  { id: 'appearance', label: 'Appearance', heading: 'appearance-title' },
  { id: 'desktop', label: 'Desktop', heading: 'desktop-title' },
  { id: 'notifications', label: 'Notifications', heading: 'notifications-title' },
  { id: 'polling', label: 'Polling', heading: 'polling-title' },
  { id: 'alerts', label: 'Alerts', heading: 'alerts-settings-title' },
  { id: 'alert-channels', label: 'Alert channels', heading: 'alert-channels-title' },
  { id: 'proxy-test', label: 'Proxy test', heading: 'proxy-test-title' },
  { id: 'health-checks', label: 'Health checks', heading: 'health-checks-title' },
  { id: 'automation', label: 'Automation', heading: 'automation-title' },
  { id: 'updates', label: 'Updates', heading: 'updates-title' },
] as const;
/** Groups of the desktop app only: web mode has no tray or login items, and shows no OS notifications. */
const DESKTOP_ONLY: ReadonlySet<string> = new Set(['desktop', 'notifications']);
type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number]['id'];

/** `#/settings/alerts` -> `alerts`; null on `#/settings` or a word that names no group. */
function sectionFromHash(hash: string): SettingsSectionId | null {
  const [screen, section] = hash.replace(/^#\/?/, '').split(/[/?]/);
  if (screen !== 'settings') return null;
  return SETTINGS_SECTIONS.find((known) => known.id === section)?.id ?? null;
}

/** Scrolls a group to the top and moves the focus to its heading, so the keyboard continues there. */
function reveal(id: SettingsSectionId): void {
  const heading = document.getElementById(SETTINGS_SECTIONS.find((s) => s.id === id)?.heading ?? '');
  heading?.closest('section')?.scrollIntoView?.({ block: 'start' });
  heading?.focus({ preventScroll: true });
}

/** The side navigation: a link per group (Back returns to the group before). */
function SettingsNav({ desktop, ready }: { desktop: boolean; ready: boolean }) {
  const current = useFromHash(sectionFromHash);
  const sections = SETTINGS_SECTIONS.filter((section) => desktop || !DESKTOP_ONLY.has(section.id));
  useEffect(() => {
    // Once the groups are there, and each time the address names another group.
    if (ready && current !== null) reveal(current);
  }, [current, ready]);
  return (
    <nav className="settings-nav" aria-label="Settings sections">
      <ul>
        {sections.map((section) => (
          <li key={section.id}>
            <a
              href={`#/settings/${section.id}`}
              aria-current={current === section.id ? 'location' : undefined}
              // The address does not change on a second click: the group is shown again all the same.
              onClick={() => {
                if (current === section.id) reveal(section.id);
              }}
            >
              {section.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
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
      description="Profiles and keys, appearance, polling, alerts, the proxy test, health checks, automation and updates. Preferences apply as soon as you change them; Undo puts the last change back."
    >
      <div className="settings-layout">
        <SettingsNav desktop={desktopMode} ready={settings.data !== null} />
        <div className="settings-layout__body">
          <ProfilesPanel />
          <AsyncContent
            loadable={settings}
            what="settings"
            onRetry={() => void load(true)}
            isEmpty={() => false}
          >
            {(view) => {
              const desktop = desktopMode ? view.desktop : undefined;
              return (
                <>
                  <AppearanceSection theme={view.theme} density={view.density} />
                  {desktop ? <DesktopSection preferences={desktop} /> : null}
                  {desktopMode ? <NotificationsSection settings={view} /> : null}
                  <PollingSection settings={view} />
                  <AlertsSection settings={view} />
                  <AlertChannelsSection />
                  <ProxyTestSection settings={view} />
                  <HealthChecksSection settings={view} />
                  <AutomationSection />
                  <UpdatesSection />
                  <UndoToast />
                </>
              );
            }}
          </AsyncContent>
        </div>
      </div>
    </Screen>
  );
}
