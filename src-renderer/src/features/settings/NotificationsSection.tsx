import type { SettingsView } from '../../../../src-shared/contract';
import { CheckboxOption } from '../../shared/components/CheckboxOption';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { fieldErrorsOf, unplacedFieldErrors } from '../../shared/field-errors';
import { useSettingsStore } from './settings-store';

type NotificationKind = keyof SettingsView['notifications'];

/** One switch per kind the settings have, in the words of the notices themselves. */
const KINDS: readonly { kind: NotificationKind; label: string; hint: string }[] = [
  {
    kind: 'rotation-new-ip',
    label: 'A rotation gave a new IP',
    hint: 'After a rotation started from the tray, the shortcut or a schedule: the old IP and the new one.',
  },
  {
    kind: 'rotation-same-ip',
    label: 'A rotation kept the same IP',
    hint: 'The carrier handed back the IP the port already had; you can rotate again after the cooldown.',
  },
  {
    kind: 'rotation-failed',
    label: 'A rotation failed',
    hint: 'A rotation from the tray, the shortcut or a schedule did not go through, with the reason.',
  },
  {
    kind: 'relocation-done',
    label: 'A port finished moving',
    hint: 'A relocation to another country, city or carrier is done, or failed.',
  },
  {
    kind: 'port-health',
    label: 'A port went down or came back up',
    hint: 'Its health checks failed in a row, or passed again after it was down.',
  },
];

/**
 * Which OS notifications the app shows (desktop only: web mode shows none). A switch applies at
 * once, like every preference; a refused change is shown under its switch.
 */
export function NotificationsSection({ settings }: { settings: SettingsView }) {
  const update = useSettingsStore((store) => store.update);
  const saving = useSettingsStore((store) => store.saving.notifications ?? false);
  const error = useSettingsStore((store) => store.errors.notifications ?? null);
  const fields = fieldErrorsOf(error);
  const fieldOf = (kind: NotificationKind) => `notifications.${kind}`;
  const unplaced = unplacedFieldErrors(
    fields,
    KINDS.map(({ kind }) => fieldOf(kind)),
  );
  return (
    <section className="settings-section" aria-labelledby="notifications-title">
      <h2 id="notifications-title" tabIndex={-1}>
        Notifications
      </h2>
      <p className="muted small">
        Shown by your system while no window of the app has focus (the window shows the same news itself).
        Usage alerts follow their switches under Alerts; a top-up’s outcome is always told.
      </p>
      {KINDS.map(({ kind, label, hint }) => (
        <CheckboxOption
          key={kind}
          label={label}
          hint={hint}
          checked={settings.notifications[kind]}
          disabled={saving}
          error={fields[fieldOf(kind)]}
          onChange={(checked) =>
            void update(
              'notifications',
              { notifications: { [kind]: checked } },
              `Notify when ${label.charAt(0).toLowerCase()}${label.slice(1)}: ${checked ? 'on' : 'off'}`,
            )
          }
        />
      ))}
      {error && (unplaced.length > 0 || !error.fields) ? (
        <ErrorMessage error={error} title="Could not change the notifications" />
      ) : null}
    </section>
  );
}
