import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { PortRow, RelocationProgress } from '../../../../src-shared/contract';
import type { BulkItem, BulkOutcome } from '../../shared/bulk/bulk-run';
import { useBulkStore } from '../../shared/bulk/bulk-store';
import type { FieldErrors } from '../../shared/field-errors';
import {
  RELOCATE_UNAVAILABLE,
  RelocateTargetFields,
  useRelocateTargetName,
  type RelocateTarget,
} from './RelocateTargetFields';
import { usePortsStore } from './ports-store';

/**
 * One relocation at a time, in order: each is a `POST …/relocate` the service answers with 202 and
 * the port `provisioning`, and the client paces its requests to the service anyway. Cancel then
 * stops before the next port, not after a batch.
 */
const RELOCATE_CHUNK = 1;

/**
 * Why a port is not sent, or null to send it. The spec moves a port from `active` to `provisioning`
 * only: a port already being moved (its status, or the app's own tracking of a relocation) waits
 * until it is active again; an expired port has no modem to leave.
 */
export function relocationBlock(
  port: Pick<PortRow, 'status'> | undefined,
  progress: Pick<RelocationProgress, 'state'> | undefined,
): string | null {
  if (!port) return 'Not in the ports list any more';
  if (port.status === 'provisioning' || progress?.state === 'provisioning')
    return 'Already being moved (provisioning): relocate it again once it is active';
  if (port.status !== 'active') return `Only an active port can be relocated; this one is ${port.status}`;
  return null;
}

interface BulkRelocatePanelProps {
  /** The ports chosen (selected, or shown by a filter), named as the summary names them. */
  items: readonly BulkItem[];
  ports: readonly PortRow[];
  onClose: () => void;
}

/**
 * "Relocate…" on the Ports list: the target (country, carrier, city from the catalog) chosen once for
 * every port chosen, a confirmation naming the count, then the list's bulk run (one progress, Cancel,
 * each failure with its reason) with one relocation per call.
 */
export function BulkRelocatePanel({ items, ports, onClose }: BulkRelocatePanelProps) {
  const relocate = usePortsStore((store) => store.relocate);
  const startBulk = useBulkStore((store) => store.start);
  const running = useBulkStore((store) => store.runs.ports?.progress.running ?? false);
  const [target, setTarget] = useState<RelocateTarget>(() => {
    // Ports all in one country start from it; a mixed selection chooses one.
    const chosen = new Set(items.map((item) => item.id));
    const shared = new Set(ports.filter((port) => chosen.has(port.id)).map((port) => port.country));
    return { country: shared.size === 1 ? ([...shared][0] ?? '') : '', carrier: '', city: '' };
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [asking, setAsking] = useState(false);
  const targetName = useRelocateTargetName(target);
  const headingId = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  const count = items.length;
  const noun = count === 1 ? 'port' : 'ports';

  const ask = (event: FormEvent) => {
    event.preventDefault();
    const local: FieldErrors = {};
    if (!target.country) local.country = 'Choose a country';
    if (!target.carrier) local.carrier = 'Choose a carrier';
    setErrors(local);
    setAsking(Object.keys(local).length === 0);
  };

  const run = () => {
    setAsking(false);
    const chosen = { country: target.country, carrier: target.carrier, city: target.city || null };
    const relocateOne = async (portId: string): Promise<BulkOutcome> => {
      const { ports: list, relocations } = usePortsStore.getState();
      const blocked = relocationBlock(
        list.data?.find((port) => port.id === portId),
        relocations[portId],
      );
      if (blocked) return { id: portId, ok: false, reason: blocked };
      const result = await relocate(portId, chosen);
      if (result.ok) return { id: portId, ok: true };
      return {
        id: portId,
        ok: false,
        reason:
          result.error.code === 'location_unavailable'
            ? `${RELOCATE_UNAVAILABLE} (${result.error.message})`
            : result.error.message,
      };
    };
    void startBulk('ports', {
      action: `Relocate to ${targetName}`,
      items,
      chunkSize: RELOCATE_CHUNK,
      concurrency: 1,
      runChunk: (ids) => Promise.all(ids.map(relocateOne)),
    });
    // The run's progress, Cancel and summary are the list's, above the table.
    onClose();
  };

  return (
    <section className="panel bulk-relocate" aria-labelledby={headingId}>
      <h2 id={headingId}>
        Relocate {count} {noun}
      </h2>
      <p className="muted small">
        Each port moves to a free modem of the carrier chosen, keeping its remaining time; its host, ports and
        credentials may change, so tools must be updated (local proxies follow by themselves). The service
        answers at once and the port is Provisioning until its new modem is online, usually under 2 minutes. A
        port not active (already being moved, or expired) is not sent.
      </p>
      <form
        className="bulk-relocate__form"
        onSubmit={ask}
        noValidate
        aria-label={`Where to relocate ${count} ${noun}`}
      >
        <RelocateTargetFields
          target={target}
          onChange={(next) => {
            setTarget(next);
            setAsking(false);
          }}
          errors={errors}
        />
        <span className="bulk-relocate__buttons">
          <button type="submit" className="button button--primary" disabled={running || asking}>
            Relocate {count} {noun}…
          </button>{' '}
          <button type="button" className="button button--quiet" disabled={running} onClick={onClose}>
            Close
          </button>
        </span>
      </form>
      {asking ? (
        <div className="bulk-panel bulk-confirm" role="alertdialog" aria-labelledby={`${headingId}-ask`}>
          <p id={`${headingId}-ask`}>
            <strong>
              Relocate {count} {noun} to {targetName}?
            </strong>{' '}
            Host, ports and credentials may change; one port at a time, and you can cancel the ones not
            started.
          </p>
          <div className="bulk-panel__buttons">
            <button
              ref={confirmRef}
              type="button"
              className="button button--primary button--small"
              onClick={run}
            >
              Relocate {count} {noun}
            </button>
            <button type="button" className="button button--small" onClick={() => setAsking(false)}>
              Don&apos;t
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
