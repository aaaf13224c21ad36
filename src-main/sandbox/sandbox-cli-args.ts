import { parseArgs } from 'node:util';
import type { ApiKeySpec, SandboxOptions } from './sandbox-server';

export const SANDBOX_USAGE = `Usage: npm run sandbox -- [options]
  --host HOST              listen address (default 127.0.0.1)
  --port N                 port, 0 for a free one (default 4010)
  --key KEY:SCOPES         accepted API key with comma-separated scopes, repeatable
                           (default: sandbox-demo-key:proxies; --key readonly: has no scope)
  --latency fast|realistic rotation answers after 5-15 s when realistic (default realistic)
  --seed N                 deterministic demo data
  --data FILE              persist state to FILE (atomically) and load it on start
  --clock real|manual      manual: time moves only through POST /__sandbox/clock (default real)
  --start-time ISO         sandbox time at the first start (default now)`;

export class UsageError extends Error {}

/** Parses `KEY:SCOPES` (scopes comma-separated, possibly empty). */
export function parseKeySpec(text: string): ApiKeySpec {
  const colon = text.lastIndexOf(':');
  if (colon <= 0) throw new UsageError(`--key needs KEY:SCOPES (got "${text.replace(/./g, '*')}")`);
  const key = text.slice(0, colon);
  const scopes = text
    .slice(colon + 1)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return { key, scopes };
}

export function parseSandboxArgs(argv: readonly string[]): SandboxOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        key: { type: 'string', multiple: true },
        latency: { type: 'string' },
        seed: { type: 'string' },
        data: { type: 'string' },
        clock: { type: 'string' },
        'start-time': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const options: SandboxOptions = {};
  if (values.host !== undefined) options.host = values.host;
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be 0-65535');
    options.port = port;
  }
  if (values.key !== undefined) options.keys = values.key.map(parseKeySpec);
  if (values.latency !== undefined) {
    if (values.latency !== 'fast' && values.latency !== 'realistic') {
      throw new UsageError('--latency must be fast or realistic');
    }
    options.latency = values.latency;
  }
  if (values.seed !== undefined) {
    const seed = Number(values.seed);
    if (!Number.isInteger(seed)) throw new UsageError('--seed must be an integer');
    options.seed = seed;
  }
  if (values.data !== undefined) options.dataFile = values.data;
  if (values.clock !== undefined) {
    if (values.clock !== 'real' && values.clock !== 'manual')
      throw new UsageError('--clock must be real or manual');
    options.clock = values.clock;
  }
  if (values['start-time'] !== undefined) {
    if (!Number.isFinite(Date.parse(values['start-time'])))
      throw new UsageError('--start-time must be an ISO time');
    options.startTime = values['start-time'];
  }
  return options;
}
