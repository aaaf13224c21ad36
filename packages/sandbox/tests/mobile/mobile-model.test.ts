import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import {
  fullHistory,
  getPort,
  manualPort,
  portByLabel,
  SEEDED_PORT_LABELS,
  setInterval,
} from './mobile-test-support';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'mobile-state-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('mobile state', () => {
  it('survives a restart with a data file: ports, histories, provisioning and timers', async () => {
    const dataFile = join(folder, 'sandbox.json');
    const first = await TestSandbox.start({ dataFile });
    const port = await manualPort(first);
    await first.request('POST', `/v1/mobile/${port.id}/rotate`);
    await setInterval(first, port.id, 7);
    const moving = await portByLabel(first, SEEDED_PORT_LABELS.relocated);
    await first.request('POST', `/v1/mobile/${moving.id}/relocate`, {
      body: { country: 'DE', carrier: 'telekom_de' },
    });
    const before = { port: await getPort(first, port.id), history: await fullHistory(first, port.id) };
    await first.close();

    const second = await TestSandbox.start({ dataFile });
    try {
      // The link and the endpoint name the new server's addresses; everything else is as it was.
      const { rotationLink: _before, endpoint: _oldEndpoint, ...kept } = before.port;
      const { rotationLink: _after, endpoint, ...restored } = await getPort(second, port.id);
      expect(restored).toEqual(kept);
      expect(endpoint).toEqual(second.sandbox.gateway);
      expect(await fullHistory(second, port.id)).toEqual(before.history);
      expect((await getPort(second, moving.id)).status).toBe('provisioning');
      await second.advance(7 * 60);
      expect((await getPort(second, moving.id)).status).toBe('active');
      expect((await fullHistory(second, port.id))[0].trigger).toBe('interval');
    } finally {
      await second.close();
    }
  });
});
