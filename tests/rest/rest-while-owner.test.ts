import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src-main/core/app-core';
import { createNodeAppCore } from '../../src-main/core/node-app-core';
import { createIpcHandlers } from '../../src-main/dispatch/handler-table';
import { serveRestWhileOwner } from '../../src-main/rest/rest-while-owner';
import { tempDataDir } from '../cli/support/cli-harness';

// Settings → Automation's switch: two processes' cores on one data folder; only the owner of the
// jobs serves the REST API, on the port of the setting, and stops when it is turned off.

const dataDir = tempDataDir();
const cores: AppCore[] = [];

const newCore = async (): Promise<AppCore> => {
  const core = await createNodeAppCore({
    mode: 'web',
    dataDir,
    windowVisible: false,
    keychainProbeTimeoutMs: 2_000,
    log: () => undefined,
  });
  cores.push(core);
  await core.start();
  return core;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  await newCore();
  await newCore();
});

afterAll(async () => {
  for (const core of cores.reverse()) await core.dispose();
});

describe('serveRestWhileOwner', () => {
  it('serves the REST API in the owner while the setting is on, on its port', async () => {
    const [owner, reader] = cores as [AppCore, AppCore];
    const handlers = createIpcHandlers(owner);
    const served = serveRestWhileOwner({ core: owner, version: 'test', log: () => undefined });
    const notServed = serveRestWhileOwner({ core: reader, version: 'test', log: () => undefined });
    await Promise.all([served.settled(), notServed.settled()]);
    expect(await handlers['automation:restStatus'](undefined)).toMatchObject({ enabled: false, url: null });

    const { secret } = await handlers['automation:createToken']({ name: 'script', scopes: ['read'] });
    const port = await freePort();
    const on = await handlers['automation:setRest']({ enabled: true, port });
    expect(on).toEqual({ enabled: true, port, url: `http://127.0.0.1:${port}`, error: null });
    const answer = await fetch(`${on.url}/openapi.json`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { openapi: string }).openapi).toBe('3.1.0');

    // The reader sees the setting, says who serves it, and listens nowhere.
    await reader.services.settings.handlers()['settings:get'](undefined);
    await notServed.settled();
    const elsewhere = createIpcHandlers(reader)['automation:restStatus'](undefined);
    expect((await elsewhere).url).toBeNull();

    const moved = await freePort();
    const changed = await handlers['automation:setRest']({ port: moved });
    expect(changed.url).toBe(`http://127.0.0.1:${moved}`);
    await expect(fetch(`http://127.0.0.1:${port}/openapi.json`)).rejects.toThrow();

    const off = await handlers['automation:setRest']({ enabled: false });
    expect(off).toEqual({ enabled: false, port: moved, url: null, error: null });
    await expect(fetch(`http://127.0.0.1:${moved}/openapi.json`)).rejects.toThrow();
    await served.close();
    await notServed.close();
  });

  it('says so when the port is in use', async () => {
    const [owner] = cores as [AppCore];
    const handlers = createIpcHandlers(owner);
    const busy = createServer();
    const port = await new Promise<number>((resolve) =>
      busy.listen(0, '127.0.0.1', () => resolve((busy.address() as { port: number }).port)),
    );
    const served = serveRestWhileOwner({ core: owner, version: 'test', log: () => undefined });
    try {
      const status = await handlers['automation:setRest']({ enabled: true, port });
      expect(status.url).toBeNull();
      expect(status.error).toBe(`Port ${port} is in use on 127.0.0.1: choose another port.`);
    } finally {
      await handlers['automation:setRest']({ enabled: false });
      await served.close();
      busy.close();
    }
  });
});
