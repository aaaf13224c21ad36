import { type ReactNode, useEffect } from 'react';
import type { TopUp } from '../../../../src-shared/api-types';
import type { TopUpPaymentDetails } from '../../../../src-shared/contract';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { CopyButton } from '../../shared/components/CopyButton';
import { formatCountdown, useSecondsLeft } from '../../shared/components/Countdown';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { StatusBadge } from '../../shared/components/StatusBadge';
import { TextField } from '../../shared/components/TextField';
import { Time } from '../../shared/components/Time';
import { fieldErrorsOf } from '../../shared/field-errors';
import { formatUsd } from '../../shared/format/format';
import { useAppStore } from '../app/app-store';
import { NetworkName, useNetworkName } from '../catalog/CatalogNames';
import { checkTxid, describeRejection, paymentTargetOf, safeExplorerUrl } from './topup-input';
import { declarationDeadline, useTopUpWizardStore } from './topup-wizard-store';

/** The rate lock's countdown, on the shared ticker. */
function RateLock({ expiresAt }: { expiresAt: string }) {
  const left = useSecondsLeft(expiresAt);
  return (
    <p className={left === 0 ? 'wizard__countdown wizard__countdown--over' : 'wizard__countdown'}>
      {left === 0 ? (
        <>
          The rate lock ended at <Time iso={expiresAt} />.
        </>
      ) : (
        <>
          Rate locked for <strong aria-label="Time left">{formatCountdown(left)}</strong> (until{' '}
          <Time iso={expiresAt} />
          ).
        </>
      )}
    </p>
  );
}

function DemoPayment() {
  const isDemo = useAppStore((store) => store.state?.activeProfile?.kind === 'demo');
  const simulating = useTopUpWizardStore((store) => store.simulating);
  const simulateError = useTopUpWizardStore((store) => store.simulateError);
  const simulate = useTopUpWizardStore((store) => store.simulate);
  if (!isDemo) return null;
  return (
    <div className="message message--warn wizard__demo" role="note" aria-label="Demo payment">
      <p>
        <strong>Demo mode: do not send real funds.</strong> This address belongs to the sandbox; anything sent
        to it is lost.
      </p>
      <div className="wizard__actions">
        <button
          type="button"
          className="button"
          disabled={simulating !== null}
          onClick={() => void simulate('exact')}
        >
          Simulate payment: exact
        </button>
        <button
          type="button"
          className="button"
          disabled={simulating !== null}
          onClick={() => void simulate('short')}
        >
          Simulate payment: short
        </button>
        <button
          type="button"
          className="button"
          disabled={simulating !== null}
          onClick={() => void simulate('late')}
        >
          Simulate payment: late
        </button>
      </div>
      {simulateError ? <ErrorMessage error={simulateError} title="The payment was not simulated" /> : null}
    </div>
  );
}

