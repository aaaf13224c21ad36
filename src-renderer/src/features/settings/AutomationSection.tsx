import { type FormEvent, useEffect, useState } from 'react';
import type { Scope } from '../../../../src-shared/contract';
import { CheckboxOption } from '../../shared/components/CheckboxOption';
import { CopyButton } from '../../shared/components/CopyButton';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { TextField } from '../../shared/components/TextField';
import { Time } from '../../shared/components/Time';
import { fieldErrorsOf } from '../../shared/field-errors';
import { AuditTable } from './AuditTable';
import { useAutomationStore } from './automation-store';

/** The scopes a token may hold: every one but `admin` (no token manages tokens, profiles or keys). */
const SCOPE_HINTS: Record<Exclude<Scope, 'admin'>, string> = {
  read: 'read ports, subscriptions, top-ups, the catalog',
  rotate: 'rotate ports, change schedules',
  manage: 'change ports, sub-users, local proxies',
  spend: 'create top-ups',
  secrets: 'passwords and rotation links',
};
const TOKEN_SCOPES = Object.keys(SCOPE_HINTS) as (keyof typeof SCOPE_HINTS)[];

function RestPanel() {
  const rest = useAutomationStore((store) => store.rest.data);
  const saving = useAutomationStore((store) => store.restSaving);
  const error = useAutomationStore((store) => store.restError);
  const setRest = useAutomationStore((store) => store.setRest);
  const [port, setPort] = useState<string | null>(null);
  if (!rest) return null;
  const shownPort = port ?? String(rest.port);
  // Applies like every preference: when the field is left or Enter is pressed, no Apply button.
  const applyPort = async () => {
    if (port === null || port.trim() === String(rest.port)) return;
    if (await setRest({ port: Number(port.trim()) })) setPort(null);
  };
  const savePort = (event: FormEvent) => {
    event.preventDefault();
    void applyPort();
  };
  return (
    <div className="settings-subsection">
      <h3>Local REST API</h3>
      <CheckboxOption
        label="Serve the local REST API"
        hint="On 127.0.0.1 only, for scripts with a token below. Served while this app runs the background jobs."
        checked={rest.enabled}
        disabled={saving}
        onChange={(enabled) => void setRest({ enabled })}
      />
      <form className="form" onSubmit={savePort} noValidate aria-label="REST API port">
        <TextField
          label="Port"
          inputMode="numeric"
          className="field--narrow"
          value={shownPort}
          onChange={setPort}
          onBlur={() => void applyPort()}
          hint="Applies when you leave the field or press Enter."
          error={fieldErrorsOf(error).port}
        />
      </form>
      <p className="muted" data-testid="rest-status">
        {rest.enabled
          ? rest.url
            ? `Listening on ${rest.url} (OpenAPI document: ${rest.url}/openapi.json).`
            : (rest.error ?? 'Starting…')
          : 'Off.'}
      </p>
      {error && !error.fields ? <ErrorMessage error={error} title="Could not change the REST API" /> : null}
    </div>
  );
}

function CreateTokenForm() {
  const createToken = useAutomationStore((store) => store.createToken);
  const creating = useAutomationStore((store) => store.creating);
  const error = useAutomationStore((store) => store.createError);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['read']);
  const errors = fieldErrorsOf(error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await createToken(name, scopes)) {
      setName('');
      setScopes(['read']);
    }
  };
  return (
    <form className="form" onSubmit={(event) => void submit(event)} noValidate aria-label="Create a token">
      <TextField label="Token name" value={name} onChange={setName} error={errors.name} />
      <fieldset className="fieldset">
        <legend>Scopes</legend>
        {TOKEN_SCOPES.map((scope) => (
          <CheckboxOption
            key={scope}
            label={scope}
            hint={SCOPE_HINTS[scope]}
            checked={scopes.includes(scope)}
            disabled={creating}
            onChange={(checked) =>
              setScopes((current) => (checked ? [...current, scope] : current.filter((s) => s !== scope)))
            }
          />
        ))}
        {errors.scopes ? <p className="field__error">{errors.scopes}</p> : null}
      </fieldset>
      <button type="submit" className="button button--primary" disabled={creating}>
        Create token
      </button>
      {error && !error.fields ? <ErrorMessage error={error} title="Could not create the token" /> : null}
    </form>
  );
}

function CreatedToken() {
  const created = useAutomationStore((store) => store.created);
  const dismiss = useAutomationStore((store) => store.dismissCreated);
  if (!created) return null;
  return (
    <div className="notice notice--info" role="status" data-testid="created-token">
      <p>
        Token “{created.token.name}” ({created.token.scopes.join(', ')}). Copy it now: it is not shown again.
      </p>
      <p className="created-token__value">
        <code className="code">{created.secret}</code>{' '}
        <CopyButton text={created.secret} what={`token ${created.token.name}`} />
      </p>
      <button type="button" className="button" onClick={dismiss}>
        Done
      </button>
    </div>
  );
}

function TokensTable() {
  const tokens = useAutomationStore((store) => store.tokens);
  const revokeToken = useAutomationStore((store) => store.revokeToken);
  const revokeError = useAutomationStore((store) => store.revokeError);
  if (tokens.error && !tokens.data)
    return <ErrorMessage error={tokens.error} title="Could not read the tokens" />;
  const rows = tokens.data ?? [];
  return (
    <>
      {rows.length === 0 ? (
        <p className="muted">No tokens yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Tokens">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((token) => (
                <tr key={token.id}>
                  <td>{token.name}</td>
                  <td>{token.scopes.join(', ')}</td>
                  <td>
                    <Time iso={token.createdAt} />
                  </td>
                  <td>{token.lastUsedAt ? <Time iso={token.lastUsedAt} relative /> : 'never'}</td>
                  <td>
                    <button
                      type="button"
                      className="button button--quiet"
                      aria-label={`Revoke ${token.name}`}
                      onClick={() => void revokeToken(token.id)}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revokeError ? <ErrorMessage error={revokeError} title="Could not revoke the token" /> : null}
    </>
  );
}

/** Settings → Automation: the local REST API, its tokens, and the audit log of MCP and REST calls. */
export function AutomationSection() {
  const load = useAutomationStore((store) => store.load);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section className="settings-section" aria-labelledby="automation-title">
      <h2 id="automation-title" tabIndex={-1}>
        Automation
      </h2>
      <p className="field__hint">
        Scripts and AI agents: the command line (<code>proxy-manager --help</code>), the MCP server (
        <code>proxy-manager mcp</code> <CopyButton text="proxy-manager mcp" what="the MCP server command" />)
        and the local REST API below, with tokens. Every command, tool and endpoint is described in the
        automation guide (<code>automation.md</code>, in the project&apos;s documentation).
      </p>
      <RestPanel />
      <div className="settings-subsection">
        <h3>Tokens</h3>
        <CreatedToken />
        <TokensTable />
        <CreateTokenForm />
      </div>
      <AuditTable />
    </section>
  );
}
