import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TopUp } from '../../../../src-shared/api-types';
import type { IpcResult, TopUpPaymentDetails } from '../../../../src-shared/contract';
import { connectEventBridge } from '../../../../src-renderer/src/app/event-bridge';
import { useAppStore } from '../../../../src-renderer/src/features/app/app-store';
import { TopUpsScreen } from '../../../../src-renderer/src/features/topups/TopUpsScreen';
import { useTopUpWizardStore } from '../../../../src-renderer/src/features/topups/topup-wizard-store';
import { deferred, fail, ok } from '../../support/fake-api';
import {
  appState,
  coins,
  demoProfile,
  port,
  profile,
  subscription,
  topUp,
  topUpPage,
} from '../../support/fixtures';
import { settle, useFakeApi } from '../../support/renderer-test-kit';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');

const pending = (overrides: Partial<TopUp> = {}): TopUp =>
  topUp({
    id: 'topup_new',
    status: 'awaiting_payment',
    final: false,
    amountUsd: '50.00',
    coin: 'USDT',
    network: 'ethereum',
    address: '0xDeposit',
    amountCrypto: '50.000017',
    rate: '1.00',
    paymentUri: 'ethereum:0xToken@11155111/transfer?address=0xDeposit&uint256=50000017',
    confirmationsRequired: 12,
    confirmations: 0,
    amountReceivedCrypto: null,
    creditedUsd: null,
    creditedAt: null,
    ...overrides,
  });

const details = (overrides: Partial<TopUpPaymentDetails> = {}): TopUpPaymentDetails => ({
  topUpId: 'topup_new',
  paymentUri: 'ethereum:0xToken@11155111/transfer?address=0xDeposit&uint256=50000017',
  qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
  depositAddress: '0xDeposit',
  amountCrypto: '50.000017',
  coin: 'USDT',
  network: 'ethereum',
  tokenContract: '0xToken',
  explorerUrl: null,
  explorerHost: null,
  ...overrides,
});

