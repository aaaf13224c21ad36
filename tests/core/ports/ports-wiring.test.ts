import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_KEY, manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from '../support/core-harness';

describe('ports calls through the composition root and the guarded dispatcher', () => {
  let sandbox: TestSandbox;
  let h: Harness;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    await sandbox.advance(60);
    h = await createHarness(sandbox);
    await h.call('profiles:create', {
      name: 'Work',
      baseUrl: sandbox.baseUrl,
      pathStyle: 'literal',
      apiKey: DEMO_KEY,
      storage: 'session',
    });
  });

  afterEach(async () => {
    await h.core.dispose();
    await sandbox.close();
  });

  it('rotates from a button, announces progress and keeps the receipt', async () => {
    const port = await manualPort(sandbox);
    const receipt = await h.call('ports:rotate', { portId: port.id });
    expect(receipt).toMatchObject({ portId: port.id, previousIp: port.currentIp, trigger: 'button' });
    const rotation = h.allEvents.filter((e) => e.channel === 'ports:rotation').map((e) => e.payload);
    expect(rotation).toEqual([
      expect.objectContaining({ portId: port.id, phase: 'started', trigger: 'button' }),
      expect.objectContaining({ portId: port.id, phase: 'finished', receipt }),
    ]);
    expect(await h.call('ports:receipts', { portId: port.id })).toEqual([receipt]);
    // A second rotation inside the cooldown: the countdown's retryAfterMs reaches the renderer.
    const refused = await h.call('ports:rotate', { portId: port.id }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'rotation_too_soon', retryAfterMs: expect.any(Number) });
  });

  it('refuses bad input with field errors before anything is sent', async () => {
    const before = (await sandbox.requests()).length;
    const error = await h
      .call('ports:usage', { portId: 'mp_1', from: '2026-03-10', to: '2026-03-01' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_input', fields: [{ field: 'to' }] });
    expect((await sandbox.requests()).length).toBe(before);
  });
});
