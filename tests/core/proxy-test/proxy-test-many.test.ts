import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MobilePort, ProxyServiceClient } from '../../../src-main/api';
import { ProxyTestService } from '../../../src-main/core/proxy-test/proxy-test-service';
import { FakeClock } from '../../../src-main/core/runtime/fake-clock';

/*
 * "Test all" against proxies that never answer (a real loopback server that accepts and holds each
 * connection): at most `concurrency` are tested at once, and every test ends at its deadline on the
 * FakeClock. The credential lookup is the only fake: it names that server as the ports' endpoint.
 */

describe('proxy:testMany concurrency and deadlines', () => {
  let hung: Server;
  let open = 0;
  const held = new Set<Socket>();

  beforeEach(async () => {
    open = 0;
    held.clear();
    hung = createServer((socket) => {
      held.add(socket);
      open += 1;
      socket.on('error', () => undefined);
      socket.on('close', () => (open -= 1));
      // Reads (and ignores) what comes, so that a client's close is seen.
      socket.resume();
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  });

  afterEach(async () => {
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => hung.close(() => resolve()));
  });

  function service(clock: FakeClock) {
    const port = (hung.address() as { port: number }).port;
    const client = {
      getMobilePort: (portId: string) =>
        Promise.resolve({
          id: portId,
          endpoint: { host: '127.0.0.1', httpPort: port, socksPort: port },
          username: `user_${portId}`,
          password: 'secret-pass',
        } as unknown as MobilePort),
    } as unknown as ProxyServiceClient;
    const api = {
      active: async <T>(_access: unknown, run: (c: ProxyServiceClient, profileId: string) => Promise<T>) => ({
        profileId: 'p1',
        value: await run(client, 'p1'),
      }),
      forProfile: <T>(_p: string, _a: unknown, run: (c: ProxyServiceClient) => Promise<T>) => run(client),
    };
    return new ProxyTestService({
      api,
      clock,
      echoUrlFor: () => 'http://ip-echo.sandbox.invalid/',
      deadlineMs: 5_000,
      concurrency: 4,
    });
  }

  it('tests at most 4 at a time and settles every hung one at its deadline', async () => {
    const clock = new FakeClock();
    const proxy = service(clock);
    const targets = Array.from({ length: 10 }, (_, i) => ({
      kind: 'port' as const,
      portId: `mp_${i}`,
      protocol: i % 2 === 0 ? ('http' as const) : ('socks5' as const),
    }));
    let done = false;
    const pending = proxy
      .handlers()
      ['proxy:testMany']({ targets })
      .then((results) => {
        done = true;
        return results;
      });
    // Three waves of deadlines: 4, 4, then 2 tests.
    for (let wave = 0; wave < 3; wave += 1) {
      await clock.whenSleeping();
      await vi_waitFor(() => held.size === Math.min(10, (wave + 1) * 4));
      // The previous wave's connections close as their tests end (asynchronously, on loopback).
      await vi_waitFor(() => open === held.size - wave * 4);
      // No fifth test starts while four hang: given time, no other connection comes.
      for (let i = 0; i < 50; i += 1) await new Promise((resolve) => setImmediate(resolve));
      expect(held.size).toBe(Math.min(10, (wave + 1) * 4));
      expect(done).toBe(false);
      await clock.advance(5_000);
    }
    const results = await pending;
    // A test that ended closed its connection: nothing of a hung proxy is kept.
    await vi_waitFor(() => open === 0);
    expect(results.map((r) => r.failure?.kind)).toEqual(Array(10).fill('timeout'));
    expect(results.map((r) => (r.target.kind === 'port' ? r.target.portId : ''))).toEqual(
      targets.map((t) => t.portId),
    );
    expect(new Set(results.map((r) => r.checkedAt)).size).toBe(3);
    expect(JSON.stringify(results)).not.toContain('secret-pass');
  });

  it("verifies a port's exit IP within 10 s: a hung port gives no verification (null), not a hung receipt", async () => {
    const clock = new FakeClock();
    const port = (hung.address() as { port: number }).port;
    let settled = false;
    const pending = service(clock)
      .verifyExitIp('p1', {
        id: 'mp_1',
        endpoint: { host: '127.0.0.1', httpPort: port, socksPort: port },
        username: 'u',
        password: 'secret-pass',
      } as unknown as MobilePort)
      .then((ip) => {
        settled = true;
        return ip;
      });
    await clock.whenSleeping();
    await vi_waitFor(() => held.size === 1);
    await clock.advance(9_999);
    expect(settled).toBe(false);
    await clock.advance(1);
    expect(await pending).toBeNull();
  });
});

/** Waits for a condition that real sockets make true (loopback connects), without a timer. */
async function vi_waitFor(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !ready(); i += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(ready()).toBe(true);
}
