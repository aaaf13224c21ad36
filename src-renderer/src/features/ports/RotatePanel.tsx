import { useEffect, useState } from 'react';
import type { RotationReceipt } from '../../../../src-shared/contract';
import { Countdown, formatCountdown, useSecondsLeft } from '../../shared/components/Countdown';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { Time } from '../../shared/components/Time';
import { UNTIL_NEW_LIMITS } from './port-limits';
import { VerdictBadge } from './PortHealthPanel';
import { usePortsStore, type RotationState } from './ports-store';

/** "Until a clean IP": rotations at most (the tray's "Rotate … until new" uses the same). */
const UNTIL_CLEAN_TRIES = 3;

/** The newest receipt: this session's, or the last one main kept (the cooldown survives a restart). */
function latestReceipt(state: RotationState | undefined, stored: RotationReceipt[] | null | undefined) {
  const all = [...(stored ?? []), ...(state?.receipt ? [state.receipt] : [])];
  return all.reduce<RotationReceipt | null>(
    (latest, receipt) => (!latest || receipt.finishedAt > latest.finishedAt ? receipt : latest),
    null,
  );
}

/** Why the port cannot be rotated now, with the seconds left; null when it can. */
function useRotationBlock(portId: string): { reason: string; seconds: number } | null {
  const state = usePortsStore((store) => store.rotations[portId]);
  const stored = usePortsStore((store) => store.receipts[portId]?.data);
  const receipt = latestReceipt(state, stored);
  const cooldown = useSecondsLeft(receipt?.nextRotationAvailableAt ?? null);
  const limited = useSecondsLeft(state?.phase === 'failed' ? state.retryAt : null);
  if (state?.phase === 'rotating') return { reason: 'Rotating…', seconds: 0 };
  if (limited > 0) return { reason: `Rate limited: retry in ${formatCountdown(limited)}`, seconds: limited };
  if (cooldown > 0) return { reason: `Next rotation in ${formatCountdown(cooldown)}`, seconds: cooldown };
  return null;
}

/** Rotate now for one row of the list: the state reads on the button itself. */
export function RotateButton({
  portId,
  label,
  compact = false,
}: {
  portId: string;
  label: string;
  compact?: boolean;
}) {
  const rotate = usePortsStore((store) => store.rotate);
  const state = usePortsStore((store) => store.rotations[portId]);
  const block = useRotationBlock(portId);
  const failed = state?.phase === 'failed' && !state.retryAt ? state.error : null;
  return (
    <span className="rotate-button">
      <button
        type="button"
        className={`button${compact ? ' button--small' : ' button--primary'}`}
        disabled={block !== null}
        onClick={() => void rotate(portId)}
      >
        {block?.reason ?? 'Rotate now'}
        {/* The port's name completes the visible text (axe: the name must contain what is shown). */}
        <span className="visually-hidden">: {label}</span>
      </button>
      {compact && state?.phase === 'done' && state.receipt ? (
        <span className="muted small" role="status">
          {state.receipt.sameIp ? ' Same IP' : ` → ${state.receipt.ip}`}
        </span>
      ) : null}
      {compact && failed ? (
        <span className="error-text small" role="alert" title={failed.message}>
          {' '}
          Failed
        </span>
      ) : null}
    </span>
  );
}

