import { useState } from 'react';
import type { IpcError } from '../../../../src-shared/contract';
import { TextField } from '../../shared/components/TextField';
import { fieldErrorsOf } from '../../shared/field-errors';
import { CapField } from './CapField';
import { SubUserFormErrors } from './SubUserFormErrors';
import { capOf, type CapInput, limitText, SUB_USER_FIELD_ALIASES } from './sub-user-input';
import { useSubscriptionsStore } from './subscriptions-store';

export function BulkCreateSubUsersForm({
  subscriptionId,
  onDone,
}: {
  subscriptionId: string;
  onDone: () => void;
}) {
  const createSubUsers = useSubscriptionsStore((store) => store.createSubUsers);
  const [prefix, setPrefix] = useState('user-');
  const [count, setCount] = useState('5');
  const [cap, setCap] = useState<CapInput>({ amount: '', unit: 'GB' });
  const [error, setError] = useState<IpcError | null>(null);
  const [report, setReport] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errors = fieldErrorsOf(error, { ...SUB_USER_FIELD_ALIASES, labelPrefix: 'prefix' });
  const submit = async () => {
    setBusy(true);
    const result = await createSubUsers({
      subscriptionId,
      labelPrefix: prefix,
      count: Number(count),
      trafficLimit: capOf(cap),
    });
    setBusy(false);
    setError(result.ok ? null : result.error);
    if (result.ok) {
      const { created, notCreated, stoppedAtLimit, limit } = result.value;
      const stop = notCreated[0];
      setReport(
        `Created ${created.length}.` +
          (stop
            ? ` Not created: ${notCreated.length}${stoppedAtLimit ? ` (${limitText(limit) ?? 'the limit'} reached)` : ''}: ${stop.error.message}`
            : ''),
      );
    }
  };
  return (
    <form
      className="form card"
      aria-label="Create several sub-users"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextField
        label="Label prefix"
        value={prefix}
        onChange={setPrefix}
        error={errors.prefix}
        hint="Labels are the prefix and a number."
      />
      <TextField
        label="How many"
        value={count}
        onChange={setCount}
        inputMode="numeric"
        error={errors.count}
      />
      <CapField value={cap} onChange={setCap} error={errors.cap} />
      <SubUserFormErrors error={error} placed={['prefix', 'count', 'cap']} />
      {report ? <p role="status">{report}</p> : null}
      <div className="form__actions">
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Creating…' : 'Create'}
        </button>
        <button type="button" className="button button--quiet" onClick={onDone}>
          Close
        </button>
      </div>
    </form>
  );
}
