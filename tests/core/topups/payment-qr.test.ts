import jsQR from 'jsqr';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '@proxy-manager/sandbox/testing';
import { topUpsKit, type TopUpsKit } from './topups-test-kit';

/** Draws the SVG that `qrcode` makes (one stroked path of horizontal runs) into RGBA pixels. */
function rasterize(svg: string, scale = 4): { data: Uint8ClampedArray; width: number; height: number } {
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg)?.[1];
  if (!size || !path) throw new Error('not a qrcode SVG');
  const dark: boolean[][] = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  let x = 0;
  let y = 0;
  for (const [, command, args] of path.matchAll(/([MmHhVv])([^MmHhVv]*)/g)) {
    const numbers = (args ?? '')
      .trim()
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (command === 'M') [x, y] = [numbers[0] ?? 0, numbers[1] ?? 0];
    else if (command === 'm') [x, y] = [x + (numbers[0] ?? 0), y + (numbers[1] ?? 0)];
    else if (command === 'h') {
      const run = numbers[0] ?? 0;
      for (let i = 0; i < run; i += 1) (dark[Math.floor(y)] as boolean[])[x + i] = true;
      x += run;
    } else throw new Error(`unexpected path command ${command}`);
  }
  const width = size * scale;
  const data = new Uint8ClampedArray(width * width * 4);
  for (let py = 0; py < width; py += 1) {
    for (let px = 0; px < width; px += 1) {
      const value = dark[Math.floor(py / scale)]?.[Math.floor(px / scale)] ? 0 : 255;
      data.set([value, value, value, 255], (py * width + px) * 4);
    }
  }
  return { data, width, height: width };
}

describe('payment QR codes', () => {
  let sandbox: TestSandbox;
  let kit: TopUpsKit;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    kit = topUpsKit(sandbox);
  });

  afterEach(async () => {
    await sandbox.close();
  });

  it('decode to exactly the payment URI, for every coin and network of the catalog', async () => {
    const coins = (await sandbox.request('GET', '/v1/catalog/coins', { key: null })).json.data as {
      code: string;
      networks: { id: string }[];
    }[];
    let checked = 0;
    for (const coin of coins) {
      for (const network of coin.networks) {
        const topUp = await kit.service.handlers()['topups:create']({
          amountUsd: '50.00',
          coin: coin.code,
          network: network.id,
          attemptId: crypto.randomUUID(),
        });
        const details = await kit.service.handlers()['topups:paymentDetails']({ topUpId: topUp.id });
        const image = rasterize(details.qrSvg);
        const decoded = jsQR(image.data, image.width, image.height);
        expect(decoded?.data, `${coin.code} on ${network.id}`).toBe(topUp.paymentUri);
        expect(details.depositAddress).toBe(topUp.address);
        if (network.id === 'ethereum' && coin.code !== 'ETH') {
          expect(details.tokenContract, `${coin.code} on ethereum`).toMatch(/^0x/);
        }
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });
});
