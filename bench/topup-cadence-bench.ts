/**
 * Top-up watcher cadence: how many `GET /v1/topups/{id}` the watcher sends over a simulated
 * 30-minute payment window, against the fewest the spec's polling guidance allows (10 s while
 * `verifying`, 30 s while waiting for payment, nothing after `final`). The target is a ratio of
 * exactly 1.00: never faster than the guidance (load on the service), never slower (a late screen).
 *
 * The in-process sandbox runs on a manual clock kept in step with the watcher's FakeClock, so 30
 * simulated minutes take a few seconds. Scenarios: top-ups on each network, some paid at different
 * times (verifying, then credited), some never paid (expired at 30 minutes, still watched).
 * The guidance count is computed from each top-up's own timeline (payment received, credited,
 * expiry), independently of the watcher: read at creation + 30 s, then after each read wait what
 * the status at that moment asks for.
 *
 *   npm run bench:topups [-- --window-minutes 30]
 *
 * Prints a table and one line `BENCH_RESULT {json}`.
 */
import { parseArgs } from 'node:util';
import { ProxyServiceClient, type TopUp } from '../src-main/api';
import { FakeClock } from '../src-main/core/runtime/fake-clock';
import { ApiCaller } from '../src-main/core/session/api-caller';
import { MemoryJobSection } from '../src-main/core/storage/job-section';
import type { TopUpIntentsState } from '../src-main/core/topups/topup-intents';
import {
  AWAITING_POLL_MS,
  TopUpWatcher,
  type TopUpWatchState,
  VERIFYING_POLL_MS,
} from '../src-main/core/topups/topup-watcher';
import { publishTopUpChanges } from '../src-main/core/topups/topup-changes';
import { TopUpLinks } from '../src-main/core/topups/topup-links';
import { TopUpsService } from '../src-main/core/topups/topups-service';
import { startSandbox } from '@proxy-manager/sandbox';

const KEY = 'sandbox-demo-key';
const START = '2026-03-10T12:00:00.000Z';
const PROFILE = 'bench';

interface Scenario {
  name: string;
  coin: string;
  network: string;
  /** Seconds after creation the exact amount arrives on the chain; null: never paid. */
  paidAfterS: number | null;
}

const SCENARIOS: Scenario[] = [
  { name: 'BTC unpaid', coin: 'BTC', network: 'bitcoin', paidAfterS: null },
  { name: 'BTC paid at 5 min', coin: 'BTC', network: 'bitcoin', paidAfterS: 305 },
  { name: 'LTC paid at 2 min', coin: 'LTC', network: 'litecoin', paidAfterS: 125 },
  { name: 'ETH paid at 1 min', coin: 'ETH', network: 'ethereum', paidAfterS: 61 },
  { name: 'USDT tron paid at 12 min', coin: 'USDT', network: 'tron', paidAfterS: 721 },
  { name: 'SOL unpaid', coin: 'SOL', network: 'solana', paidAfterS: null },
];

const { values } = parseArgs({
  options: { 'window-minutes': { type: 'string', default: '30' } },
  strict: true,
});
const windowMs = Number(values['window-minutes']) * 60_000;
if (!Number.isFinite(windowMs) || windowMs <= 0) throw new Error('--window-minutes must be positive');

