import jsQR from 'jsqr';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { qrLines } from '../../src-main/cli/commands/topups-commands';
import { COMMANDS } from '../../src-main/cli/command-tree';
import { deriveFields } from '../../src-main/cli/schema-fields';
import { runCli } from '../../src-main/cli';
import { localTime } from '../../src-main/cli/output';
import { MemoryStream, runCapture, tempDataDir } from './support/cli-harness';

// The command line's rough edges of issue 35, each as a user meets it.

const ESC = String.fromCharCode(27);
const ESCAPES = new RegExp(`${ESC}\\[[0-9;]*m`, 'g');

let sandbox: TestSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  env = {
    PROXY_MANAGER_DATA_DIR: tempDataDir(),
    PROXY_MANAGER_API_KEY: DEMO_KEY,
    PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
  };
});

afterAll(async () => {
  await sandbox.close();
});

/** The QR code's half-block lines as pixels (dark modules black, 4 px per module), decoded by jsqr. */
function decode(lines: readonly string[]): string | null {
  const plain = lines.map((line) => line.replace(ESCAPES, ''));
  const width = Math.max(...plain.map((line) => [...line].length));
  const scale = 4;
  const rows: boolean[][] = [];
  for (const line of plain) {
    const chars = [...line.padEnd(width)];
    rows.push(chars.map((char) => char === '█' || char === '▀'));
    rows.push(chars.map((char) => char === '█' || char === '▄'));
  }
  const w = width * scale;
  const h = rows.length * scale;
  const data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const value = rows[Math.floor(y / scale)]?.[Math.floor(x / scale)] ? 0 : 255;
      data.set([value, value, value, 255], (y * w + x) * 4);
    }
  }
  return jsQR(data, w, h)?.data ?? null;
}

