import { useId, type ReactNode } from 'react';

/**
 * A labelled checkbox with a hint tied to it; the change applies at once (the caller's update). A
 * refused change's `error` is shown under it, announced and tied to it like a text field's.
 */
export function CheckboxOption({
  label,
  hint,
  checked,
  disabled,
  error,
  onChange,
}: {
  label: ReactNode;
  hint?: ReactNode;
  checked: boolean;
  disabled: boolean;
  error?: string | undefined;
  onChange: (checked: boolean) => void;
}) {
  const hintId = useId();
  const errorId = useId();
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="checkbox-field">
      <label>
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.checked)}
        />{' '}
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
