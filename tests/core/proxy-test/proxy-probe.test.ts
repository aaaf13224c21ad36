import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProbeRequest, probeProxy } from '../../../src-main/core/proxy-test/proxy-probe';
import { SANDBOX_ECHO_URL } from '../../../src-main/core/proxy-test/proxy-test-service';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';
import { systemClock } from '../../../src-main/core/runtime/clock';
import { SEEDED_SUBSCRIPTION_LABELS, subscriptionByLabel, TestSandbox } from '@proxy-manager/sandbox/testing';

/*
 * The probe over real sockets on loopback against the sandbox gateway (HTTP proxy and SOCKS5), and
 * against servers that misbehave on purpose (one that never answers, one that is not there).
 */

let sandbox: TestSandbox;
let main: { username: string; password: string };

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  main = await subscriptionByLabel(sandbox, SEEDED_SUBSCRIPTION_LABELS.withSubUsers);
});

afterAll(async () => {
  await sandbox.close();
});

function via(protocol: 'http' | 'socks5', overrides: Partial<ProbeRequest> = {}): ProbeRequest {
  const gateway = sandbox.sandbox.gateway;
  return {
    protocol,
    host: gateway.host,
    port: protocol === 'http' ? gateway.httpPort : gateway.socksPort,
    username: main.username,
    password: main.password,
    echoUrl: SANDBOX_ECHO_URL,
    deadlineMs: 10_000,
    ...overrides,
  };
}

// The deadline timer must not fire on its own in these: real answers come from loopback at once.
const deps = { clock: systemClock };

describe('probeProxy against the sandbox gateway', () => {
  it.each(['http', 'socks5'] as const)('reads the exit IP and its place through %s', async (protocol) => {
    const outcome = await probeProxy(
      via(protocol, { username: `${main.username}-country-us-state-texas` }),
      deps,
    );
    expect(outcome.failure).toBeNull();
    expect(outcome.ok).toBe(true);
    expect(outcome.exit).toMatchObject({
      ip: expect.stringMatching(/^198\.1[89]\.\d+\.\d+$/),
      country: 'US',
    });
    expect(outcome.exit?.city).toEqual(expect.any(String));
    expect(outcome.timings.connectMs).toEqual(expect.any(Number));
    expect(outcome.timings.firstByteMs).toBeGreaterThanOrEqual(outcome.timings.connectMs ?? 0);
    expect(outcome.timings.totalMs).toBeGreaterThanOrEqual(outcome.timings.firstByteMs ?? 0);
  });

  it.each(['http', 'socks5'] as const)(
    'explains a wrong password over %s as refused credentials',
    async (protocol) => {
      const outcome = await probeProxy(via(protocol, { password: `${main.password}x` }), deps);
      expect(outcome.ok).toBe(false);
      expect(outcome.exit).toBeNull();
      expect(outcome.failure).toMatchObject({ kind: 'credentials', message: expect.stringContaining('407') });
      if (protocol === 'http') expect(outcome.failure?.status).toBe(407);
      expect(JSON.stringify(outcome)).not.toContain(main.password);
    },
  );

  it('explains targeting no exit IP matches, with the gateway page in its own words (HTTP)', async () => {
    const outcome = await probeProxy(
      via('http', { username: `${main.username}-country-us-state-bavaria` }),
      deps,
    );
    expect(outcome.failure).toMatchObject({
      kind: 'no_exit',
      status: 502,
      message: expect.stringContaining('No exit IP matches'),
      detail: expect.stringContaining('is not a state of United States'),
    });
  });

  it('explains targeting no exit IP matches over SOCKS5 (reply 0x04)', async () => {
    const outcome = await probeProxy(
      via('socks5', { username: `${main.username}-country-de-state-texas` }),
      deps,
    );
    expect(outcome.failure).toMatchObject({ kind: 'no_exit', status: null });
  });

  it('says an https echo cannot be read through the sandbox gateway (it answers plain http only)', async () => {
    const outcome = await probeProxy(via('http', { echoUrl: 'https://api.ipify.org?format=json' }), deps);
    expect(outcome.failure?.kind).toBe('tls');
  });

  it('says when nothing listens where the proxy should be', async () => {
    const outcome = await probeProxy(via('http', { port: 9 }), deps);
    expect(outcome.failure).toMatchObject({ kind: 'unreachable', status: null });
    expect(outcome.timings.connectMs).toBeNull();
  });
});

describe('probeProxy deadlines', () => {
  let hung: Server;
  const held = new Set<Socket>();

  beforeAll(async () => {
    // Accepts connections and never says a word: a hung proxy.
    hung = createServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => hung.close(() => resolve()));
  });

  it.each(['http', 'socks5'] as const)(
    'settles a hung %s proxy as a timeout at its deadline',
    async (protocol) => {
      const clock = new FakeClock();
      const port = (hung.address() as { port: number }).port;
      let settled = false;
      const pending = probeProxy(via(protocol, { port, deadlineMs: 5_000 }), { clock }).then((outcome) => {
        settled = true;
        return outcome;
      });
      await clock.whenSleeping();
      await clock.advance(4_999);
      expect(settled).toBe(false);
      await clock.advance(1);
      const outcome = await pending;
      expect(outcome.failure).toMatchObject({
        kind: 'timeout',
        message: expect.stringContaining('5 seconds'),
      });
      expect(outcome.timings.connectMs).toEqual(expect.any(Number));
      expect(outcome.timings.firstByteMs).toBeNull();
    },
  );
});
