/**
 * `npm run bench -- --only health-store`: one year of health-check buckets for 1,000 ports (a check
 * every 5 minutes: 12 per hour, 288 per day) written into the health store, with each port's last
 * 500 raw checks, then read back as the scores read them (24 h and 30 days per port). Prints the
 * file's size on disk and the times.
 *
 *   tsx bench/health-store-bench.ts [--ports 1000] [--days 365]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  type BucketAggregate,
  emptyAggregate,
  HealthStore,
  mergeAggregate,
  aggregateOf,
  RESOLUTIONS,
  type Resolution,
} from '../src-main/core/health/health-store';

const { values } = parseArgs({
  options: { ports: { type: 'string', default: '1000' }, days: { type: 'string', default: '365' } },
});
const PORTS = Number(values.ports);
const DAYS = Number(values.days);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CHECK_EVERY = 5 * 60_000;
const END = Date.parse('2026-11-29T00:00:00.000Z');

/** A deterministic latency draw: most checks fast, a tail of slow ones, one in 200 failing. */
function drawCheck(port: number, at: number) {
  const seed = Math.imul(port + 1, 2654435761) ^ Math.floor(at / CHECK_EVERY);
  const r = ((seed >>> 0) % 10_000) / 10_000;
  const ok = (seed >>> 0) % 200 !== 7;
  return { ok, connectMs: Math.round(8 + r * 60), firstByteMs: Math.round(60 + r * r * 900) };
}

/** The aggregate of the checks of `[from, from + span)` for one port. */
function aggregateOver(port: number, from: number, span: number): BucketAggregate {
  const total = emptyAggregate();
  for (let at = from; at < from + span; at += CHECK_EVERY)
    mergeAggregate(total, aggregateOf(drawCheck(port, at)));
  return total;
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'health-bench-'));
  const file = join(dir, 'health.sqlite');
  const store = HealthStore.open(file);
  const start = END - DAYS * DAY;
  const writeStarted = performance.now();
  for (let port = 0; port < PORTS; port += 1) {
    const key = `profile-1|port|mp_${port}`;
    const entries: { resolution: Resolution; at: number; aggregate: BucketAggregate }[] = [];
    // Before the last 500 checks: whole aggregates, only what the store keeps (days for the year,
    // hours for 30 days). The last 500 go through `record`, check by check, as the job writes them.
    const rawFrom = END - 500 * CHECK_EVERY;
    for (let at = start; at < rawFrom; at += DAY) {
      entries.push({
        resolution: 'day',
        at,
        aggregate: aggregateOver(port, at, Math.min(DAY, rawFrom - at)),
      });
    }
    for (let at = END - RESOLUTIONS.hour.keepMs; at < rawFrom; at += HOUR) {
      entries.push({
        resolution: 'hour',
        at,
        aggregate: aggregateOver(port, at, Math.min(HOUR, rawFrom - at)),
      });
    }
    store.mergeBuckets(key, entries);
    for (let at = rawFrom; at < END; at += CHECK_EVERY) {
      const drawn = drawCheck(port, at);
      store.record(key, {
        at,
        ok: drawn.ok,
        status: drawn.ok ? 200 : 503,
        connectMs: drawn.connectMs,
        firstByteMs: drawn.firstByteMs,
        exitIp: `100.64.${port % 250}.${(at / CHECK_EVERY) % 250}`,
        asn: 64512 + (port % 100),
        country: 'US',
        errorKind: drawn.ok ? null : 'unavailable',
        error: drawn.ok ? null : 'Modem offline: The modem of mobile port mp_1 is not answering.',
      });
    }
  }
  const writeMs = performance.now() - writeStarted;
  store.close();
  const bytes = ['', '-wal', '-shm'].reduce((sum, suffix) => {
    try {
      return sum + statSync(`${file}${suffix}`).size;
    } catch {
      return sum;
    }
  }, 0);

  const reopened = HealthStore.open(file);
  const readStarted = performance.now();
  let checks = 0;
  for (let port = 0; port < PORTS; port += 1) {
    const key = `profile-1|port|mp_${port}`;
    checks += reopened.totals(key, 'minute', END - DAY, END).checks;
    checks += reopened.totals(key, 'hour', END - 30 * DAY, END).checks;
    checks += reopened.totals(key, 'day', start, END).checks;
    reopened.recentChecks(key);
  }
  const readMs = performance.now() - readStarted;
  const integrity = reopened.integrityCheck();
  reopened.close();
  if (process.env.KEEP_HEALTH_BENCH) console.log(file);
  else rmSync(dir, { recursive: true, force: true });
  const result = {
    ports: PORTS,
    days: DAYS,
    sizeMB: Number((bytes / 1_048_576).toFixed(1)),
    writeSeconds: Number((writeMs / 1000).toFixed(1)),
    readAllPortsMs: Math.round(readMs),
    readPerPortMs: Number((readMs / PORTS).toFixed(2)),
    checksReadBack: checks,
    integrity,
  };
  console.log(
    `health store: ${PORTS} ports x ${DAYS} days: ${result.sizeMB} MB on disk, written in ${result.writeSeconds} s, ` +
      `24 h + 30 d + year + raw read back for every port in ${result.readAllPortsMs} ms, integrity ${integrity}`,
  );
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
  if (integrity !== 'ok') process.exitCode = 1;
}

main();
