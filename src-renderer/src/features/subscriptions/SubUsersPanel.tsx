import { useMemo, useState } from 'react';
import type { SubUser, Subscription } from '../../../../src-shared/api-types';
import type { CredentialFormat, IpcError } from '../../../../src-shared/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { PasswordField } from '../../shared/components/PasswordField';
import { TextField } from '../../shared/components/TextField';
import { Time } from '../../shared/components/Time';
import { fieldErrorsOf, unplacedFieldErrors } from '../../shared/field-errors';
import { formatBytes, percentOf } from '../../shared/format/format';
import { useLoadable } from '../../shared/loadable-slice';
import { type SaveOutcome, useAppStore } from '../app/app-store';
import { SaveOutcomeMessage } from '../app/SaveOutcomeMessage';
import { FORMAT_LABELS } from './SubscriptionDetail';
import { subUserLists, useSubscriptionsStore } from './subscriptions-store';
import { DataTable, type DataColumn } from '../../shared/components/DataTable';

type Unit = 'MB' | 'GB';

/** Main's field names (`trafficLimit.amount`) to the form's. */
const FIELD_ALIASES = { trafficLimit: 'cap', 'trafficLimit.amount': 'cap', 'trafficLimit.unit': 'cap' };

/** "20 sub-users at most" when the service says so; the number as it comes. */
export function limitText(limit: number | null): string | null {
  return limit === null ? null : `${limit} sub-user${limit === 1 ? '' : 's'} at most`;
}

export function CapBar({ subUser }: { subUser: SubUser }) {
  const cap = subUser.trafficLimitBytes;
  if (cap === null) {
    return (
      <span>
        {formatBytes(subUser.trafficUsedBytes)} used · <span className="muted">no cap</span>
      </span>
    );
  }
  const percent = percentOf(subUser.trafficUsedBytes, cap);
  const text = `${formatBytes(subUser.trafficUsedBytes)} of ${formatBytes(cap)}`;
  return (
    <div className="traffic">
      <meter
        className="traffic__meter"
        min={0}
        max={Math.max(cap, 1)}
        value={Math.min(subUser.trafficUsedBytes, Math.max(cap, 1))}
        high={cap * 0.8}
        optimum={0}
        aria-label={`Cap used: ${text}`}
      />
      <span className="traffic__text" title={`${subUser.trafficUsedBytes} of ${cap} bytes`}>
        {text}
        {percent === null ? '' : ` (${percent}%)`}
      </span>
    </div>
  );
}

/** Exact bytes as a decimal GB string (1500000000 -> "1.5"), without floating point. */
export function bytesToGb(bytes: number): string {
  const digits = String(bytes).padStart(10, '0');
  const whole = digits.slice(0, -9).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(-9).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

interface CapInput {
  amount: string;
  unit: Unit;
}

/** Empty means no cap; anything else goes to main as typed, which turns it into exact bytes. */
const capOf = ({ amount, unit }: CapInput) => (amount.trim() === '' ? null : { amount: amount.trim(), unit });

function CapField({
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
          onChange={(event) => onChange({ ...value, unit: event.target.value as Unit })}
        >
          <option value="MB">MB</option>
          <option value="GB">GB</option>
        </select>
      }
    />
  );
}

function FormErrors({ error, placed }: { error: IpcError | null; placed: string[] }) {
  if (!error) return null;
  const unplaced = unplacedFieldErrors(fieldErrorsOf(error, FIELD_ALIASES), placed);
  if (error.fields && unplaced.length === 0) return null;
  return <ErrorMessage error={unplaced.length > 0 ? { ...error, message: unplaced.join(' ') } : error} />;
}

function CreateSubUserForm({ subscriptionId, onDone }: { subscriptionId: string; onDone: () => void }) {
  const createSubUser = useSubscriptionsStore((store) => store.createSubUser);
  const [label, setLabel] = useState('');
  const [password, setPassword] = useState('');
  const [cap, setCap] = useState<CapInput>({ amount: '', unit: 'GB' });
  const [error, setError] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);
  const errors = fieldErrorsOf(error, FIELD_ALIASES);
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
      <FormErrors error={error} placed={['label', 'password', 'cap']} />
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

