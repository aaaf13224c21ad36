import { useId } from 'react';

export interface RadioOption<V extends string> {
  value: V;
  label: string;
  disabled?: boolean;
  description?: string;
}

interface RadioGroupProps<V extends string> {
  legend: string;
  value: V;
  options: readonly RadioOption<V>[];
  onChange: (value: V) => void;
  /** Segmented look (a row of toggles) instead of a list. */
  segmented?: boolean;
  hideLegend?: boolean;
  error?: string | undefined;
}

/** Native radios in a fieldset: arrow keys, labels and the group name come from the browser. */
export function RadioGroup<V extends string>({
  legend,
  value,
  options,
  onChange,
  segmented = false,
  hideLegend = false,
  error,
}: RadioGroupProps<V>) {
  const name = useId();
  const errorId = `${name}-error`;
  return (
    <fieldset
      className={segmented ? 'radio-group radio-group--segmented' : 'radio-group'}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className={hideLegend ? 'visually-hidden' : undefined}>{legend}</legend>
      <div className="radio-group__options">
        {options.map((option) => {
          const descriptionId = `${name}-${option.value}-description`;
          return (
            <div key={option.value} className="radio-group__item">
              <label className="radio-group__option">
                <input
                  type="radio"
                  name={name}
                  value={option.value}
                  checked={option.value === value}
                  disabled={option.disabled}
                  aria-describedby={option.description ? descriptionId : undefined}
                  onChange={() => onChange(option.value)}
                />
                <span>{option.label}</span>
              </label>
              {/* Outside the label: the option's name stays its label, the description is read after it. */}
              {option.description ? (
                <p id={descriptionId} className="radio-group__description">
                  {option.description}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