function PaymentDetails({ topUp, details }: { topUp: TopUp; details: TopUpPaymentDetails }) {
  // Main names the token contract; the URI is read too, so a token URI never shows without it.
  const target = paymentTargetOf(details.paymentUri, details.depositAddress);
  const tokenContract = details.tokenContract ?? target.tokenContract;
  return (
    <div className="wizard__pay">
      <figure className="wizard__qr">
        {/* The SVG is made in main by `qrcode` from the service's URI; shown as an image, never inlined. */}
        <img
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(details.qrSvg)}`}
          alt={`QR code of ${details.paymentUri}`}
          data-payment-uri={details.paymentUri}
          width={220}
          height={220}
        />
        <figcaption>
          <ExternalLink url={details.paymentUri} className="button button--small">
            Open in wallet
          </ExternalLink>
          <LinkError />
        </figcaption>
      </figure>
      <dl className="wizard__details">
        <dt>Must arrive exactly</dt>
        {/* Copied exactly as main gave it: no grouping, no rounding, no trimming. */}
        <dd>
          <code className="money" data-testid="amount-crypto">
            {details.amountCrypto}
          </code>{' '}
          {details.coin} <CopyButton text={details.amountCrypto} what="amount" />
        </dd>
        <dt>Deposit address</dt>
        <dd>
          <code className="wizard__address" data-testid="deposit-address">
            {details.depositAddress}
          </code>{' '}
          <CopyButton text={details.depositAddress} what="address" />
        </dd>
        {tokenContract ? (
          <>
            <dt>Token contract</dt>
            <dd>
              <code className="wizard__address">{tokenContract}</code>
              <p className="muted small">
                The token’s contract, not where the funds go: never send to it. The funds go to the deposit
                address above.
              </p>
            </dd>
          </>
        ) : null}
        <dt>Network</dt>
        <dd>
          <NetworkName coinCode={details.coin} networkId={details.network} />
        </dd>
        <dt>Rate</dt>
        <dd>
          1 {topUp.coin} = <span className="money">{topUp.rate}</span> USD
        </dd>
        <dt>Amount</dt>
        <dd className="money">{formatUsd(topUp.amountUsd)}</dd>
        {topUp.purchase ? <PurchaseSummary purchase={topUp.purchase} /> : null}
      </dl>
    </div>
  );
}

/** What the service's answer says of the purchase: its plan, quantity and total as priced at creation. */
function PurchaseSummary({ purchase }: { purchase: NonNullable<TopUp['purchase']> }) {
  return (
    <>
      <dt>Purchase</dt>
      <dd>
        {purchase.quantity} × {purchase.planName} <span className="code">{purchase.planId}</span>:{' '}
        <span className="money">{formatUsd(purchase.total)}</span>{' '}
        <span className="muted small">(the service’s price, placed from the balance once credited)</span>
      </dd>
    </>
  );
}

/**
 * The payer's first screen: the QR code, the exact amount and the address come first (at 1280x800
 * they are above the fold), the warnings beside them, not on top of them.
 */
export function PayStep({ topUp }: { topUp: TopUp }) {
  const network = useNetworkName(topUp.coin, topUp.network);
  const payment = useTopUpWizardStore((store) => store.payment);
  const loadPayment = useTopUpWizardStore((store) => store.loadPayment);
  const showDeclare = useTopUpWizardStore((store) => store.showDeclare);
  return (
    <section className="wizard__step wizard__step--pay" aria-label="Pay">
      <div className="wizard__pay-layout">
        <div className="wizard__pay-main">
          <AsyncContent loadable={payment} what="payment details" onRetry={() => void loadPayment()}>
            {(details) => <PaymentDetails topUp={topUp} details={details} />}
          </AsyncContent>
          <RateLock expiresAt={topUp.expiresAt} />
          <div className="wizard__actions">
            <button type="button" className="button button--primary" onClick={() => showDeclare(true)}>
              I have sent it
            </button>
          </div>
        </div>
        <aside className="wizard__pay-notes" aria-label="Before you send">
          <div className="message message--warn" role="note">
            <p>
              <strong>Exactly this amount must arrive, on the {network} network.</strong> Exchanges and many
              wallets deduct a withdrawal fee from what you send: add that fee on top, so that the full amount
              arrives. A payment that arrives short does not match this top-up.
            </p>
          </div>
          <DemoPayment />
        </aside>
      </div>
    </section>
  );
}

const DECLARE_EXPLANATIONS: Record<string, string> = {
  txid_already_used:
    'This transaction id was already declared for another top-up. Check that you copied the right one.',
  topup_closed:
    'This top-up no longer takes declarations (it is credited, or its declaration deadline has passed).',
};

export function DeclareStep({ topUp }: { topUp: TopUp }) {
  const txid = useTopUpWizardStore((store) => store.txid);
  const setTxid = useTopUpWizardStore((store) => store.setTxid);
  const submitting = useTopUpWizardStore((store) => store.submittingTxid);
  const error = useTopUpWizardStore((store) => store.declareError);
  const declare = useTopUpWizardStore((store) => store.declare);
  const showDeclare = useTopUpWizardStore((store) => store.showDeclare);
  const checked = checkTxid(topUp.network, txid);
  const serverField = fieldErrorsOf(error).txid;
  const explanation = error ? DECLARE_EXPLANATIONS[error.code] : undefined;
  return (
    <form
      className="wizard__step"
      aria-label="I have sent it"
      onSubmit={(event) => {
        event.preventDefault();
        void declare();
      }}
    >
      <p>
        Tell the service the payment has left your wallet or exchange. The transaction id is optional: the
        payment is matched by its exact amount, and a txid only speeds that up.
      </p>
      <TextField
        label="Transaction id (optional)"
        value={txid}
        onChange={setTxid}
        autoComplete="off"
        spellCheck={false}
        error={checked.ok ? serverField : checked.message}
      />
      {error && !serverField ? (
        <div className="message message--error" role="alert">
          <p>{explanation ?? error.message}</p>
        </div>
      ) : null}
      <div className="wizard__actions">
        <button type="button" className="button" onClick={() => showDeclare(false)} disabled={submitting}>
          Back
        </button>
        <button type="submit" className="button button--primary" disabled={!checked.ok || submitting}>
          {submitting ? 'Sending…' : 'I have sent it'}
        </button>
      </div>
    </form>
  );
}

/** Whether the payment has been seen on chain (an amount received, or confirmations counting). */
const paymentSeen = (topUp: Pick<TopUp, 'amountReceivedCrypto' | 'confirmations'>) =>
  topUp.amountReceivedCrypto !== null || topUp.confirmations > 0;

function Confirmations({ topUp }: { topUp: TopUp }) {
  const required = Math.max(1, topUp.confirmationsRequired);
  const done = Math.min(topUp.confirmations, required);
  if (!paymentSeen(topUp) && topUp.status !== 'credited') {
    return (
      <p className="wizard__confirmations">
        Confirmations: {topUp.confirmationsRequired} needed once the payment is seen on chain.
      </p>
    );
  }
  return (
    <div className="wizard__confirmations">
      <label>
        Confirmations: {topUp.confirmations} of {topUp.confirmationsRequired}
        <progress max={required} value={done} aria-label="Confirmations" />
      </label>
    </div>
  );
}

/** What "verifying" means now: declared and not seen yet, or seen and counting confirmations. */
function VerifyingNote({ topUp }: { topUp: TopUp }) {
  if (paymentSeen(topUp)) {
    return (
      <p>
        The payment was seen on chain; it is credited once it has {topUp.confirmationsRequired} confirmations.
      </p>
    );
  }
  return (
    <p>
      You declared the payment
      {topUp.txidSubmittedAt ? (
        <>
          {' '}
          on <Time iso={topUp.txidSubmittedAt} />
        </>
      ) : null}
      . The service is waiting to see it on chain: once it appears it needs {topUp.confirmationsRequired}{' '}
      confirmations, then it is credited. If no such payment appears, the declaration is rejected and you can
      declare again until <Time iso={topUp.txidDeadline} />.
    </p>
  );
}

/**
 * A link out of the app: web mode follows it (a new tab for https), the desktop window may not
 * navigate, so there main opens it in the system browser or the wallet (the store's `openLink`).
 */
function ExternalLink({
  url,
  className,
  children,
}: {
  url: string;
  className?: string;
  children: ReactNode;
}) {
  const openLink = useTopUpWizardStore((store) => store.openLink);
  const https = url.startsWith('https:');
  return (
    <a
      href={url}
      className={className}
      {...(https ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
      onClick={(event) => {
        if (openLink(url)) event.preventDefault();
      }}
    >
      {children}
    </a>
  );
}

function LinkError() {
  const linkError = useTopUpWizardStore((store) => store.linkError);
  return linkError ? <ErrorMessage error={linkError} title="The link did not open" /> : null;
}

function ExplorerLink({ url }: { url: string | null }) {
  const safe = safeExplorerUrl(url);
  if (!safe) return null;
  return (
    <>
      <ExternalLink url={safe}>View on {new URL(safe).host}</ExternalLink>
      <LinkError />
    </>
  );
}

export function StatusStep({ topUp }: { topUp: TopUp }) {
  const payment = useTopUpWizardStore((store) => store.payment);
  const showDeclare = useTopUpWizardStore((store) => store.showDeclare);
  const declarable = useSecondsLeft(declarationDeadline(topUp)) > 0;
  const explorer = payment.data?.explorerUrl ?? topUp.explorerUrl;
  const purchase = topUp.purchase;
  return (
    <section className="wizard__step" aria-label="Top-up status">
      <p className="wizard__status" aria-live="polite">
        Status: <StatusBadge status={topUp.status} />
      </p>
      {topUp.status === 'verifying' ? <VerifyingNote topUp={topUp} /> : null}
      <Confirmations topUp={topUp} />
      <dl className="wizard__details">
        <dt>Amount</dt>
        <dd className="money">
          {formatUsd(topUp.amountUsd)} ({topUp.amountCrypto} {topUp.coin})
        </dd>
        <dt>Received</dt>
        <dd className="money">
          {topUp.amountReceivedCrypto ? (
            `${topUp.amountReceivedCrypto} ${topUp.coin}`
          ) : (
            <span className="muted">not seen on chain yet</span>
          )}
        </dd>
        <dt>Transaction</dt>
        <dd>
          {topUp.txid ? (
            <>
              <code className="wizard__address">{topUp.txid}</code> <ExplorerLink url={explorer} />
            </>
          ) : (
            <span className="muted">not declared</span>
          )}
        </dd>
        {purchase ? <PurchaseSummary purchase={purchase} /> : null}
      </dl>
      {topUp.status === 'credited' ? (
        <div className="message message--ok" role="status">
          <p>
            Credited <strong className="money">{formatUsd(topUp.creditedUsd ?? topUp.amountUsd)}</strong>
            {topUp.creditedAt ? (
              <>
                {' '}
                on <Time iso={topUp.creditedAt} />
              </>
            ) : null}
            .
          </p>
          {purchase?.status === 'completed' ? (
            <p>
              Purchase of {purchase.quantity} × {purchase.planName} completed: order{' '}
              <code>{purchase.orderId}</code>.
            </p>
          ) : purchase?.status === 'failed' ? (
            <p>
              The purchase of {purchase.planName} failed: {purchase.failureReason ?? 'no reason given'}. The
              funds stay on your balance.
            </p>
          ) : purchase ? (
            <p>The purchase of {purchase.planName} is being placed.</p>
          ) : null}
        </div>
      ) : null}
      {topUp.status === 'rejected' ? (
        <div className="message message--error" role="alert">
          <p>
            The payment was rejected
            {describeRejection(topUp.rejection) ? `: ${describeRejection(topUp.rejection)}` : ''}.
          </p>
          {declarable ? (
            <p>
              If you declared the wrong transaction, declare the right one before{' '}
              <Time iso={topUp.txidDeadline} />.
            </p>
          ) : (
            <p>
              Its declaration deadline passed at <Time iso={topUp.txidDeadline} />: it takes no more.
            </p>
          )}
          <p>
            If less than the exact amount arrived (an exchange&rsquo;s withdrawal fee), it does not match this
            top-up: keep the transaction id and ask the service&rsquo;s support to credit it. For a new
            payment, start a new top-up.
          </p>
        </div>
      ) : null}
      {topUp.status === 'expired' ? (
        <div className="message message--warn" role="note">
          <p>
            The rate lock ended at <Time iso={topUp.expiresAt} />.
          </p>
          {declarable ? (
            <p>
              <strong>Already sent the payment?</strong> Declare it before <Time iso={topUp.txidDeadline} />:
              a payment of the exact amount that arrives after the rate lock is still matched until then; how
              it is credited is the service&rsquo;s to say (the rate may have moved since).
            </p>
          ) : (
            <p>
              Payments were matched until <Time iso={topUp.txidDeadline} />; this top-up takes no more
              declarations.
            </p>
          )}
          <p>Not sent yet? Do not pay this top-up any more: start a new one for a fresh rate.</p>
        </div>
      ) : null}
      <div className="wizard__actions">
        {declarable && topUp.status !== 'awaiting_payment' ? (
          <button type="button" className="button button--primary" onClick={() => showDeclare(true)}>
            {topUp.status === 'rejected' ? 'Declare again' : 'Declare the payment'}
          </button>
        ) : null}
      </div>
    </section>
  );
}

/** Loads the pay step's details when a top-up is shown without them (reopened from the history). */
export function usePaymentDetails(topUpId: string | undefined) {
  const payment = useTopUpWizardStore((store) => store.payment);
  const loadPayment = useTopUpWizardStore((store) => store.loadPayment);
  const idle = payment.status === 'idle';
  useEffect(() => {
    if (topUpId && idle) void loadPayment();
  }, [topUpId, idle, loadPayment]);
}
