import jsQR from 'jsqr';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Coin, TopUp } from '../../src-main/api/api-types';
import type { IpcResult } from '../../src-main/ipc/contract';
import {
  browserSkipReason,
  launchBrowser,
  requireBrowser,
  screenshot,
  type TestBrowser,
} from './support/browser';
import { startWebMode, type WebModeProcess } from './support/web-mode';

/**
 * The top-up wizard in web mode against the demo sandbox: a paid top-up with a purchase seen credited
 * live, an expired one declared late, malformed txids refused on the form, and the QR code of every
 * coin and network decoded (jsqr) back to exactly the service's `paymentUri`.
 */

const wizard = (page: Page) => page.getByRole('dialog');

async function openTopUps(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Top-ups', exact: true })
    .click();
  await page.getByRole('heading', { level: 1, name: 'Top-ups' }).waitFor();
}

/** Calls the contract from the page, as the renderer does (web transport, session token). */
async function callInPage<T>(page: Page, domain: string, member: string, input?: unknown): Promise<T> {
  const result = await page.evaluate(
    async ([d, m, i]) => {
      const api = (window as unknown as { api: Record<string, Record<string, (input?: unknown) => unknown>> })
        .api;
      return await api[d]![m]!(i);
    },
    [domain, member, input] as const,
  );
  const typed = result as IpcResult<T>;
  if (!typed.ok) throw new Error(`${domain}.${member}: ${typed.error.message}`);
  return typed.value;
}

/** Draws the QR image on a canvas in the page and decodes its pixels with jsqr here. */
async function decodeQr(qr: Locator): Promise<string | null> {
  const pixels = await qr.evaluate(async (node) => {
    const img = node as HTMLImageElement;
    if (!img.complete) await new Promise((done) => img.addEventListener('load', done, { once: true }));
    const size = 600;
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, size, size);
    // Drawn with a white margin: the quiet zone a scanner needs.
    context.drawImage(img, 40, 40, size - 80, size - 80);
    return { data: Array.from(context.getImageData(0, 0, size, size).data), width: size, height: size };
  });
  return jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height)?.data ?? null;
}

async function startTopUp(page: Page, amount: string, coinLabel: string) {
  const addFunds = page.getByRole('button', { name: 'Add funds' }).first();
  await addFunds.click();
  const dialog = wizard(page);
  if (await dialog.getByRole('button', { name: 'New top-up' }).isVisible()) {
    await dialog.getByRole('button', { name: 'New top-up' }).click();
  }
  await dialog.getByLabel('Amount (USD)').fill(amount);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await dialog.getByLabel(coinLabel, { exact: true }).check();
  await dialog.getByRole('button', { name: 'Create top-up' }).click();
  await dialog.getByRole('region', { name: 'Pay' }).waitFor();
  const topUpId = await dialog.getAttribute('data-topup-id');
  if (!topUpId) throw new Error('the wizard shows no top-up id');
  return topUpId;
}

