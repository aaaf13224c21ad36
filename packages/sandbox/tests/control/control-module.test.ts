import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackHostOnly, loopbackOnly } from '../../src/control/control-module';
import { SandboxError } from '../../src/http/sandbox-error';
import { TestSandbox, TEST_START_TIME } from '../../src/testing';
import { probeModule } from '../support/probe-module';

describe('control API', () => {
  let sandbox: TestSandbox;

  beforeAll(async () => {
    sandbox = await TestSandbox.start({ extraModules: [probeModule] });
  });
  afterAll(() => sandbox.close());

  it('GET /info answers the seed, the latency profile and the clock mode', async () => {
    const answer = await sandbox.control('GET', '/info');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ seed: 7, latency: 'fast', clockMode: 'manual' });
  });

  describe('clock', () => {
    it('GET /clock answers the sandbox time and the clock mode, with no key', async () => {
      const answer = await sandbox.control('GET', '/clock');
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ now: TEST_START_TIME, mode: 'manual' });
    });

    it('POST /clock { advanceSeconds } moves the clock forward and answers the new time', async () => {
      const before = Date.parse(await sandbox.now());
      const answer = await sandbox.control('POST', '/clock', { advanceSeconds: 90 });
      expect(answer.status).toBe(200);
      expect(Date.parse(answer.json.now)).toBe(before + 90_000);
      expect(Date.parse(await sandbox.now())).toBe(before + 90_000);
    });

    it('accepts advanceSeconds 0 (settles without moving)', async () => {
      const before = await sandbox.now();
      expect((await sandbox.control('POST', '/clock', { advanceSeconds: 0 })).json.now).toBe(before);
    });

    it.each([
      ['missing', {}, 'required'],
      ['negative', { advanceSeconds: -1 }, 'too_small'],
      ['fractional', { advanceSeconds: 1.5 }, 'invalid_type'],
      ['a string', { advanceSeconds: '60' }, 'invalid_type'],
      ['over ten years', { advanceSeconds: 10 * 365 * 86400 + 1 }, 'too_big'],
    ])('refuses advanceSeconds %s with 422 and leaves the clock alone', async (_name, body, code) => {
      const before = await sandbox.now();
      const answer = await sandbox.control('POST', '/clock', body);
      expect(answer.status).toBe(422);
      expect(answer.json.error.code).toBe('validation_error');
      expect(answer.json.error.fields).toEqual([
        { field: 'advanceSeconds', code, message: expect.any(String) },
      ]);
      expect(await sandbox.now()).toBe(before);
    });

    it('refuses a body that is not JSON with 400 invalid_json', async () => {
      const response = await fetch(`${sandbox.controlUrl}/clock`, {
        method: 'POST',
        body: '{',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
    });
  });

  describe('account', () => {
    it('GET /account answers the balance as a decimal string', async () => {
      const answer = await sandbox.control('GET', '/account');
      expect(answer.status).toBe(200);
      expect(answer.json.balanceUsd).toMatch(/^\d+\.\d{2}$/);
    });

    it('POST /account sets the balance, written with two decimals', async () => {
      const answer = await sandbox.control('POST', '/account', { balanceUsd: '12.5' });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ balanceUsd: '12.50' });
      expect((await sandbox.control('GET', '/account')).json).toEqual({ balanceUsd: '12.50' });
    });

    it.each([
      ['a number', 12.5, 'invalid_type'],
      ['negative', '-1.00', 'invalid_format'],
      ['three decimals', '1.234', 'invalid_format'],
      ['not a number', 'lots', 'invalid_format'],
      ['an exponent', '1e3', 'invalid_format'],
    ])('refuses a balance that is %s with 422 on balanceUsd', async (_name, balanceUsd, code) => {
      const before = (await sandbox.control('GET', '/account')).json.balanceUsd;
      const answer = await sandbox.control('POST', '/account', { balanceUsd });
      expect(answer.status).toBe(422);
      expect(answer.json.error.fields).toEqual([{ field: 'balanceUsd', code, message: expect.any(String) }]);
      expect((await sandbox.control('GET', '/account')).json.balanceUsd).toBe(before);
    });
  });

  describe('routing and access', () => {
    it('answers 404 for an unknown control path and 405 with Allow for a wrong method', async () => {
      expect((await sandbox.control('GET', '/nothing-here')).status).toBe(404);
      const wrong = await sandbox.control('PATCH', '/clock', {});
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('GET, POST');
    });

    it('does not serve control routes under the API prefix, nor API routes under the control prefix', async () => {
      expect((await sandbox.request('GET', '/clock')).status).toBe(404);
      const response = await fetch(`${sandbox.controlUrl}/v1/__probe/public`);
      expect(response.status).toBe(404);
    });

    it('refuses a request whose Host is not a loopback name (DNS rebinding) with 403', async () => {
      const { hostname, port } = new URL(sandbox.controlUrl);
      const status = (host: string) =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest(
            { hostname, port, path: '/__sandbox/clock', headers: { Host: host } },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.end();
        });
      expect(await status(`attacker.example:${port}`)).toBe(403);
      expect(await status(`localhost:${port}`)).toBe(200);
    });
  });
});

describe('loopbackOnly', () => {
  it.each(['127.0.0.1', '127.4.5.6', '::1', '::ffff:127.0.0.1'])('lets %s through', (address) => {
    expect(() => loopbackOnly(address)).not.toThrow();
  });

  it.each([
    '10.0.0.1',
    '192.168.1.20',
    '::ffff:10.0.0.1',
    'fe80::1',
    '::',
    '0.0.0.0',
    '127.0.0.1.evil',
    '1127.0.0.1',
    '',
    undefined,
  ])('refuses %s with 403 forbidden', (address) => {
    let thrown: unknown;
    try {
      loopbackOnly(address);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SandboxError);
    expect((thrown as SandboxError).status).toBe(403);
    expect((thrown as SandboxError).code).toBe('forbidden');
  });
});

describe('loopbackHostOnly', () => {
  it.each(['127.0.0.1:4010', 'localhost:4010', 'LOCALHOST', '[::1]:4010', '127.0.0.1'])(
    'lets Host %s through',
    (host) => {
      expect(() => loopbackHostOnly(host)).not.toThrow();
    },
  );

  it.each(['attacker.example', 'attacker.example:4010', '127.0.0.1.nip.io', 'localhost.evil', '', undefined])(
    'refuses Host %s',
    (host) => {
      expect(() => loopbackHostOnly(host)).toThrow(SandboxError);
    },
  );
});
