import type { IpcError } from '../../../src-shared/contract';

export type FieldErrors = Record<string, string>;

/**
 * The field errors of a failed call, keyed by the form's own field names. `aliases` maps the names
 * main uses (`key`, `polling.usageMinutes`) to the form's; unknown fields keep their own name.
 */
export function fieldErrorsOf(error: IpcError | null | undefined, aliases: Record<string, string> = {}) {
  const errors: FieldErrors = {};
  for (const { field, message } of error?.fields ?? []) {
    const name = aliases[field] ?? field;
    errors[name] ??= message;
  }
  return errors;
}

/** Field errors the form cannot place next to a field; shown in the form's summary instead. */
export function unplacedFieldErrors(errors: FieldErrors, placed: readonly string[]): string[] {
  return Object.entries(errors)
    .filter(([field]) => !placed.includes(field))
    .map(([field, message]) => (field === 'input' ? message : `${field}: ${message}`));
}
