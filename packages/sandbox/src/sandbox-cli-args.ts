import { parseArgs } from 'node:util';
import { parseIsoDate } from './http/input-reader';
import { SCALE_LIMITS, type SandboxScale } from './sandbox-scale';
import type { ApiKeySpec, SandboxOptions } from './sandbox-server';

export const SANDBOX_USAGE = `Usage: proxy-sandbox [options]   (in the app's checkout: npm run sandbox -- [options])
  --host HOST              listen address (default 127.0.0.1)
  --port N                 port, 0 for a free one (default 4010)
  --gateway-http-port N    the proxy gateway's HTTP proxy port, 0 for a free one
                           (default: --port + 1, or a free one with --port 0)
  --gateway-socks-port N   the proxy gateway's SOCKS5 port, 0 for a free one
                           (default: --port + 2, or a free one with --port 0)
  --key KEY:SCOPES         accepted API key with comma-separated scopes, repeatable
                           (default: sandbox-demo-key:proxies; --key readonly: has no scope)
  --latency fast|realistic rotation answers after 5-15 s when realistic (default realistic)
  --seed N                 deterministic demo data (0-4294967295; default random)
  --data FILE              persist state to FILE (atomically) and load it on start;
                           an existing FILE keeps its own seed, clock and start time
  --clock real|manual      manual: time moves only through POST /__sandbox/clock (default real)
  --start-time ISO         sandbox time at the first start, e.g. 2026-03-10T12:00:00Z (default now)
  --scale LIST             a large account for benchmarks, totals such as
                           ports=1000,subscriptions=200,sub-users=5000,topups=300
                           (abandoned-topups=N: of the top-ups, how many expired unpaid in
                           the last 72 h; default 20)
  -h, --help               show this text`;

export class UsageError extends Error {}

const mask = (text: string): string => text.replace(/./g, '*');

/** Parses `KEY:SCOPES` (scopes comma-separated, possibly empty). The key is never echoed back. */
export function parseKeySpec(text: string): ApiKeySpec {
  const colon = text.lastIndexOf(':');
  if (colon < 0) throw new UsageError(`--key needs KEY:SCOPES, e.g. my-key:proxies (got "${mask(text)}")`);
  const key = text.slice(0, colon);
  if (key.length === 0) throw new UsageError('--key needs a non-empty KEY before the colon');
  // A bearer key is one token: whitespace or control characters could never be sent back.
  if ([...key].some((ch) => /\s/.test(ch) || ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) {
    throw new UsageError('--key KEY must not contain spaces or control characters');
  }
  const scopes = text
    .slice(colon + 1)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return { key, scopes: [...new Set(scopes)] };
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** Date.parse rolls 2026-02-30 over into March; this refuses days and times that do not exist. */
function isIsoTime(text: string): boolean {
  const match = ISO_TIME.exec(text);
  if (!match || parseIsoDate(text.slice(0, 10)) === null) return false;
  const [hours, minutes, seconds] = [match[1], match[2], match[3]].map((part) => Number(part ?? 0));
  return (hours ?? 0) < 24 && (minutes ?? 0) < 60 && (seconds ?? 0) < 60 && Number.isFinite(Date.parse(text));
}

function parseWholeNumber(flag: string, text: string, max: number): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value > max) {
    throw new UsageError(`${flag} must be a whole number from 0 to ${max} (got "${text}")`);
  }
  return value;
}

/** True when the arguments ask for the usage text. */
export const wantsHelp = (argv: readonly string[]): boolean => argv.includes('--help') || argv.includes('-h');

export function parseSandboxArgs(argv: readonly string[]): SandboxOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'gateway-http-port': { type: 'string' },
        'gateway-socks-port': { type: 'string' },
        key: { type: 'string', multiple: true },
        latency: { type: 'string' },
        seed: { type: 'string' },
        data: { type: 'string' },
        clock: { type: 'string' },
        'start-time': { type: 'string' },
        scale: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const options: SandboxOptions = {};
  if (values.host !== undefined) {
    if (values.host.trim().length === 0) throw new UsageError('--host must not be empty');
    options.host = values.host;
  }
  if (values.port !== undefined) options.port = parseWholeNumber('--port', values.port, 65535);
  const gatewayHttpPort = values['gateway-http-port'];
  if (gatewayHttpPort !== undefined) {
    options.gatewayHttpPort = parseWholeNumber('--gateway-http-port', gatewayHttpPort, 65535);
  }
  const gatewaySocksPort = values['gateway-socks-port'];
  if (gatewaySocksPort !== undefined) {
    options.gatewaySocksPort = parseWholeNumber('--gateway-socks-port', gatewaySocksPort, 65535);
  }
  if (values.key !== undefined) {
    const keys = values.key.map(parseKeySpec);
    if (new Set(keys.map((k) => k.key)).size !== keys.length) {
      throw new UsageError('--key: the same KEY is given twice');
    }
    options.keys = keys;
  }
  if (values.latency !== undefined) {
    if (values.latency !== 'fast' && values.latency !== 'realistic') {
      throw new UsageError(`--latency must be fast or realistic (got "${values.latency}")`);
    }
    options.latency = values.latency;
  }
  // SeededRandom keeps 32 bits: larger seeds would silently collide with smaller ones.
  if (values.seed !== undefined) options.seed = parseWholeNumber('--seed', values.seed, 0xffff_ffff);
  if (values.data !== undefined) {
    if (values.data.length === 0) throw new UsageError('--data needs a file name');
    options.dataFile = values.data;
  }
  if (values.clock !== undefined) {
    if (values.clock !== 'real' && values.clock !== 'manual') {
      throw new UsageError(`--clock must be real or manual (got "${values.clock}")`);
    }
    options.clock = values.clock;
  }
  const startTime = values['start-time'];
  if (startTime !== undefined) {
    if (!isIsoTime(startTime)) {
      throw new UsageError(
        `--start-time must be an ISO 8601 time, e.g. 2026-03-10T12:00:00Z (got "${startTime}")`,
      );
    }
    options.startTime = startTime;
  }
  if (values.scale !== undefined) options.scale = parseScale(values.scale);
  return options;
}

const SCALE_KEYS = {
  ports: ['ports', SCALE_LIMITS.ports],
  subscriptions: ['subscriptions', SCALE_LIMITS.subscriptions],
  'sub-users': ['subUsers', SCALE_LIMITS.subUsers],
  topups: ['topUps', SCALE_LIMITS.topUps],
  'abandoned-topups': ['abandonedTopUps', SCALE_LIMITS.topUps],
} as const satisfies Record<string, readonly [keyof SandboxScale, number]>;

/** `ports=1000,sub-users=5000,topups=300` into a `SandboxScale`. */
export function parseScale(text: string): SandboxScale {
  const scale: SandboxScale = {};
  for (const part of text.split(',')) {
    const [name = '', value, ...rest] = part.split('=');
    const entry = (SCALE_KEYS as Record<string, readonly [keyof SandboxScale, number]>)[name.trim()];
    if (!entry || value === undefined || rest.length > 0) {
      throw new UsageError(
        `--scale takes ${Object.keys(SCALE_KEYS).join(', ')} as NAME=N, comma-separated (got "${part}")`,
      );
    }
    scale[entry[0]] = parseWholeNumber(`--scale ${name.trim()}`, value.trim(), entry[1]);
  }
  return scale;
}
