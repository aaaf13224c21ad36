import { useState } from 'react';
import './sub-users-table.css';
import type { Subscription } from '../../../../src-shared/api-types';
import type { CredentialFormat, IpcError, SubUserRow } from '../../../../src-shared/contract';
import { DataTable, type DataColumn, type DataFilter } from '../../shared/table/DataTable';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { Time } from '../../shared/components/Time';
import { SaveOutcomeMessage } from '../../shared/components/SaveOutcomeMessage';
import { useAppStore } from '../app/app-store';
import { BulkCreateSubUsersForm } from './BulkCreateSubUsersForm';
import { LocalProxyAction } from '../local-proxies/LocalProxyAction';
import { CapBar } from './CapBar';
import { CreateSubUserForm } from './CreateSubUserForm';
import { EditSubUserForm } from './EditSubUserForm';
import { CredentialFormatSelect } from './CredentialFormatSelect';
import { useSubscriptionsStore } from './subscriptions-store';
import { capOf, type CapInput, type CapUnit } from './sub-user-input';
import { BulkActions, type BulkAction } from '../../shared/bulk/BulkActions';
import type { BulkItem } from '../../shared/bulk/bulk-run';
import { useBulkStore } from '../../shared/bulk/bulk-store';
import type { SaveOutcome } from '../../shared/save-outcome';

type Panel =
  | { kind: 'none' }
  | { kind: 'create' }
  | { kind: 'bulk' }
  | { kind: 'edit'; subUser: SubUserRow }
  | { kind: 'delete'; subUser: SubUserRow }
  | { kind: 'local-proxy'; subUser: SubUserRow };

// Stable, so that the table's memoised keys survive re-renders.
const subUserKey = (s: SubUserRow) => s.id;
const subUserName = (s: SubUserRow) => s.label;
const subUserSearchText = (s: SubUserRow) => `${s.label} ${s.username} ${s.id}`;

/** How much of its cap a sub-user has used, as the cap alerts count it (80% and 100%). */
function capState(s: SubUserRow): string {
  if (s.trafficLimitBytes === null) return 'No cap';
  const share = s.trafficLimitBytes > 0 ? s.trafficUsedBytes / s.trafficLimitBytes : 1;
  return share >= 1 ? 'Cap reached' : share >= 0.8 ? 'Over 80%' : 'Under 80%';
}
const SUB_USER_FILTERS: DataFilter<SubUserRow>[] = [
  { id: 'enabled', label: 'Enabled', value: (s) => (s.enabled ? 'Yes' : 'No') },
  {
    id: 'cap',
    label: 'Cap',
    value: capState,
    order: ['Cap reached', 'Over 80%', 'Under 80%', 'No cap'],
  },
];

