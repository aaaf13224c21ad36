import { useEffect, useRef } from 'react';
import { viewOf, useTopUpWizardStore, type WizardView } from './topup-wizard-store';
import { AmountStep, CoinStep } from './WizardDraftSteps';
import { DeclareStep, PayStep, StatusStep, usePaymentDetails } from './WizardPaySteps';

const STEPS: readonly { id: WizardView; label: string }[] = [
  { id: 'amount', label: 'Amount' },
  { id: 'coin', label: 'Coin and network' },
  { id: 'pay', label: 'Pay' },
  { id: 'declare', label: 'I have sent it' },
  { id: 'status', label: 'Confirming' },
];

/**
 * The add-funds wizard. It can be closed at any step and reopened where it was: its state lives in
 * the wizard store, and the followed top-up is kept current by `topups:changed` events.
 */
export function TopUpWizard() {
  const open = useTopUpWizardStore((store) => store.open);
  const view = useTopUpWizardStore(viewOf);
  const topUp = useTopUpWizardStore((store) => store.topUp);
  const close = useTopUpWizardStore((store) => store.close);
  const startNew = useTopUpWizardStore((store) => store.startNew);
  const heading = useRef<HTMLHeadingElement>(null);
  usePaymentDetails(open ? topUp?.id : undefined);
  useEffect(() => {
    if (open) heading.current?.focus();
  }, [open, view]);
  if (!open) return null;
  const current = STEPS.findIndex((step) => step.id === view);
  return (
    <section
      className="wizard"
      role="dialog"
      aria-modal="false"
      aria-labelledby="topup-wizard-title"
      data-topup-id={topUp?.id}
      data-status={topUp?.status}
      onKeyDown={(event) => {
        if (event.key === 'Escape') close();
      }}
    >
      <header className="wizard__header">
        <h2 id="topup-wizard-title" ref={heading} tabIndex={-1}>
          {topUp ? `Top-up of ${topUp.amountUsd} USD` : 'Add funds'}
        </h2>
        <div className="wizard__actions">
          {topUp ? (
            // This top-up stays watched and in the history; the wizard starts a fresh one.
            <button type="button" className="button" onClick={startNew}>
              New top-up
            </button>
          ) : null}
          <button type="button" className="button button--quiet" onClick={close}>
            Close
          </button>
        </div>
      </header>
      <ol className="wizard__steps" aria-label="Steps">
        {STEPS.map((step, index) => (
          <li
            key={step.id}
            aria-current={index === current ? 'step' : undefined}
            className={index < current ? 'wizard__steps-done' : undefined}
          >
            {/* Done is a tick, not a strike-through: a struck step reads as cancelled or wrong. */}
            {index < current ? <span aria-hidden="true">✓ </span> : null}
            {step.label}
            {index < current ? <span className="visually-hidden"> (done)</span> : null}
          </li>
        ))}
      </ol>
      {view === 'amount' ? <AmountStep /> : null}
      {view === 'coin' ? <CoinStep /> : null}
      {topUp && view === 'pay' ? <PayStep topUp={topUp} /> : null}
      {topUp && view === 'declare' ? <DeclareStep topUp={topUp} /> : null}
      {topUp && view === 'status' ? <StatusStep topUp={topUp} /> : null}
    </section>
  );
}
