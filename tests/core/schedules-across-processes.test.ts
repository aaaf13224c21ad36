import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src-main/core/app-core';
import type { JobsOwnership } from '../../src-main/core/runtime/background-jobs';
import { FakeClock } from '../../src-main/core/runtime/fake-clock';
import { JobStateStore } from '../../src-main/core/storage/job-state-store';
import type { TrayStateService } from '../../src-main/core/tray/tray-state';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from './support/core-harness';

type Call = Harness['call'];

/**
 * Two processes on one data folder (a desktop app and `npm run web`): the one owning background jobs
 * runs and changes the schedules; the other lists what the owner saved and refuses changes.
 */
describe('schedules seen from a process that does not own the jobs', () => {
  let sandbox: TestSandbox;
  let dataDir: string;
  const cores: AppCore[] = [];

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    dataDir = mkdtempSync(join(tmpdir(), 'pm-two-'));
  });

  afterEach(async () => {
    trays.splice(0);
    for (const core of cores.splice(0)) await core.dispose();
    await sandbox.close();
  });

  const trays: TrayStateService[] = [];

  async function processOn(owner: boolean): Promise<Call> {
    const ownership: JobsOwnership = {
      status: () =>
        owner ? { owner: true, message: null } : { owner: false, message: 'The web server runs them.' },
      onChange: () => () => undefined,
    };
    const harness = await createHarness(sandbox, {
      dataDir,
      onDesktopParts: ({ tray }) => trays.push(tray),
      clock: new FakeClock(Date.parse('2026-03-10T12:00:00.000Z')),
      jobsOwnership: ownership,
      jobState: await JobStateStore.open({ dataDir }),
    });
    cores.push(harness.core);
    return harness.call;
  }

  it('lists the owner’s changes made after it started, and refuses to change them itself', async () => {
    const owner = await processOn(true);
    await owner('profiles:create', {
      name: 'Work',
      baseUrl: sandbox.baseUrl,
      pathStyle: 'literal',
      apiKey: DEMO_KEY,
      storage: 'keychain',
      duplicate: 'refuse',
    });
    const other = await processOn(false);
    await cores[0]!.start();
    await cores[1]!.start();
    const ports = await owner('ports:list', undefined);
    const portId = ports.rows[0]![0];
    expect((await other('schedules:list', undefined)).schedules).toEqual([]);

    await owner('schedules:set', { portIds: [portId], cadence: { kind: 'every', seconds: 600 } });
    expect((await other('schedules:list', undefined)).schedules.map((s) => s.portId)).toEqual([portId]);

    await expect(
      other('schedules:set', { portIds: [portId], cadence: { kind: 'every', seconds: 60 } }),
    ).rejects.toMatchObject({
      code: 'not_job_owner',
      message: expect.stringMatching(/The web server runs them/),
    });
    await expect(other('schedules:pause', { paused: true })).rejects.toMatchObject({ code: 'not_job_owner' });
    await expect(other('schedules:remove', { portIds: [portId] })).rejects.toMatchObject({
      code: 'not_job_owner',
    });

    await owner('schedules:remove', { portIds: [portId] });
    expect((await other('schedules:list', undefined)).schedules).toEqual([]);
    // The owner's own view is untouched by the refused calls.
    expect((await owner('schedules:list', undefined)).paused).toBe(false);
  });

  it('the tray state of each process knows from the core whether it runs the schedules', async () => {
    await processOn(true);
    await processOn(false);
    // Web mode does not start the tray (the desktop does): started here to read its state.
    for (const tray of trays) await tray.start();
    expect(trays.map((tray) => tray.current.ownsSchedules)).toEqual([true, false]);
    for (const tray of trays) tray.stop();
  });
});
