import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src-main/core/app-core';
import { FakeClock } from '../../src-main/core/runtime/fake-clock';
import { createIpcHandlers } from '../../src-main/dispatch/handler-table';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness } from './support/core-harness';

const MIN = 60_000;

/** `core.windowVisibility` (the shell's show/hide, web mode's connected pages) sets the usage poller's pace. */
describe('core.windowVisibility drives the usage poller', () => {
  let sandbox: TestSandbox;
  let core: AppCore;
  let clock: FakeClock;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    clock = new FakeClock(Date.parse('2026-03-10T12:00:00.000Z'));
    ({ core } = await createHarness(sandbox, { clock, windowVisible: false }));
    await createIpcHandlers(core)['profiles:create']({
      name: 'Work',
      baseUrl: sandbox.baseUrl,
      pathStyle: 'literal',
      apiKey: DEMO_KEY,
      storage: 'session',
      duplicate: 'refuse',
    });
    await core.start();
  });

  afterEach(async () => {
    await core.dispose();
    await sandbox.close();
  });

  /** Reads of the subscriptions list (the poller's first read of each cycle) so far. */
  const cycles = async (): Promise<number> =>
    (await sandbox.requests()).filter((r) => r.path.endsWith('/v1/residential/subscriptions')).length;
  const settle = async (count: number): Promise<void> => {
    for (let i = 0; i < 2000 && (await cycles()) < count; i += 1) await new Promise((r) => setTimeout(r, 2));
    // The cycle's other reads and its sleep: let the job reach its next wait.
    for (let i = 0; i < 50; i += 1) await new Promise((r) => setTimeout(r, 2));
  };

  it('polls at the tray pace while nobody sees the app, and within the window pace once it is seen', async () => {
    await settle(1);
    expect(await cycles()).toBe(1);
    await clock.advance(6 * MIN);
    await settle(1);
    // Hidden: the tray's 15 minutes, nothing at 6.
    expect(await cycles()).toBe(1);
    core.windowVisibility(true);
    await clock.advance(5 * MIN);
    await settle(2);
    expect(await cycles()).toBe(2);
    // Hidden again: the read already planned (5 minutes on) stays; the one after waits the tray's 15.
    core.windowVisibility(false);
    await clock.advance(5 * MIN);
    await settle(3);
    expect(await cycles()).toBe(3);
    await clock.advance(10 * MIN);
    await settle(3);
    expect(await cycles()).toBe(3);
    await clock.advance(5 * MIN);
    await settle(4);
    expect(await cycles()).toBe(4);
  });
});
