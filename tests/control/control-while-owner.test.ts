import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlConnection } from '../../src-main/control/control-client';
import { serveControlWhileOwner } from '../../src-main/control/control-while-owner';
import type { AppCore } from '../../src-main/core/app-core';
import { createNodeAppCore } from '../../src-main/core/node-app-core';
import { tempDataDir } from '../cli/support/cli-harness';

// Two processes' cores on one data folder: only the one holding the jobs lock serves the socket.

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

beforeAll(async () => {
  await newCore();
  await newCore();
});

afterAll(async () => {
  for (const core of cores.reverse()) await core.dispose();
});

describe('serveControlWhileOwner', () => {
  it('serves the socket in the owner of the jobs only, and stops when closed', async () => {
    const [owner, reader] = cores as [AppCore, AppCore];
    expect((await owner.getState()).jobs.owner).toBe(true);
    expect((await reader.getState()).jobs.owner).toBe(false);

    const notServed = serveControlWhileOwner({ core: reader, dataDir, log: () => undefined });
    await notServed.settled();
    expect(notServed.server).toBeNull();
    expect(await ControlConnection.open(dataDir)).toBeNull();

    const served = serveControlWhileOwner({ core: owner, dataDir, log: () => undefined });
    await served.settled();
    expect(served.server).not.toBeNull();
    const connection = await ControlConnection.open(dataDir);
    expect(await connection?.hello()).toMatchObject({ pid: process.pid, mode: 'web' });
    connection?.close();

    await served.close();
    await notServed.close();
    expect(served.server).toBeNull();
    expect(await ControlConnection.open(dataDir)).toBeNull();
  });
});