function Receipt({ receipt }: { receipt: RotationReceipt }) {
  return (
    <section className="receipt" aria-label="Rotation receipt">
      <h3>Rotation receipt</h3>
      {receipt.sameIp ? (
        <p className="message message--warn" role="status">
          The carrier gave back the same IP ({receipt.ip}). The rotation happened; the IP did not change.
        </p>
      ) : null}
      <dl className="receipt__facts">
        <dt>Previous IP</dt>
        <dd>
          <code>{receipt.previousIp}</code>
        </dd>
        <dt>New IP</dt>
        <dd>
          <code>{receipt.ip}</code>
        </dd>
        <dt>Time taken</dt>
        <dd>{(receipt.tookMs / 1000).toFixed(1)} s</dd>
        <dt>Finished</dt>
        <dd>
          <Time iso={receipt.finishedAt} relative />
        </dd>
        <dt>Started by</dt>
        <dd>{receipt.trigger}</dd>
        {receipt.attempts > 1 ? (
          <>
            <dt>Rotations sent</dt>
            <dd>{receipt.attempts}</dd>
          </>
        ) : null}
        {receipt.untilNew ? (
          <>
            <dt>Rotate until new</dt>
            <dd>
              {receipt.untilNew.reachedNewIp
                ? `New compared with the last ${receipt.untilNew.lastN} IPs`
                : `No IP outside the last ${receipt.untilNew.lastN} within ${receipt.untilNew.maxTries} tries`}
            </dd>
          </>
        ) : null}
        {receipt.verification ? (
          <>
            <dt>Exit IP through the port</dt>
            <dd>
              <code>{receipt.verification.exitIp}</code>{' '}
              {receipt.verification.matches ? (
                <span className="badge badge--ok">matches</span>
              ) : (
                <span className="badge badge--warn">differs from what the service reported</span>
              )}
            </dd>
          </>
        ) : null}
        {receipt.verdict ? (
          <>
            <dt>Verdict</dt>
            <dd>
              <VerdictBadge verdict={receipt.verdict} />
            </dd>
          </>
        ) : null}
        {receipt.untilUnique ? (
          <>
            <dt>Rotate until unique</dt>
            <dd>
              {receipt.untilUnique.reachedClean
                ? `A clean IP after ${receipt.attempts} rotation(s)`
                : `No clean IP within ${receipt.untilUnique.maxTries} tries`}
            </dd>
          </>
        ) : null}
        {receipt.confirmedBy === 'reread' ? (
          <>
            <dt>Confirmed</dt>
            <dd>
              The answer was lost; reading the port again showed the rotation happened (not sent twice).
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/** The detail's rotation: Rotate now, "rotate until new", progress, the receipt and the countdowns. */
export function RotatePanel({ portId, label }: { portId: string; label: string }) {
  const rotate = usePortsStore((store) => store.rotate);
  const loadReceipts = usePortsStore((store) => store.loadReceipts);
  const state = usePortsStore((store) => store.rotations[portId]);
  const stored = usePortsStore((store) => store.receipts[portId]?.data);
  const block = useRotationBlock(portId);
  const [untilNew, setUntilNew] = useState(false);
  const [untilClean, setUntilClean] = useState(false);
  const [lastN, setLastN] = useState(5);
  const [maxTries, setMaxTries] = useState(3);
  useEffect(() => void loadReceipts(portId), [portId, loadReceipts]);
  const receipt = latestReceipt(state, stored);
  const rotateNow = () =>
    void rotate(
      portId,
      untilClean ? { untilUnique: UNTIL_CLEAN_TRIES } : untilNew ? { untilNew: { lastN, maxTries } } : {},
    );
  const limitsOk =
    lastN >= UNTIL_NEW_LIMITS.lastN.min &&
    lastN <= UNTIL_NEW_LIMITS.lastN.max &&
    maxTries >= UNTIL_NEW_LIMITS.maxTries.min &&
    maxTries <= UNTIL_NEW_LIMITS.maxTries.max;

  return (
    <section className="panel" aria-labelledby={`rotate-${portId}`}>
      <h2 id={`rotate-${portId}`}>Rotate</h2>
      <div className="rotate-panel__controls">
        <button
          type="button"
          className="button button--primary"
          disabled={block !== null || (untilNew && !limitsOk)}
          onClick={rotateNow}
        >
          {state?.phase === 'rotating'
            ? 'Rotating…'
            : receipt?.sameIp && !block
              ? 'Rotate again'
              : 'Rotate now'}
          <span className="visually-hidden">: {label}</span>
        </button>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={untilClean}
            onChange={(event) => {
              setUntilClean(event.target.checked);
              if (event.target.checked) setUntilNew(false);
            }}
          />
          Until a clean IP (checked through the port, up to {UNTIL_CLEAN_TRIES} rotations)
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={untilNew}
            onChange={(event) => {
              setUntilNew(event.target.checked);
              if (event.target.checked) setUntilClean(false);
            }}
          />
          Rotate until new
        </label>
        {untilNew ? (
          <>
            <label className="inline-field">
              New compared with the last
              <input
                className="input input--narrow"
                type="number"
                min={UNTIL_NEW_LIMITS.lastN.min}
                max={UNTIL_NEW_LIMITS.lastN.max}
                value={lastN}
                onChange={(event) => setLastN(Number(event.target.value))}
              />
              IPs
            </label>
            <label className="inline-field">
              at most
              <input
                className="input input--narrow"
                type="number"
                min={UNTIL_NEW_LIMITS.maxTries.min}
                max={UNTIL_NEW_LIMITS.maxTries.max}
                value={maxTries}
                onChange={(event) => setMaxTries(Number(event.target.value))}
              />
              tries
            </label>
            {!limitsOk ? (
              <p className="error-text" role="alert">
                Last {UNTIL_NEW_LIMITS.lastN.min}-{UNTIL_NEW_LIMITS.lastN.max} IPs,{' '}
                {UNTIL_NEW_LIMITS.maxTries.min}-{UNTIL_NEW_LIMITS.maxTries.max} tries.
              </p>
            ) : null}
          </>
        ) : null}
      </div>
      {state?.phase === 'rotating' ? (
        <p role="status" className="rotate-panel__progress">
          <progress aria-label="Rotation in progress" /> Rotating: the carrier usually takes 5-15 seconds…
        </p>
      ) : null}
      {state?.phase === 'failed' && state.error ? (
        state.retryAt ? (
          <p className="message message--error" role="alert">
            Rotation limit reached.{' '}
            <Countdown
              until={state.retryAt}
              prefix="The service allows the next try in"
              done="You can try again now."
            />
          </p>
        ) : (
          <ErrorMessage error={state.error} title="Rotation failed" />
        )
      ) : null}
      {receipt ? (
        <>
          <p role="status">
            <Countdown
              until={receipt.nextRotationAvailableAt}
              prefix="Next rotation available in"
              done="The port can be rotated now."
            />
          </p>
          <Receipt receipt={receipt} />
        </>
      ) : null}
    </section>
  );
}
