import { useState, type FormEvent } from 'react';
import type { IpcError, LocalProxyUpstream } from '../../../../src-shared/contract';
import { CopyButton } from '../../shared/components/CopyButton';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { TextField } from '../../shared/components/TextField';
import { fieldErrorsOf } from '../../shared/field-errors';
import { useLoadable } from '../../shared/loadable-slice';
import { hrefOf } from '../../shared/routes';
import { useAppStore } from '../app/app-store';
import { localProxiesList, ofProfile, sameUpstream, useLocalProxiesStore } from './local-proxies-store';
import { LocalProxyState } from './LocalProxyState';

interface LocalProxyActionProps {
  upstream: LocalProxyUpstream;
  /** Names the target for screen readers: the port's label, the sub-user's label. */
  name: string;
  /** A smaller variant for a table row. */
  compact?: boolean;
}

const PORT_MIN = 1024;
const PORT_MAX = 65_535;

/**
 * "Local proxy" on a port, a subscription (with the string builder's targeting) or a sub-user: the
 * local proxies already forwarding there, with their address to copy, or a button that makes one on
 * the next free port (or the one typed). Tools then use `http://127.0.0.1:PORT` without credentials.
 */
export function LocalProxyAction({ upstream, name, compact = false }: LocalProxyActionProps) {
  const { loadable } = useLoadable(useLocalProxiesStore, localProxiesList);
  const add = useLocalProxiesStore((store) => store.add);
  const profile = useAppStore((store) => store.state?.activeProfile ?? null);
  const [open, setOpen] = useState(false);
  const [port, setPort] = useState('');
  const [portError, setPortError] = useState<string | undefined>();
  const [error, setError] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);
  const view = loadable?.data ?? null;
  const existing = (view?.proxies ?? []).filter(
    (proxy) => ofProfile(proxy, profile) && sameUpstream(proxy.upstream, upstream),
  );

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = port.trim();
    const number = Number(trimmed);
    if (trimmed !== '' && (!/^\d+$/.test(trimmed) || number < PORT_MIN || number > PORT_MAX)) {
      setPortError(`A port from ${PORT_MIN} to ${PORT_MAX}`);
      return;
    }
    setPortError(undefined);
    setBusy(true);
    const result = await add({ upstream, ...(trimmed === '' ? {} : { listenPort: number }) });
    setBusy(false);
    if (result.ok) {
      setError(null);
      setOpen(false);
      setPort('');
      return;
    }
    const fields = fieldErrorsOf(result.error, {});
    setPortError(fields.listenPort);
    setError(fields.listenPort ? null : result.error);
  };

  return (
    <div className={`local-proxy-action${compact ? ' local-proxy-action--compact' : ''}`}>
      {existing.map((proxy) => (
        <p key={proxy.id} className="local-proxy-action__existing">
          Local proxy <code>{proxy.url}</code> <CopyButton text={proxy.url} what={`local proxy of ${name}`} />{' '}
          <LocalProxyState proxy={proxy} />
        </p>
      ))}
      {existing.length > 0 ? (
        <p className="muted small">
          <a href={hrefOf('local-proxies')}>All local proxies</a>
        </p>
      ) : null}
      {open ? (
        <form className="local-proxy-action__form" onSubmit={(event) => void create(event)} noValidate>
          <TextField
            label="Local port"
            inputMode="numeric"
            value={port}
            onChange={setPort}
            placeholder={view ? String(view.suggestedPort) : '24000'}
            error={portError}
            hint="Empty: the next free port from 24000. Tools use http://127.0.0.1:PORT (or socks5://) without a password."
          />
          {error ? <ErrorMessage error={error} title="Could not create the local proxy" /> : null}
          <button type="submit" className="button button--primary button--small" disabled={busy}>
            {busy ? 'Creating…' : 'Create'}
          </button>{' '}
          <button type="button" className="button button--small" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button
          type="button"
          className="button button--small"
          aria-label={`Local proxy for ${name}`}
          onClick={() => setOpen(true)}
        >
          {existing.length > 0 ? 'Another local proxy…' : 'Local proxy…'}
        </button>
      )}
    </div>
  );
}