export function SubUsersTable({
  subscription,
  subUsers,
}: {
  subscription: Subscription;
  subUsers: SubUserRow[];
}) {
  const updateSubUser = useSubscriptionsStore((store) => store.updateSubUser);
  const deleteSubUser = useSubscriptionsStore((store) => store.deleteSubUser);
  const exportCredentials = useSubscriptionsStore((store) => store.exportCredentials);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [panel, setPanel] = useState<Panel>({ kind: 'none' });
  const [format, setFormat] = useState<CredentialFormat>('host_port_user_pass');
  const [error, setError] = useState<IpcError | null>(null);
  const [message, setMessage] = useState('');
  const saveTextFile = useAppStore((store) => store.saveTextFile);
  const [exported, setExported] = useState<{ outcome: SaveOutcome; rows: number } | null>(null);
  const [bulkCap, setBulkCap] = useState<CapInput>({ amount: '', unit: 'GB' });
  const startBulk = useBulkStore((store) => store.start);
  /** One sub-user write per item, four at a time: the same call as the row's buttons. */
  const bulkUpdate = (action: string, patch: { enabled?: boolean; trafficLimit?: CapInput | null }) =>
    ((items: readonly BulkItem[]) =>
      startBulk('sub-users', {
        action,
        items,
        chunkSize: 4,
        concurrency: 1,
        runChunk: (ids) =>
          Promise.all(
            ids.map(async (subUserId) => {
              const result = await updateSubUser({ subscriptionId: subscription.id, subUserId, ...patch });
              return result.ok
                ? { id: subUserId, ok: true as const }
                : { id: subUserId, ok: false as const, reason: result.error.message };
            }),
          ),
      })) satisfies BulkAction['run'];
  const cap = capOf(bulkCap);
  const bulkActions: BulkAction[] = [
    {
      id: 'enable',
      label: 'Enable',
      detail: 'Their credentials work again.',
      run: bulkUpdate('Enable', { enabled: true }),
    },
    {
      id: 'disable',
      label: 'Disable',
      detail: 'Their credentials stop working until enabled again.',
      run: bulkUpdate('Disable', { enabled: false }),
    },
    {
      id: 'cap',
      label: 'Set cap',
      detail: cap ? `Each gets a cap of ${cap.amount} ${cap.unit}.` : 'Each loses its cap (no cap).',
      run: bulkUpdate('Set cap', { trafficLimit: cap }),
    },
  ];

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

  const columns: DataColumn<SubUserRow>[] = [
    {
      id: 'label',
      header: 'Label',
      rowHeader: true,
      sortValue: (s) => s.label,
      text: (s) => s.label,
      cell: (s) => s.label,
    },
    {
      id: 'username',
      header: 'Username',
      sortValue: (s) => s.username,
      cell: (s) => <code>{s.username}</code>,
    },
    {
      id: 'enabled',
      header: 'Enabled',
      className: 'col-enabled',
      sortValue: (s) => (s.enabled ? 'Yes' : 'No'),
      cell: (s) => (s.enabled ? 'Yes' : 'No'),
    },
    {
      id: 'cap',
      header: 'Used / cap',
      className: 'col-cap',
      sortValue: (s) => s.trafficUsedBytes,
      text: (s) => `${s.trafficUsedBytes} of ${s.trafficLimitBytes ?? 'no cap'} bytes`,
      cell: (s) => <CapBar subUser={s} />,
    },
    {
      id: 'created',
      header: 'Created',
      className: 'col-created',
      sortValue: (s) => Date.parse(s.createdAt),
      text: (s) => s.createdAt,
      cell: (s) => <Time iso={s.createdAt} />,
    },
    {
      id: 'actions',
      header: 'Actions',
      className: 'col-subuser-actions',
      alwaysShown: true,
      noExport: true,
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
            className="button button--quiet"
            aria-label={`Local proxy for ${s.label}`}
            onClick={() => setPanel({ kind: 'local-proxy', subUser: s })}
          >
            Local proxy
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
        <button type="button" className="button" onClick={() => setPanel({ kind: 'create' })}>
          New sub-user
        </button>
        <button type="button" className="button button--quiet" onClick={() => setPanel({ kind: 'bulk' })}>
          Create several…
        </button>
        <CredentialFormatSelect
          label="Export format"
          value={format}
          onChange={setFormat}
          className="field field--inline"
        />
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
        <BulkCreateSubUsersForm subscriptionId={subscription.id} onDone={() => setPanel({ kind: 'none' })} />
      ) : null}
      {panel.kind === 'edit' ? (
        <EditSubUserForm
          key={panel.subUser.id}
          subscriptionId={subscription.id}
          subUser={panel.subUser}
          onDone={() => setPanel({ kind: 'none' })}
        />
      ) : null}
      {panel.kind === 'local-proxy' ? (
        <section className="card" aria-label={`Local proxy for ${panel.subUser.label}`}>
          <h3>Local proxy for {panel.subUser.label}</h3>
          <LocalProxyAction
            key={panel.subUser.id}
            upstream={{ kind: 'subscription', subscriptionId: subscription.id, subUserId: panel.subUser.id }}
            name={panel.subUser.label}
          />
          <button type="button" className="button button--quiet" onClick={() => setPanel({ kind: 'none' })}>
            Close
          </button>
        </section>
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
      {subUsers.length === 0 ? (
        <p className="empty">No sub-users yet.</p>
      ) : (
        <DataTable
          label="Sub-users"
          listId="sub-users"
          rows={subUsers}
          columns={columns}
          filters={SUB_USER_FILTERS}
          searchText={subUserSearchText}
          searchLabel="Search sub-users"
          exportCsv={{ fileName: `sub-users-${subscription.id}`, save: saveTextFile }}
          noMatches={<p className="empty">No sub-user matches.</p>}
          toolbar={(shown) => {
            const bySelection = selected.size > 0;
            const targets = bySelection
              ? subUsers.filter((s) => selected.has(s.id))
              : shown.length < subUsers.length
                ? shown
                : [];
            return (
              <BulkActions
                listId="sub-users"
                items={targets.map((s) => ({ id: s.id, name: s.label || s.username }))}
                scope={bySelection ? 'selected' : 'shown'}
                what="sub-users"
                actions={bulkActions}
              >
                {targets.length ? (
                  <span className="bulk-cap">
                    <input
                      className="input input--narrow"
                      inputMode="decimal"
                      placeholder="no cap"
                      aria-label="Cap for Set cap"
                      value={bulkCap.amount}
                      onChange={(event) => setBulkCap({ ...bulkCap, amount: event.target.value })}
                    />
                    <select
                      aria-label="Cap unit for Set cap"
                      value={bulkCap.unit}
                      onChange={(event) => setBulkCap({ ...bulkCap, unit: event.target.value as CapUnit })}
                    >
                      <option value="MB">MB</option>
                      <option value="GB">GB</option>
                    </select>
                  </span>
                ) : null}
              </BulkActions>
            );
          }}
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
