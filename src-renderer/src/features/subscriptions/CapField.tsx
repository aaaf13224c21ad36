import { TextField } from '../../shared/components/TextField';
import type { CapInput, CapUnit } from './sub-user-input';

/** A sub-user's traffic cap: the amount as typed and its unit. */
export function CapField({
  value,
  onChange,
  error,
}: {
  value: CapInput;
  onChange: (value: CapInput) => void;
  error?: string | undefined;
}) {
  return (
    <TextField
      label="Traffic cap"
      value={value.amount}
      inputMode="decimal"
      placeholder="no cap"
      onChange={(amount) => onChange({ ...value, amount })}
      error={error}
      hint="Decimal, as billed: 1 GB = 1,000,000,000 bytes. Empty for no cap."
      addon={
        <select
          aria-label="Cap unit"
          value={value.unit}
          onChange={(event) => onChange({ ...value, unit: event.target.value as CapUnit })}
        >
          <option value="MB">MB</option>
          <option value="GB">GB</option>
        </select>
      }
    />
  );
}