/** The fewest reads the guidance allows for one top-up over `[created, created + window]`. */
function guidanceReads(topUp: TopUp, paidAt: number | null, windowEnd: number): number {
  const created = Date.parse(topUp.createdAt);
  const creditedAt = topUp.creditedAt ? Date.parse(topUp.creditedAt) : null;
  const statusAt = (t: number): 'awaiting' | 'verifying' | 'final' => {
    if (creditedAt !== null && t >= creditedAt) return 'final';
    if (paidAt !== null && t >= paidAt) return 'verifying';
    return 'awaiting';
  };
  let reads = 0;
  let t = created + AWAITING_POLL_MS;
  while (t <= windowEnd) {
    reads += 1;
    const status = statusAt(t);
    if (status === 'final') break;
    t += status === 'verifying' ? VERIFYING_POLL_MS : AWAITING_POLL_MS;
  }
  return reads;
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({
    port: 0,
    clock: 'manual',
    latency: 'fast',
    seed: 11,
    startTime: START,
    keys: [{ key: KEY, scopes: ['proxies'] }],
  });
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${sandbox.controlUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`control ${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const clock = new FakeClock(Date.parse(START));
  const client = new ProxyServiceClient({
    baseUrl: sandbox.baseUrl,
    apiKey: KEY,
    now: () => clock.now(),
    sleep: () => Promise.resolve(),
  });
  const api = new ApiCaller(
    { clientFor: () => Promise.resolve(client), activeProfileId: () => PROFILE },
    { begin: () => 0, record: () => undefined },
  );
  let events = 0;
  const sink = { emit: () => void (events += 1) };
  const links = new TopUpLinks();
  const watcher = new TopUpWatcher({
    api,
    clock,
    store: new MemoryJobSection<TopUpWatchState>(),
    publish: (profileId, changed) => publishTopUpChanges(sink, links, profileId, changed),
  });
  const service = new TopUpsService({
    api,
    events: sink,
    intents: new MemoryJobSection<TopUpIntentsState>(),
    now: () => clock.now(),
    watcher,
    links,
  });

  const settle = async (done: () => boolean): Promise<void> => {
    for (let i = 0; i < 5000 && !done(); i += 1) await new Promise((r) => setTimeout(r, 1));
    if (!done()) throw new Error('the watcher did not settle');
  };
  const advanceBoth = async (ms: number): Promise<void> => {
    if (ms <= 0) return;
    await control('POST', '/clock', { advanceSeconds: ms / 1000 });
    const sleeps = clock.sleeps.length;
    const due = clock.pending.at(-1);
    await clock.advance(ms);
    if (due && due.until <= clock.now()) {
      await settle(() => clock.sleeps.length > sleeps || watcher.state === 'idle');
    }
  };

  const wallStart = performance.now();
  const created: { scenario: Scenario; topUp: TopUp }[] = [];
  for (const [index, scenario] of SCENARIOS.entries()) {
    const topUp = await service.handlers()['topups:create']({
      amountUsd: `${50 + index}.00`,
      coin: scenario.coin,
      network: scenario.network,
      attemptId: crypto.randomUUID(),
    });
    created.push({ scenario, topUp });
  }
  const start = clock.now();
  const windowEnd = start + windowMs;
  const payments = created
    .filter((c) => c.scenario.paidAfterS !== null)
    .map((c) => ({ at: start + (c.scenario.paidAfterS as number) * 1000, topUp: c.topUp }))
    .sort((a, b) => a.at - b.at);
  watcher.start();
  await settle(() => watcher.state === 'waiting');

  // Step from wake-up to wake-up (and payment to payment) until the window ends.
  for (;;) {
    const wake = watcher.state === 'idle' ? null : (clock.pending.at(-1)?.until ?? null);
    const payment = payments[0] ?? null;
    const next = Math.min(wake ?? Infinity, payment?.at ?? Infinity, windowEnd);
    await advanceBoth(next - clock.now());
    if (payment && payment.at === clock.now()) {
      payments.shift();
      await control('POST', '/chain/transactions', {
        network: payment.topUp.network,
        amountCrypto: payment.topUp.amountCrypto,
      });
    }
    if (clock.now() >= windowEnd) break;
  }
  await watcher.stop();

  const log = (await control('GET', '/requests')) as { data: { at: string; method: string; path: string }[] };
  const rows = [];
  let sent = 0;
  let minimum = 0;
  for (const { scenario, topUp } of created) {
    const reads = log.data.filter(
      (r) => r.method === 'GET' && r.path.endsWith(`/v1/topups/${topUp.id}`) && Date.parse(r.at) <= windowEnd,
    ).length;
    const final = await client.getTopUp(topUp.id);
    const paidAt = scenario.paidAfterS === null ? null : start + scenario.paidAfterS * 1000;
    const expected = guidanceReads(final, paidAt, windowEnd);
    sent += reads;
    minimum += expected;
    rows.push({ scenario: scenario.name, status: final.status, reads, guidance: expected });
  }
  await sandbox.close();
  console.table(rows);
  const ratio = Number((sent / minimum).toFixed(2));
  const result = {
    bench: 'topup-cadence',
    windowMinutes: windowMs / 60_000,
    topUps: created.length,
    requestsSent: sent,
    guidanceMinimum: minimum,
    ratio,
    eventsEmitted: events,
    wallMs: Math.round(performance.now() - wallStart),
  };
  console.log(`\nBENCH_RESULT ${JSON.stringify(result)}`);
  if (sent !== minimum) process.exitCode = 1;
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
