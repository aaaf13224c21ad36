import jsQR from 'jsqr';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Coin, TopUp } from '../../src-shared/api-types';
import { callApi, openApp, openScreen, useWebSession } from './support/app-page';
import { requireBrowser, screenshot, seriousAxeViolations } from './support/browser';
import { ROOT } from './support/web-mode';

/**
 * The top-up wizard in web mode against the demo sandbox: a paid top-up with a purchase seen credited
 * live, an expired one declared late, malformed txids refused on the form, and the QR code of every
 * coin and network decoded (jsqr) back to exactly the service's `paymentUri`.
 */

const wizard = (page: Page) => page.getByRole('dialog');

/** Waits until the wizard shows one of `statuses`; on a timeout the message says what it showed. */
async function waitForStatus(page: Page, statuses: string[], timeout = 20_000): Promise<void> {
  const selector = statuses.map((status) => `[data-status="${status}"]`).join(', ');
  try {
    await page.locator(selector).waitFor({ timeout });
  } catch (error) {
    const shown = await wizard(page)
      .innerText({ timeout: 1000 })
      .catch(() => '(no wizard)');
    throw new Error(`expected ${statuses.join(' or ')}; the wizard shows:\n${shown}`, { cause: error });
  }
}

/** Draws the QR image on a canvas in the page and decodes its pixels with jsqr here. */
async function decodeQr(qr: Locator): Promise<string | null> {
  const pixels = await qr.evaluate(async (node) => {
    const img = node as HTMLImageElement;
    if (!img.complete) await new Promise((done) => img.addEventListener('load', done, { once: true }));
    const size = 400;
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, size, size);
    // Drawn with a white margin: the quiet zone a scanner needs.
    context.drawImage(img, 30, 30, size - 60, size - 60);
    // As base64: a plain array of 640,000 numbers is slow to carry over the DevTools protocol.
    const bytes = context.getImageData(0, 0, size, size).data;
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return { base64: btoa(binary), width: size, height: size };
  });
  const data = Uint8ClampedArray.from(Buffer.from(pixels.base64, 'base64'));
  return jsQR(data, pixels.width, pixels.height)?.data ?? null;
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
  const session = useWebSession({ demo: true });

  async function openTopUps() {
    const opened = await openApp(session, { waitOnline: true });
    await openScreen(opened.page, 'Top-ups');
    return opened;
  }

  it('amount -> coin -> pay -> simulated payment -> credited with a completed purchase, live', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openTopUps();
    await page.getByRole('button', { name: 'Add funds' }).first().click();
    const dialog = wizard(page);
    await dialog.getByLabel('Amount (USD)').fill('24.99');
    await dialog.getByText('The minimum is 25.00 USD.').waitFor();
    await dialog.getByLabel('Amount (USD)').fill('150.00');
    await dialog.getByLabel('Buy a plan with it once it is credited').check();
    const plans = await callApi<{ planId: string }[]>(page, 'topups', 'plans');
    expect(plans.length).toBeGreaterThan(0);
    await dialog.getByLabel('Plan', { exact: true }).fill(plans[0]!.planId);
    await screenshot(page, 'topups-wizard-amount');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByLabel('USDT on Tron (TRC-20)', { exact: true }).check();
    await dialog.getByText(/nobody can recover it/).waitFor();
    await screenshot(page, 'topups-wizard-coin');
    await dialog.getByRole('button', { name: 'Create top-up' }).click();
    const pay = dialog.getByRole('region', { name: 'Pay' });
    await pay.getByRole('img').waitFor();
    const topUpId = (await dialog.getAttribute('data-topup-id'))!;
    const created = await callApi<TopUp>(page, 'topups', 'get', { topUpId });
    expect(await pay.getByTestId('amount-crypto').innerText()).toBe(created.amountCrypto);
    expect(await decodeQr(pay.getByRole('img'))).toBe(created.paymentUri);
    await screenshot(page, 'topups-wizard-pay');
    // At 1280x800 what a payer needs is on the first screen: the QR code, the exact amount, the address.
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const needed of [
      pay.getByRole('img'),
      pay.getByTestId('amount-crypto'),
      pay.getByTestId('deposit-address'),
    ]) {
      const box = await needed.boundingBox();
      expect(box && box.y + box.height).toBeLessThanOrEqual(800);
    }
    // What the service's answer says of the purchase: the plan and its total as priced.
    expect(await pay.innerText()).toMatch(new RegExp(`1 × .* ${plans[0]!.planId}: \\d+\\.\\d{2} USD`));
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((theme) => document.documentElement.dataset.theme === theme, scheme);
      expect(await seriousAxeViolations(page), scheme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    if (process.env.PROXY_MANAGER_UPDATE_SCREENSHOTS === '1') {
      const shot = await screenshot(page, 'guide-topup-pay', true);
      mkdirSync(join(ROOT, 'docs', 'screenshots'), { recursive: true });
      copyFileSync(shot, join(ROOT, 'docs', 'screenshots', 'topup-pay.png'));
    }

    await pay.getByRole('button', { name: 'Simulate payment: exact' }).click();
    // No Refresh: the watcher's events carry the top-up to credited.
    await waitForStatus(page, ['credited'], 90_000);
    await dialog.getByText(/Purchase of .* completed: order/).waitFor({ timeout: 30_000 });
    await screenshot(page, 'topups-wizard-credited');
    // The history row changed live too.
    await dialog.getByRole('button', { name: 'Close' }).click();
    const row = page.getByRole('table', { name: 'Top-ups' }).locator('tr', { hasText: topUpId });
    await row.getByText('Credited').waitFor();
    expect(problems).toEqual([]);
  }, 300_000);

  it('an expired top-up is declared late; malformed txids are refused on the form', async (context) => {
    requireBrowser(context);
    const { page } = await openTopUps();
    const expiring = await startTopUp(page, '40.00', 'BTC on Bitcoin');
    await wizard(page).getByRole('button', { name: 'Close' }).click();
    // A late payment of another top-up moves the demo world's clock past the first one's rate lock.
    await startTopUp(page, '41.00', 'LTC on Litecoin');
    await wizard(page).getByRole('button', { name: 'Simulate payment: late' }).click();
    await waitForStatus(page, ['verifying', 'credited'], 60_000);
    await wizard(page).getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Refresh' }).first().click();
    await page.getByRole('button', { name: `Open top-up ${expiring}` }).click();
    const dialog = wizard(page);
    await waitForStatus(page, ['expired']);
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
    await waitForStatus(page, ['verifying', 'rejected']);
    const declared = await callApi<TopUp>(page, 'topups', 'get', { topUpId: expiring });
    expect(declared.txid).toBe('cd'.repeat(32));
  }, 240_000);

  it('Export CSV is the browser download of every top-up, and the page says so', async (context) => {
    requireBrowser(context);
    const { page, problems } = await openTopUps();
    const listed = await callApi<{ pagination: { total: number } }>(page, 'topups', 'list', {
      page: 1,
      perPage: 100,
    });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('topups.csv');
    const csv = readFileSync(await download.path(), 'utf8');
    // A header line and one line per top-up (CRLF, RFC 4180).
    expect(csv.split('\r\n').filter((line) => line !== '')).toHaveLength(listed.pagination.total + 1);
    await page.getByRole('status').filter({ hasText: 'Downloaded as topups.csv.' }).waitFor();
    expect(problems).toEqual([]);
  }, 120_000);

  it('the QR code decodes to exactly the paymentUri for every coin and network of the catalog', async (context) => {
    requireBrowser(context);
    const { page } = await openTopUps();
    const coins = await callApi<Coin[]>(page, 'catalog', 'coins');
    const pairs = coins.flatMap((coin) => coin.networks.map((network) => ({ coin, network })));
    expect(pairs.length).toBeGreaterThanOrEqual(5);
    const decoded: { pair: string; uri: string | null; expected: string }[] = [];
    for (const { coin, network } of pairs) {
      // Created through the contract (the wizard's own path is the first test): the QR main draws for
      // it is shown as the wizard shows it, an <img> of the SVG, and decoded from the page's pixels.
      const topUp = await callApi<TopUp>(page, 'topups', 'create', {
        amountUsd: '25.00',
        coin: coin.code,
        network: network.id,
        attemptId: crypto.randomUUID(),
      });
      const details = await callApi<{ qrSvg: string; paymentUri: string }>(page, 'topups', 'paymentDetails', {
        topUpId: topUp.id,
      });
      expect(details.paymentUri).toBe(topUp.paymentUri);
      await page.evaluate((svg) => {
        document.getElementById('qr-under-test')?.remove();
        const img = document.createElement('img');
        img.id = 'qr-under-test';
        img.width = 220;
        img.height = 220;
        img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
        document.body.append(img);
      }, details.qrSvg);
      decoded.push({
        pair: `${coin.code}/${network.id}`,
        uri: await decodeQr(page.locator('#qr-under-test')),
        expected: topUp.paymentUri,
      });
    }
    expect(decoded.map(({ pair, uri }) => ({ pair, uri }))).toEqual(
      decoded.map(({ pair, expected }) => ({ pair, uri: expected })),
    );
    // Every kind of URI was seen: BIP21, EIP-681 (coin and token), Solana Pay, Tron.
    expect(decoded.some(({ expected }) => expected.includes('/transfer?address='))).toBe(true);
  }, 240_000);
});