describe('web mode in a browser: top-ups', () => {
  let web: WebModeProcess;
  let browser: TestBrowser;

  beforeAll(async () => {
    if (browserSkipReason) return;
    web = await startWebMode({ demo: true });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
  });

  async function openApp() {
    const opened = await browser.newPage();
    await opened.page.goto(web.url);
    await opened.page.getByRole('navigation', { name: 'Main' }).waitFor();
    await opened.page.locator('[data-testid="connection-status"][data-status="online"]').waitFor();
    await openTopUps(opened.page);
    return opened;
  }

  it('amount -> coin -> pay -> simulated payment -> credited with a completed purchase, live', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openApp();
    await page.getByRole('button', { name: 'Add funds' }).first().click();
    const dialog = wizard(page);
    await dialog.getByLabel('Amount (USD)').fill('24.99');
    await dialog.getByText('The minimum is 25.00 USD.').waitFor();
    await dialog.getByLabel('Amount (USD)').fill('150.00');
    await dialog.getByLabel('Buy a plan with it once it is credited').check();
    const plans = await callInPage<{ planId: string }[]>(page, 'topups', 'plans');
    expect(plans.length).toBeGreaterThan(0);
    await dialog.getByLabel('Plan').fill(plans[0]!.planId);
    await screenshot(page, 'topups-wizard-amount');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByLabel('USDT on Tron (TRC-20)', { exact: true }).check();
    await dialog.getByText(/nobody can recover it/).waitFor();
    await screenshot(page, 'topups-wizard-coin');
    await dialog.getByRole('button', { name: 'Create top-up' }).click();
    const pay = dialog.getByRole('region', { name: 'Pay' });
    await pay.getByRole('img').waitFor();
    const topUpId = (await dialog.getAttribute('data-topup-id'))!;
    const created = await callInPage<TopUp>(page, 'topups', 'get', { topUpId });
    expect(await pay.getByTestId('amount-crypto').innerText()).toBe(created.amountCrypto);
    expect(await decodeQr(pay.getByRole('img'))).toBe(created.paymentUri);
    await screenshot(page, 'topups-wizard-pay');

    await pay.getByRole('button', { name: 'Simulate payment: exact' }).click();
    // No Refresh: the watcher's events carry the top-up to credited.
    await dialog.locator('[data-status="credited"]').waitFor({ timeout: 90_000 });
    await dialog.getByText(/Purchase of .* completed: order/).waitFor({ timeout: 30_000 });
    await screenshot(page, 'topups-wizard-credited');
    // The history row changed live too.
    await dialog.getByRole('button', { name: 'Close' }).click();
    const row = page.getByRole('table', { name: 'Top-ups' }).locator('tr', { hasText: topUpId });
    await row.getByText('Credited').waitFor();
    expect(problems).toEqual([]);
  });

  it('an expired top-up is declared late; malformed txids are refused on the form', async (context) => {
    requireBrowser(context);
    const { page } = await openApp();
    const expiring = await startTopUp(page, '40.00', 'BTC on Bitcoin');
    await wizard(page).getByRole('button', { name: 'Close' }).click();
    // A late payment of another top-up moves the demo world's clock past the first one's rate lock.
    await startTopUp(page, '41.00', 'LTC on Litecoin');
    await wizard(page).getByRole('button', { name: 'Simulate payment: late' }).click();
    await wizard(page)
      .locator('[data-status="verifying"], [data-status="credited"]')
      .waitFor({ timeout: 60_000 });
    await wizard(page).getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Refresh' }).first().click();
    await page.getByRole('button', { name: `Open top-up ${expiring}` }).click();
    const dialog = wizard(page);
    await dialog.locator('[data-status="expired"]').waitFor();
    await dialog.getByText(/still matched until/).waitFor();
    await screenshot(page, 'topups-wizard-expired');
    await dialog.getByRole('button', { name: 'Declare the payment' }).click();
    const form = dialog.getByRole('form', { name: 'I have sent it' });
    const field = form.getByLabel('Transaction id (optional)');
    const submit = form.getByRole('button', { name: 'I have sent it' });
    for (const malformed of [`0x${'ab'.repeat(32)}`, 'ab'.repeat(31), `${'ab'.repeat(31)}zz`]) {
      await field.fill(malformed);
      await form.getByText('A bitcoin transaction id is 64 hexadecimal characters.').waitFor();
      expect(await submit.isDisabled()).toBe(true);
    }
    await screenshot(page, 'topups-wizard-txid-refused');
    await field.fill('cd'.repeat(32));
    await submit.click();
    await dialog.locator('[data-status="verifying"], [data-status="rejected"]').waitFor();
    const declared = await callInPage<TopUp>(page, 'topups', 'get', { topUpId: expiring });
    expect(declared.txid).toBe('cd'.repeat(32));
  });

  it('the QR code decodes to exactly the paymentUri for every coin and network of the catalog', async (context) => {
    requireBrowser(context);
    const { page } = await openApp();
    const coins = await callInPage<Coin[]>(page, 'catalog', 'coins');
    const pairs = coins.flatMap((coin) => coin.networks.map((network) => ({ coin, network })));
    expect(pairs.length).toBeGreaterThanOrEqual(5);
    const decoded: { pair: string; uri: string | null; expected: string }[] = [];
    for (const { coin, network } of pairs) {
      const topUpId = await startTopUp(page, '25.00', `${coin.code} on ${network.name}`);
      const topUp = await callInPage<TopUp>(page, 'topups', 'get', { topUpId });
      const qr = wizard(page).getByRole('region', { name: 'Pay' }).getByRole('img');
      await qr.waitFor();
      decoded.push({
        pair: `${coin.code}/${network.id}`,
        uri: await decodeQr(qr),
        expected: topUp.paymentUri,
      });
      if (topUp.paymentUri.includes('/transfer?'))
        await screenshot(page, `topups-wizard-pay-${coin.code}-${network.id}`);
      await wizard(page).getByRole('button', { name: 'Close' }).click();
    }
    expect(decoded.map(({ pair, uri }) => ({ pair, uri }))).toEqual(
      decoded.map(({ pair, expected }) => ({ pair, uri: expected })),
    );
  });
});
