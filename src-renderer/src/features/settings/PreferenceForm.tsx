import { useState, type FormEvent, type ReactNode } from 'react';
import type { SettingsView } from '../../../../src-shared/contract';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { TextField } from '../../shared/components/TextField';
import { UnplacedErrors } from '../../shared/components/UnplacedErrors';
import { fieldErrorsOf, unplacedFieldErrors } from '../../shared/field-errors';
import { type SettingsSection, type SettingsUpdate, useSettingsStore } from './settings-store';

type Group = 'polling' | 'alerts' | 'proxyTest' | 'healthChecks';

/**
 * One text field of a preference form. `name` is main's name for it (`polling.usageMinutes`), so a
 * field error from main lands on the field without a table of aliases.
 */
export interface PreferenceField {
  name: `${Group}.${string}`;
  label: string;
  unit?: string;
  hint: ReactNode;
  /**
   * `whole`: a whole number (JSON cannot say "not a number", so that one check is the form's);
   * `gb`: a decimal string sent as typed, empty turns it off (null); `text`: sent as typed;
   * `optional-text`: sent as typed, empty is null (e.g. "use the default URL").
   * Ranges and formats are main's to judge: its messages show on the field.
   */
  kind: 'whole' | 'gb' | 'text' | 'optional-text';
  read: (settings: SettingsView) => string;
  inputMode?: 'numeric' | 'decimal' | 'url';
  className?: string;
}

function valueOf(field: PreferenceField, text: string): number | string | null {
  const trimmed = text.trim();
  if (field.kind === 'whole') return trimmed === '' ? Number.NaN : Number(trimmed);
  if (field.kind === 'gb' || field.kind === 'optional-text') return trimmed === '' ? null : trimmed;
  return trimmed;
}

function describe(field: PreferenceField, value: number | string | null): string {
  if (value === null) return `${field.label}: off`;
  return `${field.label}: ${value}${field.unit ? ` ${field.unit}` : ''}`;
}

/**
 * Preferences typed into fields: each applies when its field is left or Enter is pressed (only the
 * fields that changed are sent), and the undo toast offers the way back. No Save button.
 */
export function PreferenceForm({
  section,
  labelledBy,
  fields,
  settings,
  children,
}: {
  section: SettingsSection;
  /** The id of the heading that names the form. */
  labelledBy: string;
  fields: readonly PreferenceField[];
  settings: SettingsView;
  children?: ReactNode;
}) {
  const initial = () => Object.fromEntries(fields.map((field) => [field.name, field.read(settings)]));
  const [draft, setDraft] = useState<Record<string, string>>(initial);
  const [localErrors, setLocalErrors] = useState<Record<string, string | undefined>>({});
  const update = useSettingsStore((store) => store.update);
  const error = useSettingsStore((store) => store.errors[section] ?? null);
  const clearFeedback = useSettingsStore((store) => store.clearFeedback);
  const serverErrors = fieldErrorsOf(error);
  const names = fields.map((field) => field.name);
  const unplaced = unplacedFieldErrors(serverErrors, names);

  const set = (name: string) => (value: string) => {
    setDraft((current) => ({ ...current, [name]: value }));
    setLocalErrors((current) => ({ ...current, [name]: undefined }));
    clearFeedback(section);
  };

  const commit = async () => {
    const changed = fields.filter((field) => (draft[field.name] ?? '').trim() !== field.read(settings));
    if (changed.length === 0) return;
    const values = new Map(changed.map((field) => [field, valueOf(field, draft[field.name] ?? '')]));
    const notWhole = Object.fromEntries(
      changed
        .filter((field) => field.kind === 'whole' && !Number.isInteger(values.get(field)))
        .map((field) => [field.name, 'Enter a whole number']),
    );
    setLocalErrors(notWhole);
    if (Object.keys(notWhole).length > 0) return;
    // Main's schema judges the values; the renderer only groups them as the contract nests them.
    const patch: SettingsUpdate = {};
    for (const [field, value] of values) {
      const [group, key] = field.name.split('.') as [Group, string];
      Object.assign(patch, { [group]: { ...patch[group], [key]: value } });
    }
    const description = [...values].map(([field, value]) => describe(field, value)).join(', ');
    await update(section, patch, description);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void commit();
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-labelledby={labelledBy}>
      {fields.map((field) => (
        <TextField
          key={field.name}
          name={field.name}
          label={field.label}
          inputMode={field.inputMode ?? 'numeric'}
          value={draft[field.name] ?? ''}
          onChange={set(field.name)}
          onBlur={() => void commit()}
          onKeyDown={(event) => {
            // Enter applies; a form of several fields has no implicit submit without a button.
            if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void commit();
            }
          }}
          error={localErrors[field.name] ?? serverErrors[field.name]}
          hint={field.hint}
          addon={field.unit ? <span className="field__unit">{field.unit}</span> : undefined}
          className={field.className ?? 'field--narrow'}
        />
      ))}
      {children}
      <UnplacedErrors messages={unplaced} />
      {error && !error.fields ? <ErrorMessage error={error} title="Could not save" /> : null}
    </form>
  );
}
