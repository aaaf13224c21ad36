import { useState } from 'react';
import type { IpcError } from '../../../../src-shared/contract';
import { PasswordField } from '../../shared/components/PasswordField';
import { TextField } from '../../shared/components/TextField';
import { fieldErrorsOf } from '../../shared/field-errors';
import { CapField } from './CapField';
import { SubUserFormErrors } from './SubUserFormErrors';
import { capOf, type CapInput, SUB_USER_FIELD_ALIASES } from './sub-user-input';
import { useSubscriptionsStore } from './subscriptions-store';

export function CreateSubUserForm({
  subscriptionId,
  onDone,
}: {
  subscriptionId: string;
  onDone: () => void;
}) {
  const createSubUser = useSubscriptionsStore((store) => store.createSubUser);
  const [label, setLabel] = useState('');
  const [password, setPassword] = useState('');
  const [cap, setCap] = useState<CapInput>({ amount: '', unit: 'GB' });
  const [error, setError] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);
  const errors = fieldErrorsOf(error, SUB_USER_FIELD_ALIASES);
  const submit = async () => {
    setBusy(true);
    const result = await createSubUser({
      subscriptionId,
      label,
      ...(password === '' ? {} : { password }),
      trafficLimit: capOf(cap),
    });
    setBusy(false);
    if (result.ok) onDone();
    else setError(result.error);
  };
  return (
    <form
      className="form card"
      aria-label="New sub-user"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextField label="Label" value={label} onChange={setLabel} required error={errors.label} />
      <PasswordField
        label="Password"
        value={password}
        onChange={setPassword}
        error={errors.password}
        hint="Up to 64 characters; leave empty to have one generated."
      />
      <CapField value={cap} onChange={setCap} error={errors.cap} />
      <SubUserFormErrors error={error} placed={['label', 'password', 'cap']} />
      <div className="form__actions">
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Creating…' : 'Create sub-user'}
        </button>
        <button type="button" className="button button--quiet" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
