import { useState, type FormEvent } from 'react';
import type { KeyStorage, ProfileSummary } from '../../../../src-shared/contract';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { PasswordField } from '../../shared/components/PasswordField';
import { RadioGroup } from '../../shared/components/RadioGroup';
import { TextField } from '../../shared/components/TextField';
import { fieldErrorsOf } from '../../shared/field-errors';
import { useAppStore } from '../app/app-store';
import { PATH_STYLE_LABELS } from '../onboarding/ConnectionTestReport';
import { operationKey, useProfilesStore, type ProfileOperation } from './profiles-store';

const KEY_SOURCES: Record<string, string> = {
  keychain: 'OS keychain',
  session: 'this session only',
  demo: 'demo sandbox',
  environment: 'environment variable',
};

const KIND_LABELS: Record<string, string> = {
  account: 'Account',
  demo: 'Demo',
  environment: 'From the environment (this run only)',
};

type Panel = 'none' | 'edit' | 'key' | 'confirmDelete' | 'confirmRemoveKey';

function useOperation(operation: ProfileOperation, profileId: string) {
  const key = operationKey(operation, profileId);
  const pending = useProfilesStore((store) => store.pending[key] ?? false);
  const error = useProfilesStore((store) => store.errors[key] ?? null);
  return { pending, error };
}

/** `scheme://host:port` of a URL as typed, or null while it is not a URL yet. */
function originOf(url: string): string | null {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return null;
  }
}

function EditForm({ profile, onDone }: { profile: ProfileSummary; onDone: () => void }) {
  const [name, setName] = useState(profile.name);
  const [baseUrl, setBaseUrl] = useState(profile.baseUrl);
  const [apiKey, setApiKey] = useState('');
  const update = useProfilesStore((store) => store.update);
  const { pending, error } = useOperation('update', profile.id);
  const errors = fieldErrorsOf(error, { key: 'apiKey' });
  // A key is sent only to the origin it was saved for: moving the profile elsewhere needs it again
  // (main refuses with `key_required` on `apiKey` otherwise, which also shows the field).
  const newOrigin = originOf(baseUrl);
  const needsKey =
    (profile.key.configured && newOrigin !== null && newOrigin !== originOf(profile.baseUrl)) ||
    errors.apiKey !== undefined;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const edit = {
      ...(name.trim() !== profile.name ? { name } : {}),
      ...(baseUrl.trim() !== profile.baseUrl ? { baseUrl } : {}),
      ...(needsKey && apiKey.trim() !== '' ? { apiKey } : {}),
    };
    if (Object.keys(edit).length === 0 || (await update(profile.id, edit))) onDone();
  };
  return (
    <form
      className="form form--inline"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label={`Edit ${profile.name}`}
    >
      <TextField label="Profile name" value={name} onChange={setName} error={errors.name} maxLength={60} />
      <TextField
        label="Base URL"
        type="url"
        value={baseUrl}
        onChange={setBaseUrl}
        error={errors.baseUrl}
        spellCheck={false}
        hint="Changing it keeps the URL reading; test the connection afterwards with Check now."
      />
      {needsKey ? (
        <PasswordField
          label="API key for the new address"
          value={apiKey}
          onChange={setApiKey}
          error={errors.apiKey}
          hint={`The saved key is sent only to ${originOf(profile.baseUrl) ?? 'its own address'}; enter it again to use it at ${newOrigin ?? 'the new address'}.`}
          required
        />
      ) : null}
      {error && !error.fields ? <ErrorMessage error={error} title="Could not save" /> : null}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? 'Saving…' : 'Save changes'}
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function KeyForm({ profile, onDone }: { profile: ProfileSummary; onDone: () => void }) {
  const keychain = useAppStore((store) => store.state?.keychain);
  const [apiKey, setApiKey] = useState('');
  const [storage, setStorage] = useState<KeyStorage>(keychain?.available === false ? 'session' : 'keychain');
  const setKey = useProfilesStore((store) => store.setKey);
  const { pending, error } = useOperation('setKey', profile.id);
  const errors = fieldErrorsOf(error, { key: 'apiKey' });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await setKey(profile.id, apiKey, storage)) onDone();
  };
  return (
    <form
      className="form form--inline"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label={`${profile.key.configured ? 'Replace' : 'Set'} the key of ${profile.name}`}
    >
      <PasswordField label="New API key" value={apiKey} onChange={setApiKey} error={errors.apiKey} />
      <RadioGroup
        legend="Keep the key in"
        value={storage}
        onChange={setStorage}
        error={errors.storage}
        options={[
          {
            value: 'keychain',
            label: 'OS keychain',
            disabled: keychain?.available === false,
            description:
              keychain?.available === false ? ` (unavailable: ${keychain.reason ?? 'no keychain'})` : '',
          },
          { value: 'session', label: 'This session only', description: ' (forgotten when the app quits)' },
        ]}
      />
      {error && !error.fields ? (
        <ErrorMessage
          error={error}
          title={
            error.code === 'keychain_unavailable'
              ? 'The OS keychain cannot store the key'
              : 'Could not save the key'
          }
        />
      ) : null}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? 'Saving…' : 'Save key'}
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Confirm({
  question,
  confirmLabel,
  pending,
  onConfirm,
  onCancel,
}: {
  question: string;
  confirmLabel: string;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <div className="confirm" role="group" aria-label={question}>
      <p>{question}</p>
      <div className="form__actions">
        <button type="button" className="button button--danger" disabled={pending} onClick={onConfirm}>
          {pending ? 'Working…' : confirmLabel}
        </button>
        {/* Focused first: Enter on a confirmation should not destroy anything. */}
        <button type="button" className="button" onClick={onCancel} autoFocus>
          Cancel
        </button>
      </div>
    </div>
  );
}