describe('Top-up wizard', () => {
  const fake = useFakeApi(() => ({
    'topups:list': () => ok(topUpPage([])),
    'catalog:coins': () => ok(coins()),
    'topups:plans': () =>
      ok([{ planId: 'res-10gb', label: 'Home (residential)', source: 'subscription' as const }]),
    'topups:create': () => ok(pending()),
    'topups:paymentDetails': () => ok(details()),
  }));

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(NOW);
    useTopUpWizardStore.getState().reset();
    useAppStore.setState({ state: appState({ activeProfile: profile() }) });
  });
  afterEach(() => vi.useRealTimers());

  async function toCoinStep(amount = '50') {
    render(<TopUpsScreen />);
    fireEvent.click((await screen.findAllByRole('button', { name: 'Add funds' }))[0]!);
    fireEvent.change(screen.getByLabelText('Amount (USD)'), { target: { value: amount } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('radiogroup', { name: 'Coin and network' });
  }

  it('shows "No top-ups yet" with Add funds, and validates the amount as it is typed', async () => {
    render(<TopUpsScreen />);
    expect(await screen.findByText('No top-ups yet.')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Add funds' })[1]!);
    const amount = screen.getByLabelText('Amount (USD)');
    const next = screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' });
    expect(next.disabled).toBe(true);
    fireEvent.change(amount, { target: { value: '24.99' } });
    expect(screen.getByText('The minimum is 25.00 USD.')).toBeTruthy();
    fireEvent.change(amount, { target: { value: '1000000.01' } });
    expect(screen.getByText(/at most 1,000,000.00 USD in one top-up, to catch a typo/)).toBeTruthy();
    expect(next.disabled).toBe(true);
    // Above the service's default maximum: a warning, and the service decides.
    fireEvent.change(amount, { target: { value: '10000.01' } });
    expect(screen.getByRole('status').textContent).toContain(
      'above 10,000.00 USD, the service’s default maximum',
    );
    expect(amount.getAttribute('aria-invalid')).toBeNull();
    expect(next.disabled).toBe(false);
    fireEvent.change(amount, { target: { value: '50.123' } });
    expect(screen.getByText('Use at most two decimals (cents).')).toBeTruthy();
    expect(next.disabled).toBe(true);
    fireEvent.change(amount, { target: { value: '50.5' } });
    expect(amount.getAttribute('aria-invalid')).toBeNull();
    expect(next.disabled).toBe(false);
  });

  it('offers each coin and network with confirmations and time, and warns about the wrong network', async () => {
    await toCoinStep();
    const group = screen.getByRole('radiogroup', { name: 'Coin and network' });
    expect(group.textContent).toContain('20 confirmations, about 3 min');
    expect(group.textContent).toContain('12 confirmations');
    fireEvent.click(within(group).getByLabelText('USDT on Ethereum (ERC-20)'));
    const warning = screen.getByText(/Send USDT on the Ethereum \(ERC-20\) network only/).closest('div')!;
    expect(warning.textContent).toContain('nobody can recover it');
    expect(warning.textContent).toContain('Ignore anyone who offers');
  });

  it('creates once per attempt: a double click sends one request, a retry after an error reuses the attempt id', async () => {
    const answer = deferred<IpcResult<TopUp>>();
    fake.current.handle('topups:create', () => answer.promise);
    await toCoinStep('50');
    fireEvent.click(screen.getByLabelText('USDT on Ethereum (ERC-20)'));
    const create = screen.getByRole('button', { name: 'Create top-up' });
    fireEvent.click(create);
    fireEvent.click(create);
    await settle();
    expect(fake.current.callsTo('topups:create')).toHaveLength(1);
    answer.resolve(fail('network_error', 'The service did not answer.', { outcomeUnknown: true }));
    await settle();
    expect(await screen.findByText('The service did not answer.')).toBeTruthy();
    fake.current.handle('topups:create', () => ok(pending()));
    fireEvent.click(screen.getByRole('button', { name: 'Create top-up' }));
    await settle();
    const [first, second] = fake.current.callsTo('topups:create') as { attemptId: string }[];
    expect(first).toMatchObject({ amountUsd: '50.00', coin: 'USDT', network: 'ethereum' });
    expect(first?.attemptId).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.attemptId).toBe(first?.attemptId);
    expect(await screen.findByRole('region', { name: 'Pay' })).toBeTruthy();
  });

  it('a changed amount is a new attempt', async () => {
    fake.current.handle('topups:create', () => fail('network_error', 'down'));
    await toCoinStep('50');
    fireEvent.click(screen.getByLabelText('USDT on Tron (TRC-20)'));
    fireEvent.click(screen.getByRole('button', { name: 'Create top-up' }));
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    fireEvent.change(screen.getByLabelText('Amount (USD)'), { target: { value: '60' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create top-up' }));
    await settle();
    const [first, second] = fake.current.callsTo('topups:create') as {
      attemptId: string;
      amountUsd: string;
    }[];
    expect(second?.amountUsd).toBe('60.00');
    expect(second?.attemptId).not.toBe(first?.attemptId);
  });

  it('puts the server’s amount and purchase errors on the amount step, where they belong', async () => {
    fake.current.handle('topups:create', () =>
      fail('validation_failed', 'Some fields are invalid', {
        fields: [
          { field: 'amountUsd', message: 'Does not cover the purchase (too_small)' },
          { field: 'purchase.quantity', message: 'Too many for this plan' },
        ],
      }),
    );
    render(<TopUpsScreen />);
    fireEvent.click((await screen.findAllByRole('button', { name: 'Add funds' }))[0]!);
    fireEvent.change(screen.getByLabelText('Amount (USD)'), { target: { value: '25' } });
    fireEvent.click(screen.getByLabelText('Buy a plan with it once it is credited'));
    await settle();
    expect(document.querySelector('datalist option')?.getAttribute('value')).toBe('res-10gb');
    fireEvent.change(screen.getByLabelText('Plan'), { target: { value: 'res-10gb' } });
    fireEvent.change(screen.getByLabelText('Quantity'), { target: { value: '500' } });
    fireEvent.change(screen.getByLabelText('Promo code (optional)'), { target: { value: 'SPRING' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByLabelText('USDT on Tron (TRC-20)'));
    fireEvent.click(screen.getByRole('button', { name: 'Create top-up' }));
    await settle();
    expect(fake.current.callsTo('topups:create')[0]).toMatchObject({
      amountUsd: '25.00',
      purchase: { planId: 'res-10gb', quantity: 500, promoCode: 'SPRING' },
    });
    expect(screen.getByLabelText('Amount (USD)')).toBeTruthy();
    expect(screen.getByText('Does not cover the purchase (too_small)')).toBeTruthy();
    expect(screen.getByText('Too many for this plan')).toBeTruthy();
  });

  it('shows plan_unavailable on the plan field', async () => {
    fake.current.handle('topups:create', () => fail('plan_unavailable', 'This plan is not sold now.'));
    render(<TopUpsScreen />);
    fireEvent.click((await screen.findAllByRole('button', { name: 'Add funds' }))[0]!);
    fireEvent.change(screen.getByLabelText('Amount (USD)'), { target: { value: '30' } });
    fireEvent.click(screen.getByLabelText('Buy a plan with it once it is credited'));
    fireEvent.change(screen.getByLabelText('Plan'), { target: { value: 'gone' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByLabelText('USDT on Tron (TRC-20)'));
    fireEvent.click(screen.getByRole('button', { name: 'Create top-up' }));
    await settle();
    const plan = screen.getByLabelText('Plan');
    expect(plan.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('This plan is not sold now.')).toBeTruthy();
  });

  it('pay step: exact copies, token contract apart from the deposit address, QR of the URI, countdown', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await toCoinStep('50');
    fireEvent.click(screen.getByLabelText('USDT on Ethereum (ERC-20)'));
    fireEvent.click(screen.getByRole('button', { name: 'Create top-up' }));
    const pay = await screen.findByRole('region', { name: 'Pay' });
    await settle();
    fireEvent.click(within(pay).getByRole('button', { name: 'Copy amount' }));
    fireEvent.click(within(pay).getByRole('button', { name: 'Copy address' }));
    expect(writeText.mock.calls).toEqual([['50.000017'], ['0xDeposit']]);
    expect(pay.textContent).toContain('Token contract');
    expect(pay.textContent).toContain('0xToken');
    const qr = within(pay).getByRole('img');
    expect(qr.getAttribute('alt')).toBe(`QR code of ${details().paymentUri}`);
    expect(decodeURIComponent(qr.getAttribute('src')!.split(',')[1]!)).toBe(details().qrSvg);
    expect(within(pay).getByRole('link', { name: 'Open in wallet' }).getAttribute('href')).toBe(
      details().paymentUri,
    );
    expect(within(pay).getByLabelText('Time left').textContent).toBe('30:00');
    act(() => {
      vi.advanceTimersByTime(61_000);
    });
    expect(within(pay).getByLabelText('Time left').textContent).toBe('28:59');
    // The exact amount has to arrive (fees come on top), on the network named as the coin step named it.
    expect(within(pay).getByRole('note').textContent).toContain(
      'Exactly this amount must arrive, on the Ethereum (ERC-20) network.',
    );
    expect(pay.textContent).toContain('add that fee on top, so that the full amount arrives');
    expect(pay.textContent).not.toMatch(/the ethereum network|Network: ?ethereum/);
    expect(within(pay).getByText('Ethereum (ERC-20)').getAttribute('title')).toBe('Network id: ethereum');
    expect(within(pay).queryByRole('note', { name: 'Demo payment' })).toBeNull();
  });

  it('demo mode: a no-real-funds banner and simulated payments', async () => {
    useAppStore.setState({ state: appState({ activeProfile: demoProfile() }) });
    fake.current.handle('topups:simulatePayment', () =>
      ok(pending({ status: 'verifying', confirmations: 1 })),
    );
    await toCoinStep('50');
    fireEvent.click(screen.getByLabelText('USDT on Ethereum (ERC-20)'));
    fireEvent.click(screen.getByRole('button', { name: 'Create top-up' }));
    const banner = await screen.findByRole('note', { name: 'Demo payment' });
    expect(banner.textContent).toContain('do not send real funds');
    fireEvent.click(within(banner).getByRole('button', { name: 'Simulate payment: short' }));
    await settle();
    expect(fake.current.callsTo('topups:simulatePayment')).toEqual([{ topUpId: 'topup_new', kind: 'short' }]);
    expect(await screen.findByText('Confirmations: 1 of 12')).toBeTruthy();
  });

  it('refuses a malformed txid on the form and sends a valid one; explains txid_already_used', async () => {
    const txid = `0x${'ab'.repeat(32)}`;
    fake.current.handle('topups:declareTxid', () => fail('txid_already_used', 'txid already claimed'));
    await toCoinStep('50');
    fireEvent.click(screen.getByLabelText('USDT on Ethereum (ERC-20)'));
    fireEvent.click(screen.getByRole('button', { name: 'Create top-up' }));
    fireEvent.click(await screen.findByRole('button', { name: 'I have sent it' }));
    const form = screen.getByRole('form', { name: 'I have sent it' });
    const field = within(form).getByLabelText('Transaction id (optional)');
    const submit = within(form).getByRole<HTMLButtonElement>('button', { name: 'I have sent it' });
    fireEvent.change(field, { target: { value: 'ab'.repeat(32) } });
    expect(
      within(form).getByText('A ethereum transaction id is 0x followed by 64 hexadecimal characters.'),
    ).toBeTruthy();
    expect(submit.disabled).toBe(true);
    fireEvent.submit(form);
    await settle();
    expect(fake.current.callsTo('topups:declareTxid')).toEqual([]);
    fireEvent.change(field, { target: { value: txid } });
    fireEvent.click(submit);
    await settle();
    expect(fake.current.callsTo('topups:declareTxid')).toEqual([{ topUpId: 'topup_new', txid }]);
    expect(screen.getByText(/already declared for another top-up/)).toBeTruthy();
  });

  it('follows the top-up live from topups:changed, closed and reopened, to credited with the purchase', async () => {
    fake.current.handle('app:getState', () => ok(appState({ activeProfile: profile() })));
    const disconnect = connectEventBridge({ api: fake.current.api, onConnected: null });
    await toCoinStep('50');
    fireEvent.click(screen.getByLabelText('USDT on Ethereum (ERC-20)'));
    fireEvent.click(screen.getByRole('button', { name: 'Create top-up' }));
    await screen.findByRole('region', { name: 'Pay' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    const txid = `0x${'cd'.repeat(32)}`;
    act(() =>
      fake.current.emit('topups:changed', {
        profileId: profile().id,
        changed: [
          pending({
            status: 'verifying',
            confirmations: 3,
            txid,
            explorerUrl: `https://sepolia.etherscan.io/tx/${txid}`,
            amountReceivedCrypto: '50.000017',
          }),
        ],
      }),
    );
    fireEvent.click(screen.getAllByRole('button', { name: 'Add funds' })[0]!);
    expect(screen.getByText('Confirmations: 3 of 12')).toBeTruthy();
    expect(screen.getByRole<HTMLProgressElement>('progressbar', { name: 'Confirmations' }).value).toBe(3);
    const link = screen.getByRole('link', { name: 'View on sepolia.etherscan.io' });
    expect(link.getAttribute('target')).toBe('_blank');
    act(() =>
      fake.current.emit('topups:changed', {
        profileId: profile().id,
        changed: [
          pending({
            status: 'credited',
            final: true,
            confirmations: 12,
            txid,
            creditedUsd: '50.00',
            creditedAt: '2026-03-10T12:05:00.000Z',
            purchase: {
              planId: 'res-10gb',
              planName: 'Residential 10 GB',
              quantity: 1,
              options: {},
              promoCode: null,
              total: '45.00',
              status: 'completed',
              orderId: 'ord_77',
              failureReason: null,
            },
          }),
        ],
      }),
    );
    expect(screen.getByText(/Purchase of 1 × Residential 10 GB completed/).textContent).toContain('ord_77');
    expect(screen.getByRole('status').textContent).toContain('Credited 50.00 USD');
    // Another profile's top-up with the same id is not this one.
    act(() => fake.current.emit('topups:changed', { profileId: 'other', changed: [pending()] }));
    expect(screen.getByRole('status').textContent).toContain('Credited');
    disconnect();
  });

  it('a top-up opened from the history is read again, and the history row opens it', async () => {
    fake.current.handle('topups:list', () => ok(topUpPage([pending()])));
    fake.current.handle('topups:get', () => ok(pending({ status: 'expired' })));
    render(<TopUpsScreen />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open top-up topup_new' }));
    await settle();
    expect(fake.current.callsTo('topups:get')).toEqual([{ topUpId: 'topup_new' }]);
    expect(screen.getByRole('dialog').getAttribute('data-status')).toBe('expired');
    expect(screen.getByRole('button', { name: 'Declare the payment' })).toBeTruthy();
  });

  it('desktop: "Open in wallet" and the explorer link go through main (app:openExternal); a refusal is shown', async () => {
    useAppStore.setState({ state: appState({ mode: 'desktop', activeProfile: profile() }) });
    fake.current.handle('app:openExternal', () => ok({ opened: true as const }));
    await toCoinStep('50');
    fireEvent.click(screen.getByLabelText('USDT on Ethereum (ERC-20)'));
    fireEvent.click(screen.getByRole('button', { name: 'Create top-up' }));
    const pay = await screen.findByRole('region', { name: 'Pay' });
    await settle();
    const wallet = within(pay).getByRole('link', { name: 'Open in wallet' });
    // The click's default (a navigation the window's guards would block) is prevented.
    expect(fireEvent.click(wallet)).toBe(false);
    await settle();
    expect(fake.current.callsTo('app:openExternal')).toEqual([{ url: details().paymentUri }]);

    fake.current.handle('app:openExternal', () =>
      fail('link_not_opened', 'No wallet app on this computer opens this payment link.'),
    );
    fireEvent.click(wallet);
    await settle();
    expect(within(pay).getByText('No wallet app on this computer opens this payment link.')).toBeTruthy();

    const txid = `0x${'cd'.repeat(32)}`;
    const explorerUrl = `https://sepolia.etherscan.io/tx/${txid}`;
    fake.current.handle('topups:paymentDetails', () => ok(details({ explorerUrl })));
    fake.current.handle('app:openExternal', () => ok({ opened: true as const }));
    act(() =>
      useTopUpWizardStore.getState().applyChanges([pending({ status: 'verifying', txid, explorerUrl })]),
    );
    await settle();
    const explorer = screen.getByRole('link', { name: 'View on sepolia.etherscan.io' });
    expect(fireEvent.click(explorer)).toBe(false);
    await settle();
    expect(fake.current.callsTo('app:openExternal').at(-1)).toEqual({ url: explorerUrl });
  });

  it('web mode: the links are the browser’s own (no call to main)', async () => {
    await toCoinStep('50');
    fireEvent.click(screen.getByLabelText('USDT on Ethereum (ERC-20)'));
    fireEvent.click(screen.getByRole('button', { name: 'Create top-up' }));
    const pay = await screen.findByRole('region', { name: 'Pay' });
    await settle();
    expect(fireEvent.click(within(pay).getByRole('link', { name: 'Open in wallet' }))).toBe(true);
    expect(fake.current.callsTo('app:openExternal')).toEqual([]);
  });

  it('an http explorer link is not shown', async () => {
    useTopUpWizardStore
      .getState()
      .openTopUp(pending({ status: 'verifying', txid: 'x', explorerUrl: 'http://evil.example/tx' }));
    fake.current.handle('topups:paymentDetails', () => ok(details({ explorerUrl: null })));
    render(<TopUpsScreen />);
    await settle();
    expect(screen.getByText('Confirmations: 12 needed once the payment is seen on chain.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /View on/ })).toBeNull();
  });

  it('a declared payment not seen on chain yet says so, not that it was seen', async () => {
    useTopUpWizardStore.getState().openTopUp(
      pending({
        status: 'verifying',
        txid: `0x${'ab'.repeat(32)}`,
        txidSubmittedAt: '2026-03-10T12:01:00.000Z',
        confirmations: 0,
        amountReceivedCrypto: null,
      }),
    );
    render(<TopUpsScreen />);
    await settle();
    const status = screen.getByRole('region', { name: 'Top-up status' });
    expect(status.textContent).toContain('You declared the payment on');
    expect(status.textContent).toContain('The service is waiting to see it on chain');
    expect(status.textContent).not.toContain('The payment was seen');
    expect(status.textContent).not.toContain('0 of 12');
    expect(within(status).getByText('not seen on chain yet')).toBeTruthy();
    // Once it is seen, the other sentence.
    act(() =>
      useTopUpWizardStore
        .getState()
        .applyChanges([
          pending({ status: 'verifying', confirmations: 1, amountReceivedCrypto: '50.000017' }),
        ]),
    );
    expect(status.textContent).toContain(
      'The payment was seen on chain; it is credited once it has 12 confirmations.',
    );
    expect(status.textContent).toContain('Confirmations: 1 of 12');
  });

  it('expired: says payments still match until the deadline and offers to declare; rejected: declare again', async () => {
    useTopUpWizardStore.getState().openTopUp(pending({ status: 'expired' }));
    render(<TopUpsScreen />);
    await settle();
    const note = screen.getByRole('note').textContent;
    expect(note).toContain('Already sent the payment? Declare it before');
    expect(note).toContain('is still matched until then');
    expect(note).toContain('Not sent yet? Do not pay this top-up any more: start a new one');
    fireEvent.click(screen.getByRole('button', { name: 'Declare the payment' }));
    expect(screen.getByRole('form', { name: 'I have sent it' })).toBeTruthy();
    act(() =>
      useTopUpWizardStore.getState().openTopUp(
        pending({
          status: 'rejected',
          rejection: { reason: 'amount_mismatch', message: 'Amount too low' },
        }),
      ),
    );
    expect(screen.getByRole('alert').textContent).toContain('Amount too low');
    expect(screen.getByRole('alert').textContent).toContain('declare the right one before');
    expect(screen.getByRole('alert').textContent).toContain('ask the service’s support to credit it');
    expect(screen.getByRole('button', { name: 'Declare again' })).toBeTruthy();
    // After txidDeadline nothing can be declared any more.
    act(() => {
      vi.setSystemTime(Date.parse('2026-03-14T00:00:00.000Z'));
    });
    act(() => useTopUpWizardStore.getState().openTopUp(pending({ status: 'rejected', final: true })));
    expect(screen.queryByRole('button', { name: 'Declare again' })).toBeNull();
  });

  it('pay step: the QR code, exact amount and address come before the warnings; done steps are ticked, not struck', async () => {
    useAppStore.setState({ state: appState({ activeProfile: demoProfile() }) });
    await toCoinStep('50');
    fireEvent.click(screen.getByLabelText('USDT on Ethereum (ERC-20)'));
    fireEvent.click(screen.getByRole('button', { name: 'Create top-up' }));
    const pay = await screen.findByRole('region', { name: 'Pay' });
    await settle();
    const qr = within(pay).getByRole('img');
    const amount = within(pay).getByTestId('amount-crypto');
    const address = within(pay).getByTestId('deposit-address');
    const notes = within(pay).getByRole('complementary', { name: 'Before you send' });
    for (const first of [qr, amount, address]) {
      expect(first.compareDocumentPosition(notes) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    }
    // Both warnings (the exact amount, the demo's) are beside them, in the notes.
    expect(within(notes).getAllByRole('note')).toHaveLength(2);

    const steps = within(screen.getByRole('dialog')).getByRole('list', { name: 'Steps' });
    const items = within(steps).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      '✓ Amount (done)',
      '✓ Coin and network (done)',
      'Pay',
      'I have sent it',
      'Confirming',
    ]);
    const css = readFileSync(join(process.cwd(), 'src-renderer/src/styles.css'), 'utf8');
    expect(css).not.toMatch(/\.wizard__steps-done\s*\{[^}]*line-through/);
  });

  it('"Top up…" on a subscription offers its plan, and says plainly that the price and balance are not known', async () => {
    fake.current.handle('subscriptions:get', () =>
      ok(subscription({ id: 'sub_9', label: 'Social QA', planId: 'res-50' })),
    );
    render(<TopUpsScreen />);
    await settle();
    let answer:
      Awaited<ReturnType<ReturnType<typeof useTopUpWizardStore.getState>['startForItem']>> | undefined;
    await act(async () => {
      answer = await useTopUpWizardStore.getState().startForItem({ source: 'subscription', id: 'sub_9' });
    });
    expect(answer?.ok).toBe(true);
    const step = screen.getByRole('form', { name: 'Amount' });
    expect(within(step).getByTestId('topup-target').textContent).toContain('For the subscription Social QA');
    expect(within(step).getByRole<HTMLInputElement>('checkbox', { name: /Buy a plan/ }).checked).toBe(true);
    expect(within(step).getByLabelText<HTMLInputElement>('Plan').value).toBe('res-50');
    expect(within(step).getByTestId('price-unknown').textContent).toMatch(
      /does not say a plan’s price or your balance/,
    );
    expect(within(step).getByTestId('balance-unknown').textContent).toMatch(/balance is not shown here/);

    // What the answer gives: the purchase's total as the service priced it.
    fake.current.handle('topups:create', () =>
      ok(
        pending({
          purchase: {
            planId: 'res-50',
            planName: 'Residential 50 GB',
            quantity: 1,
            options: {},
            promoCode: null,
            total: '45.00',
            status: 'pending',
            orderId: null,
            failureReason: null,
          },
        }),
      ),
    );
    fireEvent.change(within(step).getByLabelText('Amount (USD)'), { target: { value: '50' } });
    fireEvent.click(within(step).getByRole('button', { name: 'Continue' }));
    await screen.findByRole('radiogroup', { name: 'Coin and network' });
    fireEvent.click(screen.getByLabelText('USDT on Ethereum (ERC-20)'));
    fireEvent.click(screen.getByRole('button', { name: 'Create top-up' }));
    const pay = await screen.findByRole('region', { name: 'Pay' });
    await settle();
    expect(fake.current.callsTo('topups:create')[0]).toMatchObject({
      purchase: { planId: 'res-50', quantity: 1 },
    });
    expect(pay.textContent).toContain('1 × Residential 50 GB');
    expect(pay.textContent).toContain('45.00 USD');
  });

  it('"Top up…" on a port reads the port for its plan; an unreadable one still opens the wizard, empty', async () => {
    fake.current.handle('ports:get', () => ok(port({ id: 'mp_4', label: '', planId: 'mobile-30d' })));
    render(<TopUpsScreen />);
    await settle();
    await act(async () => {
      await useTopUpWizardStore.getState().startForItem({ source: 'port', id: 'mp_4' });
    });
    expect(screen.getByTestId('topup-target').textContent).toContain('For the port mp_4');
    expect(screen.getByLabelText<HTMLInputElement>('Plan').value).toBe('mobile-30d');

    fake.current.handle('ports:get', () => fail('not_found', 'No such port'));
    let answer: { ok: boolean } | undefined;
    await act(async () => {
      answer = await useTopUpWizardStore.getState().startForItem({ source: 'port', id: 'mp_gone' });
    });
    expect(answer?.ok).toBe(false);
    expect(screen.getByRole('form', { name: 'Amount' })).toBeTruthy();
    expect(screen.queryByTestId('topup-target')).toBeNull();
  });
});
