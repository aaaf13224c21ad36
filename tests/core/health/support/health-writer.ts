/*
 * A child process for the kill -9 test: records checks into the health store as fast as it can and
 * prints the number committed after each one, until it is killed.
 */
import { HealthStore } from '../../../../src-main/core/health/health-store';

const file = process.argv[2] as string;
const store = HealthStore.open(file);
const start = Date.parse('2026-03-10T00:00:00.000Z');
for (let n = 1; ; n += 1) {
  store.record(`port-${n % 7}`, {
    at: start + n * 30_000,
    ok: n % 5 !== 0,
    status: n % 5 !== 0 ? 200 : 503,
    connectMs: 5 + (n % 40),
    firstByteMs: 20 + (n % 300),
    exitIp: `100.64.0.${n % 250}`,
    asn: 64512,
    country: 'DE',
    errorKind: n % 5 !== 0 ? null : 'unavailable',
    error: n % 5 !== 0 ? null : 'Modem offline: the modem is not answering.',
  });
  process.stdout.write(`${n}\n`);
}