export function ProfileCard({ profile }: { profile: ProfileSummary }) {
  const [panel, setPanel] = useState<Panel>('none');
  const switchTo = useProfilesStore((store) => store.switchTo);
  const remove = useProfilesStore((store) => store.remove);
  const removeKey = useProfilesStore((store) => store.removeKey);
  const clearError = useProfilesStore((store) => store.clearError);
  const switching = useOperation('switch', profile.id);
  const deleting = useOperation('delete', profile.id);
  const removingKey = useOperation('removeKey', profile.id);
  const editable = profile.kind === 'account';
  const open = (next: Panel) => {
    clearError('update', profile.id);
    clearError('setKey', profile.id);
    clearError('delete', profile.id);
    clearError('removeKey', profile.id);
    setPanel(next);
  };
  const close = () => setPanel('none');
  const titleId = `profile-${profile.id}-title`;

  return (
    <li className={`card profile${profile.active ? ' profile--active' : ''}`} aria-labelledby={titleId}>
      <div className="card__header">
        <h3 id={titleId}>
          {profile.name} {profile.active ? <span className="badge badge--ok">Active</span> : null}
        </h3>
        <span className="muted">{KIND_LABELS[profile.kind] ?? profile.kind}</span>
      </div>
      <dl className="facts">
        <dt>Base URL</dt>
        <dd>
          <code>{profile.baseUrl}</code>
        </dd>
        <dt>URL reading</dt>
        <dd>{PATH_STYLE_LABELS[profile.pathStyle]}</dd>
        <dt>API key</dt>
        <dd data-testid="profile-key">
          {profile.key.configured ? (
            <>
              <code>{profile.key.masked ?? '…'}</code>
              {profile.key.source ? (
                <span className="muted"> in {KEY_SOURCES[profile.key.source] ?? profile.key.source}</span>
              ) : null}
            </>
          ) : (
            <span className="text-bad">No key</span>
          )}
        </dd>
      </dl>

      <div className="form__actions">
        {!profile.active ? (
          <button
            type="button"
            className="button button--primary"
            disabled={switching.pending}
            onClick={() => void switchTo(profile.id)}
          >
            {switching.pending ? 'Switching…' : 'Switch to this profile'}
          </button>
        ) : null}
        {editable ? (
          <>
            <button
              type="button"
              className="button"
              aria-expanded={panel === 'edit'}
              onClick={() => open(panel === 'edit' ? 'none' : 'edit')}
            >
              Edit
            </button>
            <button
              type="button"
              className="button"
              aria-expanded={panel === 'key'}
              onClick={() => open(panel === 'key' ? 'none' : 'key')}
            >
              {profile.key.configured ? 'Replace key' : 'Set key'}
            </button>
            {profile.key.configured ? (
              <button type="button" className="button" onClick={() => open('confirmRemoveKey')}>
                Remove key
              </button>
            ) : null}
            <button type="button" className="button button--danger" onClick={() => open('confirmDelete')}>
              Delete
            </button>
          </>
        ) : null}
      </div>

      {switching.error ? <ErrorMessage error={switching.error} title="Could not switch" /> : null}
      {panel === 'edit' ? <EditForm profile={profile} onDone={close} /> : null}
      {panel === 'key' ? <KeyForm profile={profile} onDone={close} /> : null}
      {panel === 'confirmRemoveKey' ? (
        <Confirm
          question={`Remove the API key of “${profile.name}”? The profile stays; it cannot connect until you set a key again.`}
          confirmLabel="Remove key"
          pending={removingKey.pending}
          onConfirm={() => void removeKey(profile.id).then((ok) => ok && close())}
          onCancel={close}
        />
      ) : null}
      {panel === 'confirmDelete' ? (
        <Confirm
          question={`Delete the profile “${profile.name}” and its key? This cannot be undone.`}
          confirmLabel="Delete profile"
          pending={deleting.pending}
          onConfirm={() => void remove(profile.id)}
          onCancel={close}
        />
      ) : null}
      {removingKey.error ? <ErrorMessage error={removingKey.error} title="Could not remove the key" /> : null}
      {deleting.error ? <ErrorMessage error={deleting.error} title="Could not delete the profile" /> : null}
    </li>
  );
}
