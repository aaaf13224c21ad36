import { useState } from 'react';
import type { SubUserRow } from '../../../../src-shared/contract';
import type { IpcError } from '../../../../src-shared/contract';
import { TextField } from '../../shared/components/TextField';
import { fieldErrorsOf } from '../../shared/field-errors';
import { CapField } from './CapField';
import { SubUserFormErrors } from './SubUserFormErrors';
import { bytesToGb, capOf, type CapInput, SUB_USER_FIELD_ALIASES } from './sub-user-input';
import { useSubscriptionsStore } from './subscriptions-store';

export function EditSubUserForm({
  subscriptionId,
  subUser,
  onDone,
}: {
  subscriptionId: string;
  subUser: SubUserRow;
  onDone: () => void;
}) {
  const updateSubUser = useSubscriptionsStore((store) => store.updateSubUser);
  const [label, setLabel] = useState(subUser.label);
  const [cap, setCap] = useState<CapInput>({
    amount: subUser.trafficLimitBytes === null ? '' : bytesToGb(subUser.trafficLimitBytes),
    unit: 'GB',
  });
  const [error, setError] = useState<IpcError | null>(null);
  const errors = fieldErrorsOf(error, SUB_USER_FIELD_ALIASES);
  const submit = async () => {
    const result = await updateSubUser({
      subscriptionId,
      subUserId: subUser.id,
      ...(label !== subUser.label ? { label } : {}),
      trafficLimit: capOf(cap),
    });
    if (result.ok) onDone();
    else setError(result.error);
  };
  return (
    <form
      className="form card"
      aria-label={`Edit ${subUser.label}`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextField label="Label" value={label} onChange={setLabel} error={errors.label} />
      <CapField value={cap} onChange={setCap} error={errors.cap} />
      <SubUserFormErrors error={error} placed={['label', 'cap']} />
      <div className="form__actions">
        <button type="submit" className="button">
          Save
        </button>
        <button type="button" className="button button--quiet" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
