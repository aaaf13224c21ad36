import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../src-main/core/app-core';
import { TopUpLinks } from '../../../src-main/core/topups/topup-links';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from '../support/core-harness';

const BTC_URI = 'bitcoin:tb1qdeposit?amount=0.00071234';
const EXPLORER = 'https://mempool.space/testnet/tx/abc';

describe('TopUpLinks: what app:openExternal may open', () => {
  it('opens a known payment URI exactly and a known https explorer link, nothing else', () => {
    const links = new TopUpLinks();
    links.remember({ paymentUri: BTC_URI, explorerUrl: EXPLORER });
    expect(links.check(BTC_URI)).toEqual({ url: BTC_URI, kind: 'wallet' });
    expect(links.check(EXPLORER)).toEqual({ url: EXPLORER, kind: 'explorer' });
    // Another amount or address on the same scheme is not the top-up's link.
    expect(() => links.check('bitcoin:tb1qattacker?amount=0.00071234')).toThrow(
      /payment link of one of your/,
    );
    expect(() => links.check(`${BTC_URI}0`)).toThrow(/payment link/);
    expect(() => links.check('https://mempool.space/testnet/tx/other')).toThrow(/explorer link/);
    for (const url of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'smb://host/share',
      'http://mempool.space/',
    ]) {
      expect(() => links.check(url)).toThrow();
    }
  });

  it('never remembers an http explorer link, credentials in a URL, or a URI of an unknown scheme', () => {
    const links = new TopUpLinks();
    links.remember({ paymentUri: 'ms-msdt:/id PCWDiagnostic', explorerUrl: 'http://explorer.example/tx/1' });
    links.remember({
      paymentUri: 'tron:TDeposit?amount=1',
      explorerUrl: 'https://user:pw@explorer.example/tx/2',
    });
    expect(() => links.check('ms-msdt:/id PCWDiagnostic')).toThrow(/not opened from the app/);
    expect(() => links.check('http://explorer.example/tx/1')).toThrow();
    expect(() => links.check('https://user:pw@explorer.example/tx/2')).toThrow();
    expect(links.check('tron:TDeposit?amount=1').kind).toBe('wallet');
  });

  it('forgets the oldest links past its bound', () => {
    const links = new TopUpLinks(2);
    for (const n of [1, 2, 3]) links.remember({ paymentUri: `solana:Dep${n}?amount=1`, explorerUrl: null });
    expect(() => links.check('solana:Dep1?amount=1')).toThrow();
    expect(links.check('solana:Dep3?amount=1').kind).toBe('wallet');
  });
});

describe('app:openExternal through the composition root and the guarded dispatcher', () => {
  let sandbox: TestSandbox;
  let core: AppCore;
  let opened: string[];
  let call: Harness['call'];

  async function build(openExternal?: (url: string) => Promise<void>) {
    ({ core, call } = await createHarness(sandbox, {
      mode: openExternal ? 'desktop' : 'web',
      ...(openExternal ? { openExternal } : {}),
    }));
    await call('profiles:create', {
      name: 'Work',
      baseUrl: sandbox.baseUrl,
      pathStyle: 'literal',
      apiKey: DEMO_KEY,
      storage: 'session',
      duplicate: 'refuse',
    });
  }

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    opened = [];
  });

  afterEach(async () => {
    await core.dispose();
    await sandbox.close();
  });

  const create = () =>
    call('topups:create', {
      amountUsd: '50.00',
      coin: 'USDT',
      network: 'tron',
      attemptId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    });

  it('opens the payment URI of a top-up main read, and refuses others before the OS sees them', async () => {
    await build((url) => {
      opened.push(url);
      return Promise.resolve();
    });
    const topUp = await create();
    expect(topUp.paymentUri).toMatch(/^tron:/);
    await expect(call('app:openExternal', { url: topUp.paymentUri })).resolves.toEqual({ opened: true });
    const forged = topUp.paymentUri.replace(/amount=[^&]+/, 'amount=999');
    await expect(call('app:openExternal', { url: forged })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(call('app:openExternal', { url: 'javascript:alert(1)' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(call('app:openExternal', { url: 'x'.repeat(2049) })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(opened).toEqual([topUp.paymentUri]);
  });

  it('says so when the OS has no app for the link', async () => {
    await build(() => Promise.reject(new Error('no handler for tron:')));
    const topUp = await create();
    await expect(call('app:openExternal', { url: topUp.paymentUri })).rejects.toMatchObject({
      code: 'link_not_opened',
      message: expect.stringMatching(/No wallet app on this computer/),
    });
  });

  it('is refused in web mode (the browser follows links itself)', async () => {
    await build();
    const topUp = await create();
    await expect(call('app:openExternal', { url: topUp.paymentUri })).rejects.toMatchObject({
      code: 'not_implemented',
    });
  });
});
