import { useState, type FormEvent } from 'react';
import type { IpcError, MobilePortView } from '../../../../src-shared/contract';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { Time } from '../../shared/components/Time';
import { fieldErrorsOf, type FieldErrors } from '../../shared/field-errors';
import { RELOCATE_UNAVAILABLE, RelocateTargetFields, type RelocateTarget } from './RelocateTargetFields';
import { usePortsStore } from './ports-store';

export function RelocatePanel({ port }: { port: MobilePortView }) {
  const relocate = usePortsStore((store) => store.relocate);
  const progress = usePortsStore((store) => store.relocations[port.id]);
  const [target, setTarget] = useState<RelocateTarget>({ country: port.country, carrier: '', city: '' });
  const { country, carrier, city } = target;
  const [confirmed, setConfirmed] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<IpcError | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local: FieldErrors = {};
    if (!country) local.country = 'Choose a country';
    if (!carrier) local.carrier = 'Choose a carrier';
    if (!confirmed) local.confirm = 'Confirm that the endpoint and credentials may change';
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    const result = await relocate(port.id, { country, carrier, city: city || null });
    setBusy(false);
    if (result.ok) {
      setFailure(null);
      setConfirmed(false);
      return;
    }
    const fields = fieldErrorsOf(result.error);
    setErrors(fields);
    setFailure(Object.keys(fields).length ? null : result.error);
  };

  return (
    <section className="panel" aria-labelledby="relocate-heading">
      <h2 id="relocate-heading">Relocate</h2>
      {progress ? (
        <div
          role="status"
          className={`message ${progress.state === 'failed' ? 'message--error' : progress.state === 'active' ? 'message--ok' : 'message--warn'}`}
        >
          {progress.state === 'provisioning' ? (
            <p>
              Provisioning on the new modem (checked {progress.checks} times; next check{' '}
              <Time iso={progress.nextCheckAt} relative />
              ).
            </p>
          ) : progress.state === 'active' ? (
            <p>Relocation done: the port is active on its new modem.</p>
          ) : (
            <p>Relocation tracking stopped.</p>
          )}
          {progress.message ? <p>{progress.message}</p> : null}
        </div>
      ) : null}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <RelocateTargetFields target={target} onChange={setTarget} errors={errors} />
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={confirmed}
            onChange={(event) => setConfirmed(event.target.checked)}
          />{' '}
          I understand the host, ports and credentials may change, and tools must be updated.
        </label>
        {errors.confirm ? (
          <p className="field__error" role="alert">
            {errors.confirm}
          </p>
        ) : null}
        {failure?.code === 'location_unavailable' ? (
          <div className="message message--error" role="alert">
            <p>{RELOCATE_UNAVAILABLE}</p>
            <p className="muted">{failure.message}</p>
          </div>
        ) : failure ? (
          <ErrorMessage error={failure} title="Could not relocate" />
        ) : null}
        <button type="submit" className="button" disabled={busy || progress?.state === 'provisioning'}>
          {busy ? 'Relocating…' : 'Relocate'}
        </button>
      </form>
    </section>
  );
}
