import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { probeKeychain } from '../../../src-main/core/secrets/keychain-probe';
import { FakeKeychain } from './fixtures/fake-keychain';

describe('probeKeychain with a fake keychain', () => {
  it('reports available after writing, reading back and deleting a probe entry', async () => {
    const keychain = new FakeKeychain();
    expect(await probeKeychain({ entryFactory: keychain.factory })).toEqual({ available: true });
    expect(keychain.calls.map((call) => call.split(' ')[0])).toEqual(['open', 'set', 'get', 'delete']);
    expect(keychain.calls[0]).toMatch(/^open proxy-manager\/probe:[0-9a-f]{16}$/);
    expect(keychain.entries.size).toBe(0);
  });

  it('reports no D-Bus as unavailable with a human reason and the raw detail', async () => {
    const keychain = new FakeKeychain();
    const raw =
      'Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time, set your DBUS_SESSION_BUS_ADDRESS instead';
    keychain.failOn('open', raw);
    const result = await probeKeychain({ entryFactory: keychain.factory });
    expect(result).toEqual({
      available: false,
      reason: expect.stringMatching(/^No D-Bus session is running/),
      detail: raw,
    });
  });

  it('reports a locked keyring that refuses the write', async () => {
    const keychain = new FakeKeychain();
    keychain.failOn('set', "Couldn't access platform storage: Secret Service: no result found");
    const result = await probeKeychain({ entryFactory: keychain.factory });
    expect(result).toMatchObject({ available: false, reason: expect.stringMatching(/locked/) });
  });

  it('reports a keychain that returns something else than was written, and cleans up', async () => {
    const keychain = new FakeKeychain();
    keychain.corruptReads = true;
    const result = await probeKeychain({ entryFactory: keychain.factory });
    expect(result).toMatchObject({
      available: false,
      reason: 'The system keychain does not keep what is saved in it.',
    });
    expect(keychain.entries.size).toBe(0);
  });

  it('reports a keychain that cannot delete the probe entry', async () => {
    const keychain = new FakeKeychain();
    keychain.failOn('delete', "Couldn't access platform storage: AccessDenied");
    const result = await probeKeychain({ entryFactory: keychain.factory });
    expect(result).toMatchObject({ available: false, reason: expect.stringMatching(/refused access/) });
  });

  it('gives up when the keychain never answers (an unlock prompt nobody sees)', async () => {
    const keychain = new FakeKeychain();
    keychain.hanging.add('set');
    const controller = new AbortController();
    const pending = probeKeychain({ entryFactory: keychain.factory, signal: controller.signal });
    await Promise.resolve();
    controller.abort();
    expect(await pending).toMatchObject({
      available: false,
      reason: expect.stringMatching(/did not answer in time/),
    });
  });

  it('does not touch the keychain when already aborted', async () => {
    const keychain = new FakeKeychain();
    const result = await probeKeychain({ entryFactory: keychain.factory, signal: AbortSignal.abort() });
    expect(result).toMatchObject({ available: false });
    expect(keychain.calls.filter((call) => !call.startsWith('open'))).toEqual([]);
  });
});

// The real binding in a child process, so that its D-Bus environment is the test's choice and
// a crash there cannot take the test runner down.
const runChild = promisify(execFile);
const childScript = join(import.meta.dirname, 'fixtures', 'probe-keychain-child.ts');

async function probeInChild(env: NodeJS.ProcessEnv, wrapper: string[] = []): Promise<unknown> {
  const command = [...wrapper, process.execPath, '--import', 'tsx', childScript];
  const [file, ...args] = command as [string, ...string[]];
  const { stdout } = await runChild(file, args, { env, timeout: 30_000 });
  const json = stdout.slice(stdout.indexOf('{'));
  return JSON.parse(json);
}

describe.runIf(process.platform === 'linux')(
  'probeKeychain with the real binding and no Secret Service',
  () => {
    it('reports unavailable, not a crash, when the D-Bus session socket does not exist', async () => {
      const result = await probeInChild({
        ...process.env,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/proxy-manager-test/bus',
      });
      expect(result).toMatchObject({
        available: false,
        reason: expect.stringMatching(/^No D-Bus session is running/),
        detail: expect.stringMatching(/Failed to connect to socket/),
      });
    });

    const hasDbus = spawnSync('sh', ['-c', 'command -v dbus-run-session'], { stdio: 'ignore' }).status === 0;
    it.runIf(hasDbus)('reports unavailable when a D-Bus session has no Secret Service', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'pm-bare-bus-'));
      try {
        // A session bus that can activate no services at all.
        const config = join(dir, 'bus.conf');
        await writeFile(
          config,
          `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:tmpdir=${dir}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>`,
        );
        const result = await probeInChild(process.env, ['dbus-run-session', `--config-file=${config}`, '--']);
        expect(result).toMatchObject({
          available: false,
          reason: expect.stringMatching(/No Secret Service .* is running in this session/),
        });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  },
);
