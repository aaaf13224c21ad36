import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestSandbox } from '../../src/testing';
import { fullHistory, manualPort } from './mobile-test-support';

let sandbox: TestSandbox;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
  await sandbox.advance(60);
});

afterEach(async () => {
  await sandbox.close();
});

describe('POST /__sandbox/mobile/same-ip', () => {
  it('makes the next `times` rotations of the port hand back its IP, then draws again', async () => {
    const port = await manualPort(sandbox);
    const armed = await sandbox.control('POST', '/mobile/same-ip', { portId: port.id, times: 2 });
    expect(armed.status).toBe(200);
    expect(armed.json).toEqual({ portId: port.id, remaining: 2 });
    const ips: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
      expect(answer.status).toBe(200);
      ips.push(answer.json.ip);
      await sandbox.advance(30);
    }
    expect(ips.slice(0, 2)).toEqual([port.currentIp, port.currentIp]);
    expect(ips[2]).not.toBe(port.currentIp);
    // Each same-IP rotation is still a rotation in the history.
    const history = await fullHistory(sandbox, port.id);
    expect(history.slice(0, 3).map((e) => e.ip)).toEqual([ips[2], port.currentIp, port.currentIp]);
  });

  it('is disarmed by times 0, refuses bad input and unknown ports, and spends nothing on a refused rotation', async () => {
    const port = await manualPort(sandbox);
    await sandbox.control('POST', '/mobile/same-ip', { portId: port.id, times: 1 });
    expect((await sandbox.control('POST', '/mobile/same-ip', { portId: port.id, times: 0 })).status).toBe(
      200,
    );
    const rotated = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
    expect(rotated.json.ip).not.toBe(port.currentIp);
    expect((await sandbox.control('POST', '/mobile/same-ip', { portId: port.id, times: -1 })).status).toBe(
      422,
    );
    expect((await sandbox.control('POST', '/mobile/same-ip', { times: 1 })).status).toBe(422);
    expect((await sandbox.control('POST', '/mobile/same-ip', { portId: 'mp_nope' })).status).toBe(404);
    // Armed, then a 429 (cooldown): the switch waits for a rotation that happens.
    await sandbox.control('POST', '/mobile/same-ip', { portId: port.id, times: 1 });
    expect((await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`)).status).toBe(429);
    await sandbox.advance(30);
    const after = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
    expect(after.json.ip).toBe(rotated.json.ip);
  });
});
