import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionBackend } from '../../src-main/cli/cli-backend';
import { serveControlWhileOwner, type OwnedControl } from '../../src-main/control/control-while-owner';
import type { AppCore } from '../../src-main/core/app-core';
import { createNodeAppCore } from '../../src-main/core/node-app-core';
import type { PortsListView, Scope } from '../../src-shared/contract';
import { portRowsOf } from '../../src-shared/contract/ports';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { tempDataDir } from './support/cli-harness';

// The MCP server's and `serve`'s backend while an app owns the jobs: each call goes through the
// owner's control socket (its single-flight, cooldowns and receipts), with the session's grant.

let sandbox: TestSandbox;
let dataDir: string;
let owner: AppCore;
let control: OwnedControl;
const events: { channel: string; payload: any }[] = [];

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  dataDir = tempDataDir();
  owner = await createNodeAppCore({
    mode: 'web',
    dataDir,
    windowVisible: false,
    keychainProbeTimeoutMs: 2_000,
    log: () => undefined,
  });
  await owner.start({ environment: { apiKey: DEMO_KEY, baseUrl: sandbox.baseUrl } });
  owner.subscribe((channel, payload) => events.push({ channel, payload }));
  control = serveControlWhileOwner({ core: owner, dataDir, log: () => undefined });
  await control.settled();
});

afterAll(async () => {
  await control?.close();
  await owner?.dispose();
  await sandbox?.close();
});

describe('sessionBackend', () => {
  it('sends each call to the owner of the jobs, with the grant of the call', async () => {
    const backend = sessionBackend({
      dataDir,
      selection: { kind: 'active' },
      demoLatency: 'fast',
      origin: 'mcp',
      log: () => undefined,
    });
    try {
      const readOnly: ReadonlySet<Scope> = new Set(['read']);
      const ports = await backend.call('ports:list', undefined, readOnly);
      expect(ports.ok).toBe(true);
      // `ports:list` answers the lean table (`PortsListView`): a port's id is its row's first value.
      const view = (ports as { value: PortsListView }).value;
      const portId = portRowsOf(view)[0]?.id ?? '';
      expect(portId).not.toBe('');
      const refused = await backend.call('ports:rotate', { portId }, readOnly);
      expect(refused).toMatchObject({ ok: false, error: { code: 'scope_denied' } });

      const rotated = await backend.call('ports:rotate', { portId }, new Set<Scope>(['read', 'rotate']));
      expect(rotated.ok).toBe(true);
      // The owner ran it: its own event bus announced the rotation.
      expect(
        events.some((event) => event.channel === 'ports:rotation' && event.payload.phase === 'finished'),
      ).toBe(true);
      // Its cooldown holds for the next caller, whoever it is.
      const again = await backend.call('ports:rotate', { portId }, new Set<Scope>(['rotate']));
      expect(again).toMatchObject({ ok: false, error: { retryAfterMs: expect.any(Number) } });
    } finally {
      await backend.close();
    }
  }, 60_000);

  it('refuses a change for another account than the owner’s (another key), naming the owner', async () => {
    const backend = sessionBackend({
      dataDir,
      selection: { kind: 'environment', apiKey: 'another-key', baseUrl: sandbox.baseUrl },
      demoLatency: 'fast',
      origin: 'mcp',
      log: () => undefined,
    });
    try {
      const refused = await backend.call('ports:rotate', { portId: 'port_1' }, new Set<Scope>(['rotate']));
      expect(refused).toMatchObject({ ok: false, error: { code: 'owner_refused' } });
    } finally {
      await backend.close();
    }
  });
});