describe('the command line’s rough edges', () => {
  it('draws a QR code that scans, with no escape sequence in a pipe and one pair per line on a terminal', async () => {
    const uri = 'tron:TXYZ1234567890abcdefghij?amount=25.123456';
    const plain = await qrLines(uri, false);
    expect(plain.join('\n')).not.toContain(ESC);
    expect(decode(plain)).toBe(uri);
    const colored = await qrLines(uri, true);
    expect(colored.every((line) => line.split(ESC).length === 3)).toBe(true);
    expect(decode(colored)).toBe(uri);
  });

  it('topups create takes 25 as 25.00, prints a QR code of its payment URI, no escapes in a pipe', async () => {
    const run = await runCapture(
      ['topups', 'create', '--amount', '25', '--coin', 'USDT', '--network', 'tron'],
      env,
    );
    expect([run.code, run.stderr]).toEqual([0, '']);
    const created = (await sandbox.request('GET', '/v1/topups?perPage=1')).json.data[0];
    expect(created.amountUsd).toBe('25.00');
    expect(run.stdout).not.toContain(ESC);
    const qr = run.stdout.split('\n').filter((line) => /^[ ▀▄█]+$/.test(line) && /[▀▄█]/.test(line));
    expect(decode(qr)).toBe(created.paymentUri);
    const half = await runCapture(
      ['topups', 'create', '--amount', '27.5', '--coin', 'USDT', '--network', 'tron', '--json'],
      env,
    );
    expect(half.json<{ amountUsd: string }>().amountUsd).toBe('27.50');
  });

  it('NO_COLOR and --no-color keep escapes out even on a terminal', async () => {
    for (const [argv, extraEnv] of [
      [['--no-color'], {}],
      [[], { NO_COLOR: '1' }],
    ] as const) {
      const stdout = new MemoryStream();
      stdout.isTTY = true;
      const stderr = new MemoryStream();
      const code = await runCli(
        ['topups', 'create', '--amount', '30', '--coin', 'USDT', '--network', 'tron', ...argv],
        { stdout, stderr, env: { ...env, ...extraEnv } },
      );
      expect(code).toBe(0);
      expect(stdout.text).not.toContain(ESC);
    }
  });

  it('warns on stderr that a demo top-up is simulated and must not be paid', async () => {
    const run = await runCapture(
      [
        'topups',
        'create',
        '--amount',
        '25',
        '--coin',
        'USDT',
        '--network',
        'tron',
        '--demo',
        '--demo-latency',
        'fast',
        '--json',
      ],
      { PROXY_MANAGER_DATA_DIR: tempDataDir() },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^Demo mode: a simulated top-up\. Send nothing to this address; `proxy-manager topups simulate topup_\w+ --demo` pays it\.\n$/,
    );
    expect(run.json<{ id: string }>().id).toMatch(/^topup_/);
  });

  it('starts the demo quietly: no keychain probe (nor its D-Bus noise) for the demo or a key from the environment', async () => {
    for (const args of [['--demo', '--demo-latency', 'fast'], []]) {
      const run = await runCapture(['ports', 'list', '--json', 'id', '--verbose', ...args], {
        ...(args.length === 0 ? env : { PROXY_MANAGER_DATA_DIR: tempDataDir() }),
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
      });
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/keychain unavailable: not probed/);
      expect(run.stderr).not.toMatch(/dbus|AccessDenied|platform storage/i);
    }
    const quiet = await runCapture(['ports', 'list', '--demo', '--demo-latency', 'fast', '--json', 'id'], {
      PROXY_MANAGER_DATA_DIR: tempDataDir(),
    });
    expect(quiet.stderr).toBe('');
  });

  it('profiles add reads the key from stdin, never from a flag, and saves the profile', async () => {
    const dataDir = tempDataDir();
    const key = 'pm-test-key-0123456789abcdef';
    const stdout = new MemoryStream();
    const stderr = new MemoryStream();
    const code = await runCli(
      ['profiles', 'add', 'Work', '--base-url', sandbox.baseUrl, '--storage', 'session'],
      { stdout, stderr, env: { PROXY_MANAGER_DATA_DIR: dataDir }, stdin: Readable.from([`${key}\n`]) },
    );
    expect([code, stderr.text]).toEqual([0, '']);
    expect(stdout.text).toMatch(/^Saved profile "Work"\./);
    expect(stdout.text).not.toContain(key);
    const listed = await runCapture(['profiles', 'list', '--json'], { PROXY_MANAGER_DATA_DIR: dataDir });
    expect(listed.json<{ name: string; baseUrl: string }[]>()).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Work', baseUrl: sandbox.baseUrl })]),
    );
    const flag = await runCapture(
      ['profiles', 'add', 'Other', '--base-url', sandbox.baseUrl, '--api-key', key],
      {
        PROXY_MANAGER_DATA_DIR: dataDir,
      },
    );
    expect(flag.code).toBe(2);
    const empty = await runCli(['profiles', 'add', 'Empty', '--base-url', sandbox.baseUrl], {
      stdout,
      stderr,
      env: { PROXY_MANAGER_DATA_DIR: dataDir },
      stdin: Readable.from(['']),
    });
    expect(empty).toBe(2);
    expect(stderr.text).toBe('error: no API key given: type it at the prompt or pipe it in\n');
  });

  it('names the command, not an internal channel, when a scope is missing', async () => {
    const run = await runCapture(['topups', 'list', '--scopes', 'rotate'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'error: proxy-manager topups list needs the "read" scope, which this run’s --scopes leaves out.\n',
    );
  });

  it('names the CLI command for the catalog instead of an HTTP route in the service’s message', async () => {
    const run = await runCapture(
      ['topups', 'create', '--amount', '25', '--coin', 'DOGE', '--network', 'doge'],
      env,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/GET \/v1\//);
    expect(run.stderr).toMatch(/proxy-manager catalog coins/);
  });

  it('describes every flag of every command with a sentence, not only its bounds', () => {
    const bare = COMMANDS.flatMap((spec) =>
      spec.channel
        ? deriveFields(spec.channel, spec.fields)
            .filter((field) => field.help.replace(/\([^)]*\)/g, '').trim() === '')
            .map((field) => `${spec.path.join(' ')} --${field.flag}`)
        : [],
    );
    expect(bare).toEqual([]);
    for (const spec of COMMANDS)
      for (const extra of spec.extra ?? []) expect(extra.help.length).toBeGreaterThan(5);
  });

  it('lists the global options once: a command’s help points to them in one line', async () => {
    const top = await runCapture(['--help'], {});
    expect(top.stdout).toMatch(/--scopes <list>/);
    const sub = await runCapture(['subs', 'string', '--help'], {});
    expect(sub.code).toBe(0);
    expect(sub.stdout).not.toMatch(/Global Options:|--scopes <list>/);
    expect(sub.stdout).toMatch(/^Global options \(--json, --profile, .*\): see proxy-manager --help\.$/m);
    expect(sub.stdout).toMatch(/--country <value>\s+two-letter country code/);
  });

  it('shows times to a person in local time, and keeps ISO 8601 in JSON', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      expect(localTime('2026-11-29T01:02:03.000Z')).toBe('2026-11-29 10:02');
      expect(localTime(null)).toBe('-');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    await runCapture(
      ['topups', 'create', '--amount', '25', '--coin', 'USDT', '--network', 'tron', '--json'],
      env,
    );
    const text = await runCapture(['topups', 'list'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    expect(text.stdout).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    const json = await runCapture(['topups', 'list', '--json'], env);
    expect(json.stdout).toMatch(/"createdAt": "\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
  });

  it('takes a lower-case country code as upper case', async () => {
    const subscriptionId = (await sandbox.request('GET', '/v1/residential/subscriptions')).json.data[0].id;
    const run = await runCapture(['subs', 'string', subscriptionId, '--country', 'us', '--json'], env);
    expect(run.code).toBe(0);
    expect(run.json<{ lines: string[] }>().lines[0]).toMatch(/-country-US\b|country-us/i);
  });
});
