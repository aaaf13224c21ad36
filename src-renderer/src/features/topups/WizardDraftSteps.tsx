import { useEffect, useId } from 'react';
import type { Coin } from '../../../../src-shared/api-types';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { TextField } from '../../shared/components/TextField';
import { fieldErrorsOf } from '../../shared/field-errors';
import { useCoins } from '../catalog/catalog-hooks';
import { checkAmountUsd, checkOptions, checkQuantity } from './topup-input';
import { purchaseOf, useTopUpWizardStore } from './topup-wizard-store';

/** Server errors that belong on the amount step, keyed by the form's field names. */
function useAmountStepErrors() {
  const error = useTopUpWizardStore((store) => store.createError);
  const fields = fieldErrorsOf(error);
  if (error?.code === 'too_small' && !fields.amountUsd) fields.amountUsd = error.message;
  if (error?.code === 'plan_unavailable') fields['purchase.planId'] ??= error.message;
  return { error, fields };
}

export function AmountStep() {
  const draft = useTopUpWizardStore((store) => store.draft);
  const target = useTopUpWizardStore((store) => store.target);
  const plans = useTopUpWizardStore((store) => store.plans);
  const setAmount = useTopUpWizardStore((store) => store.setAmount);
  const setPurchase = useTopUpWizardStore((store) => store.setPurchase);
  const loadPlans = useTopUpWizardStore((store) => store.loadPlans);
  const goTo = useTopUpWizardStore((store) => store.goTo);
  const { fields } = useAmountStepErrors();
  const planListId = useId();
  const purchase = draft.purchase;
  useEffect(() => {
    if (purchase.enabled) void loadPlans();
  }, [purchase.enabled, loadPlans]);

  const amount = checkAmountUsd(draft.amount);
  // Nothing typed yet is not an error to shout about; everything else is checked as typed.
  const amountError = draft.amount === '' ? undefined : amount.ok ? fields.amountUsd : amount.message;
  const quantity = checkQuantity(purchase.quantity);
  const options = checkOptions(purchase.options);
  const canContinue = amount.ok && purchaseOf(purchase).ok;

  return (
    <form
      className="wizard__step"
      aria-label="Amount"
      onSubmit={(event) => {
        event.preventDefault();
        goTo('coin');
      }}
    >
      <TextField
        label="Amount (USD)"
        value={draft.amount}
        onChange={setAmount}
        inputMode="decimal"
        autoComplete="off"
        placeholder="50.00"
        error={amountError}
        hint="From 25.00 USD, with at most two decimals. The service’s default maximum is 10,000.00 USD."
      />
      {amount.ok && amount.warning && !amountError ? (
        <p className="message message--warn" role="status">
          {amount.warning}
        </p>
      ) : null}
      <p className="muted small" data-testid="balance-unknown">
        Your account’s balance is not shown here: the service’s API does not give it. What a credited top-up
        added is shown once it is credited.
      </p>
      {target ? (
        <p className="message message--info" data-testid="topup-target">
          For the {target.source} <strong>{target.label}</strong>: its plan{' '}
          <span className="code">{target.planId}</span> is filled in below, to buy once the funds are
          credited.
        </p>
      ) : null}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={purchase.enabled}
          onChange={(event) => setPurchase({ enabled: event.target.checked })}
        />{' '}
        Buy a plan with it once it is credited
      </label>
      {purchase.enabled ? (
        <fieldset className="wizard__purchase">
          <legend>Purchase</legend>
          <p className="muted small" data-testid="price-unknown">
            The service does not say a plan’s price or your balance before the top-up is made, so the app
            cannot show them here. Enter an amount that covers the purchase (the service needs the amount to
            cover its total minus your balance, and refuses a smaller one with a message on the amount). Once
            the top-up is made, the wizard shows the purchase’s total as the service priced it.
          </p>
          <TextField
            label="Plan"
            value={purchase.planId}
            onChange={(planId) => setPurchase({ planId })}
            list={planListId}
            autoComplete="off"
            placeholder="Plan id"
            error={fields['purchase.planId']}
            hint={
              plans.status === 'error'
                ? 'Your plans could not be listed; type a plan id.'
                : 'One of your subscriptions’ or ports’ plans, or any plan id.'
            }
          />
          <datalist id={planListId}>
            {(plans.data ?? []).map((plan) => (
              <option key={`${plan.source}-${plan.planId}`} value={plan.planId}>
                {plan.label}
              </option>
            ))}
          </datalist>
          <TextField
            label="Quantity"
            value={purchase.quantity}
            onChange={(value) => setPurchase({ quantity: value })}
            inputMode="numeric"
            error={quantity.ok ? fields['purchase.quantity'] : quantity.message}
          />
          <TextField
            label="Options (JSON, optional)"
            value={purchase.options}
            onChange={(value) => setPurchase({ options: value })}
            placeholder='{"country": "US"}'
            error={options.ok ? fields['purchase.options'] : options.message}
          />
          <TextField
            label="Promo code (optional)"
            value={purchase.promoCode}
            onChange={(promoCode) => setPurchase({ promoCode })}
            error={fields['purchase.promoCode']}
          />
          {Object.entries(fields)
            .filter(
              ([field]) =>
                field.startsWith('purchase.') &&
                !['purchase.planId', 'purchase.quantity', 'purchase.options', 'purchase.promoCode'].includes(
                  field,
                ),
            )
            .map(([field, message]) => (
              <p key={field} className="field__error">
                {field.slice('purchase.'.length)}: {message}
              </p>
            ))}
        </fieldset>
      ) : null}
      <div className="wizard__actions">
        <button type="submit" className="button button--primary" disabled={!canContinue}>
          Continue
        </button>
      </div>
    </form>
  );
}

