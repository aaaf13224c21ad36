import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ambientCallOptions, ProxyServiceClient, type TransportClock } from '../../../src-main/api';
import { EventBus } from '../../../src-main/core/events';
import { UiCalls } from '../../../src-main/core/session/ui-calls';
import type { CallSlow, ContractHandlers } from '../../../src-shared/contract';
import { createGuardedDispatcher } from '../../../src-main/dispatch/guarded-dispatcher';

/** Time for the client's budgets, moved by hand. */
function manualClock() {
  let now = 0;
  let timers: { at: number; fn: () => void }[] = [];
  const clock: TransportClock = {
    now: () => now,
    after: (ms, fn) => {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return () => {
        timers = timers.filter((t) => t !== timer);
      };
    },
  };
  const advance = (ms: number) => {
    now += ms;
    const due = timers.filter((t) => t.at <= now);
    timers = timers.filter((t) => t.at > now);
    for (const timer of due) timer.fn();
  };
  return { clock, advance };
}

describe('UI calls: still waiting, and a Cancel that aborts the request', () => {
  let server: Server | null = null;
  afterEach(async () => {
    const open = server;
    server = null;
    if (!open) return;
    open.closeAllConnections();
    await new Promise((resolve) => open.close(resolve));
  });

  async function hungServer() {
    const requests: IncomingMessage[] = [];
    const closed: string[] = [];
    server = createServer((req) => {
      requests.push(req);
      req.socket.on('close', () => closed.push(req.url ?? ''));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { baseUrl: `http://127.0.0.1:${port}/api/v1`, requests, closed };
  }

  async function until(check: () => boolean) {
    for (let i = 0; i < 500 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 2));
    expect(check()).toBe(true);
  }

  it('announces app:callSlow for the call at the budget point, and app:cancelCall closes its socket', async () => {
    const hung = await hungServer();
    const { clock, advance } = manualClock();
    const client = new ProxyServiceClient({ baseUrl: hung.baseUrl, apiKey: null, clock });
    const events = new EventBus(() => undefined);
    const slow: CallSlow[] = [];
    events.subscribe((channel, payload) => {
      if (channel === 'app:callSlow') slow.push(payload as CallSlow);
    });
    const uiCalls = new UiCalls(events);
    const handlers = {
      // The handler passes no signal of its own: the call's context gives it one.
      'catalog:coins': () => client.listCoins(),
      'app:cancelCall': (input: { callId: string }) =>
        Promise.resolve({ cancelled: uiCalls.cancel(input.callId) }),
    } as unknown as ContractHandlers;
    const dispatch = createGuardedDispatcher<null>({
      handlers,
      isTrustedSender: () => true,
      log: () => undefined,
      uiCalls,
    });

    const pending = dispatch(null, 'catalog:coins', undefined, { callId: 'call-1' });
    await until(() => hung.requests.length === 1);
    advance(2_999);
    expect(slow).toEqual([]);
    advance(1);
    expect(slow).toEqual([
      { callId: 'call-1', channel: 'catalog:coins', elapsedMs: 3_000, budgetMs: 20_000 },
    ]);

    expect(await dispatch(null, 'app:cancelCall', { callId: 'call-1' })).toEqual({
      ok: true,
      value: { cancelled: true },
    });
    const result = await pending;
    expect(result.ok).toBe(false);
    expect(result.ok ? null : result.error.code).toBe('cancelled');
    await until(() => hung.closed.length === 1);
    expect(uiCalls.size).toBe(0);
    // Over: a second Cancel finds nothing.
    expect(await dispatch(null, 'app:cancelCall', { callId: 'call-1' })).toEqual({
      ok: true,
      value: { cancelled: false },
    });
    await client.close();
  });

  it('a call without an id, or with a malformed one, runs as before and cannot be cancelled', async () => {
    const events = new EventBus(() => undefined);
    const uiCalls = new UiCalls(events);
    const seen: unknown[] = [];
    const handlers = {
      'catalog:coins': () => {
        seen.push(ambientCallOptions());
        return Promise.resolve([]);
      },
    } as unknown as ContractHandlers;
    const dispatch = createGuardedDispatcher<null>({
      handlers,
      isTrustedSender: () => true,
      log: () => undefined,
      uiCalls,
    });
    expect(await dispatch(null, 'catalog:coins', undefined, { callId: 'bad id with spaces' })).toEqual({
      ok: true,
      value: [],
    });
    expect(await dispatch(null, 'catalog:coins', undefined)).toEqual({ ok: true, value: [] });
    expect(seen).toEqual([undefined, undefined]);
    expect(uiCalls.size).toBe(0);
  });
});