function BulkCreateForm({ subscriptionId, onDone }: { subscriptionId: string; onDone: () => void }) {
  const createSubUsers = useSubscriptionsStore((store) => store.createSubUsers);
  const [prefix, setPrefix] = useState('user-');
  const [count, setCount] = useState('5');
  const [cap, setCap] = useState<CapInput>({ amount: '', unit: 'GB' });
  const [error, setError] = useState<IpcError | null>(null);
  const [report, setReport] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errors = fieldErrorsOf(error, { ...FIELD_ALIASES, labelPrefix: 'prefix' });
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
      <FormErrors error={error} placed={['prefix', 'count', 'cap']} />
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

function EditSubUserForm({
  subscriptionId,
  subUser,
  onDone,
}: {
  subscriptionId: string;
  subUser: SubUser;
  onDone: () => void;
}) {
  const updateSubUser = useSubscriptionsStore((store) => store.updateSubUser);
  const [label, setLabel] = useState(subUser.label);
  const [cap, setCap] = useState<CapInput>({
    amount: subUser.trafficLimitBytes === null ? '' : bytesToGb(subUser.trafficLimitBytes),
    unit: 'GB',
  });
  const [error, setError] = useState<IpcError | null>(null);
  const errors = fieldErrorsOf(error, FIELD_ALIASES);
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
      <FormErrors error={error} placed={['label', 'cap']} />
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

type Panel =
  | { kind: 'none' }
  | { kind: 'create' }
  | { kind: 'bulk' }
  | { kind: 'edit'; subUser: SubUser }
  | { kind: 'delete'; subUser: SubUser };

// Stable, so that the table's memoised keys survive re-renders.
const subUserKey = (s: SubUser) => s.id;
const subUserName = (s: SubUser) => s.label;

function SubUsersTable({ subscription, subUsers }: { subscription: Subscription; subUsers: SubUser[] }) {
  const updateSubUser = useSubscriptionsStore((store) => store.updateSubUser);
  const deleteSubUser = useSubscriptionsStore((store) => store.deleteSubUser);
  const exportCredentials = useSubscriptionsStore((store) => store.exportCredentials);
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [panel, setPanel] = useState<Panel>({ kind: 'none' });
  const [format, setFormat] = useState<CredentialFormat>('host_port_user_pass');
  const [error, setError] = useState<IpcError | null>(null);
  const [message, setMessage] = useState('');
  const saveTextFile = useAppStore((store) => store.saveTextFile);
  const [exported, setExported] = useState<{ outcome: SaveOutcome; rows: number } | null>(null);
  const rows = useMemo(() => {
    const needle = search.trim().toLocaleLowerCase();
    return needle === ''
      ? subUsers
      : subUsers.filter((s) => `${s.label} ${s.username}`.toLocaleLowerCase().includes(needle));
  }, [subUsers, search]);

  const act = async (what: string, run: () => Promise<{ ok: boolean; error?: IpcError }>) => {
    const result = await run();
    setError(result.ok ? null : (result.error ?? null));
    setMessage(result.ok ? what : '');
  };
  const exportSelected = async () => {
    const ids = subUsers.filter((s) => selected.has(s.id)).map((s) => s.id);
    const result = await exportCredentials({ subscriptionId: subscription.id, subUserIds: ids, format });
    setExported(null);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setError(null);
    setMessage('');
    const outcome = await saveTextFile({ fileName: result.value.fileName, content: result.value.text });
    setExported({ outcome, rows: result.value.rows });
  };

  const columns: DataColumn<SubUser>[] = [
    { id: 'label', header: 'Label', rowHeader: true, cell: (s) => s.label },
    { id: 'username', header: 'Username', cell: (s) => <code>{s.username}</code> },
    { id: 'enabled', header: 'Enabled', cell: (s) => (s.enabled ? 'Yes' : 'No') },
    { id: 'cap', header: 'Used / cap', cell: (s) => <CapBar subUser={s} /> },
    { id: 'created', header: 'Created', cell: (s) => <Time iso={s.createdAt} /> },
    {
      id: 'actions',
      header: 'Actions',
      cell: (s) => (
        <div className="row-actions">
          <button
            type="button"
            className="button button--quiet"
            aria-label={`Edit ${s.label}`}
            onClick={() => setPanel({ kind: 'edit', subUser: s })}
          >
            Edit
          </button>
          <button
            type="button"
            className="button button--quiet"
            aria-label={`${s.enabled ? 'Disable' : 'Enable'} ${s.label}`}
            onClick={() =>
              void act(`${s.label} ${s.enabled ? 'disabled' : 'enabled'}`, () =>
                updateSubUser({ subscriptionId: subscription.id, subUserId: s.id, enabled: !s.enabled }),
              )
            }
          >
            {s.enabled ? 'Disable' : 'Enable'}
          </button>
          <button
            type="button"
            className="button button--quiet"
            aria-label={`New password for ${s.label}`}
            onClick={() =>
              void act(`New password for ${s.label}`, () =>
                updateSubUser({ subscriptionId: subscription.id, subUserId: s.id, regeneratePassword: true }),
              )
            }
          >
            New password
          </button>
          <button
            type="button"
            className="button button--quiet button--danger"
            aria-label={`Delete ${s.label}`}
            onClick={() => setPanel({ kind: 'delete', subUser: s })}
          >
            Delete
          </button>
        </div>
      ),
    },
  ];

  return (
    <>
      <div className="toolbar">
        <label className="field field--inline">
          <span>Search sub-users</span>
          <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </label>
        <button type="button" className="button" onClick={() => setPanel({ kind: 'create' })}>
          New sub-user
        </button>
        <button type="button" className="button button--quiet" onClick={() => setPanel({ kind: 'bulk' })}>
          Create several…
        </button>
        <label className="field field--inline">
          <span>Export format</span>
          <select value={format} onChange={(event) => setFormat(event.target.value as CredentialFormat)}>
            {Object.entries(FORMAT_LABELS).map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button--quiet"
          disabled={selected.size === 0}
          onClick={() => void exportSelected()}
        >
          Export {selected.size} selected
        </button>
      </div>
      {panel.kind === 'create' ? (
        <CreateSubUserForm subscriptionId={subscription.id} onDone={() => setPanel({ kind: 'none' })} />
      ) : null}
      {panel.kind === 'bulk' ? (
        <BulkCreateForm subscriptionId={subscription.id} onDone={() => setPanel({ kind: 'none' })} />
      ) : null}
      {panel.kind === 'edit' ? (
        <EditSubUserForm
          key={panel.subUser.id}
          subscriptionId={subscription.id}
          subUser={panel.subUser}
          onDone={() => setPanel({ kind: 'none' })}
        />
      ) : null}
      {panel.kind === 'delete' ? (
        <div role="alertdialog" aria-label={`Delete ${panel.subUser.label}`} className="confirm card">
          <p>
            Delete <strong>{panel.subUser.label}</strong>? Its credentials stop working and it cannot be
            undone.
          </p>
          <button
            type="button"
            className="button button--danger"
            onClick={() => {
              const { subUser } = panel;
              setPanel({ kind: 'none' });
              void act(`${subUser.label} deleted`, () => deleteSubUser(subscription.id, subUser.id));
            }}
          >
            Delete
          </button>
          <button type="button" className="button button--quiet" onClick={() => setPanel({ kind: 'none' })}>
            Cancel
          </button>
        </div>
      ) : null}
      {error ? <ErrorMessage error={error} /> : null}
      <SaveOutcomeMessage
        outcome={exported?.outcome ?? null}
        failedTitle="Could not save the credentials"
        detail={exported ? `${exported.rows} credential lines.` : undefined}
      />
      <p role="status" className="muted small">
        {message}
      </p>
      {rows.length === 0 ? (
        <p className="empty">
          {subUsers.length === 0 ? 'No sub-users yet.' : `No sub-user matches “${search}”.`}
        </p>
      ) : (
        <DataTable
          label="Sub-users"
          rows={rows}
          columns={columns}
          rowKey={subUserKey}
          rowName={subUserName}
          selected={selected}
          onSelectedChange={setSelected}
          rowHeight={52}
        />
      )}
    </>
  );
}

export function SubUsersPanel({ subscription }: { subscription: Subscription }) {
  const { loadable, retry } = useLoadable(useSubscriptionsStore, subUserLists, subscription.id);
  const limit = loadable?.data ? limitText(loadable.data.limit) : null;
  return (
    <div className="stack">
      <p className="muted">
        {loadable?.data ? `${loadable.data.data.length} sub-users` : null}
        {limit ? ` · ${limit}` : null}
      </p>
      <AsyncContent loadable={loadable} what="sub-users" onRetry={retry} isEmpty={() => false}>
        {(view) => <SubUsersTable subscription={subscription} subUsers={view.data} />}
      </AsyncContent>
    </div>
  );
}