function NetworkChoices({ coins }: { coins: Coin[] }) {
  const draft = useTopUpWizardStore((store) => store.draft);
  const chooseNetwork = useTopUpWizardStore((store) => store.chooseNetwork);
  const name = useId();
  return (
    <div role="radiogroup" aria-label="Coin and network" className="wizard__networks">
      {coins.flatMap((coin) =>
        coin.networks.map((network) => {
          const checked = draft.coin === coin.code && draft.network === network.id;
          return (
            <label
              key={`${coin.code}-${network.id}`}
              className={`choice${checked ? ' choice--checked' : ''}`}
            >
              <input
                type="radio"
                name={name}
                checked={checked}
                onChange={() => chooseNetwork(coin.code, network.id)}
                aria-label={`${coin.code} on ${network.name}`}
              />
              <span className="choice__title">
                {coin.name} <span className="code">{coin.code}</span> on {network.name}
              </span>
              <span className="muted small">
                {network.confirmationsRequired} confirmations
                {network.estimatedMinutes === null ? '' : `, about ${network.estimatedMinutes} min`}
              </span>
            </label>
          );
        }),
      )}
    </div>
  );
}

export function CoinStep() {
  const { loadable, retry } = useCoins();
  const draft = useTopUpWizardStore((store) => store.draft);
  const creating = useTopUpWizardStore((store) => store.creating);
  const createError = useTopUpWizardStore((store) => store.createError);
  const create = useTopUpWizardStore((store) => store.create);
  const goTo = useTopUpWizardStore((store) => store.goTo);
  const chosen = loadable?.data
    ?.find((coin) => coin.code === draft.coin)
    ?.networks.find((network) => network.id === draft.network);
  const amount = checkAmountUsd(draft.amount);
  return (
    <form
      className="wizard__step"
      aria-label="Coin and network"
      onSubmit={(event) => {
        event.preventDefault();
        void create();
      }}
    >
      <p>
        Top-up of <strong className="money">{amount.ok ? amount.amountUsd : draft.amount} USD</strong>
        {draft.purchase.enabled ? ' with a purchase' : ''}.
      </p>
      <AsyncContent
        loadable={loadable}
        what="coins"
        onRetry={retry}
        empty={<p>The service lists no coins.</p>}
      >
        {(coins) => <NetworkChoices coins={coins} />}
      </AsyncContent>
      {chosen && draft.coin ? (
        <div className="message message--warn" role="note">
          <p>
            <strong>
              Send {draft.coin} on the {chosen.name} network only.
            </strong>{' '}
            {draft.coin} sent on any other network is lost: it cannot be credited and nobody can recover it.
            Ignore anyone who offers to “recover” it.
          </p>
          <p>
            {chosen.confirmationsRequired} confirmations are needed
            {chosen.estimatedMinutes === null ? '' : ` (about ${chosen.estimatedMinutes} min)`}.
          </p>
        </div>
      ) : null}
      {createError ? <ErrorMessage error={createError} title="The top-up was not created" /> : null}
      <div className="wizard__actions">
        <button type="button" className="button" onClick={() => goTo('amount')} disabled={creating}>
          Back
        </button>
        <button type="submit" className="button button--primary" disabled={!chosen || creating}>
          {creating ? 'Creating…' : 'Create top-up'}
        </button>
      </div>
    </form>
  );
}
