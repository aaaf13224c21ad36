import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src-main/cli/command-tree';
import { FakeClock } from '../../src-main/core/runtime/fake-clock';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { runCapture, tempDataDir } from './support/cli-harness';
import { PORT_ROW_COLUMNS } from '../../src-shared/contract/ports';

// The CLI in this process against a real sandbox (its manual clock), through a one-shot core: no
// desktop app or web mode owns the temp data folder, so each command builds its own and disposes it.

let sandbox: TestSandbox;
let env: Record<string, string>;
let portIds: string[];

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  portIds = (await sandbox.request('GET', '/v1/mobile')).json.data.map((port: { id: string }) => port.id);
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(() => {
  env = {
    PROXY_MANAGER_DATA_DIR: tempDataDir(),
    PROXY_MANAGER_API_KEY: DEMO_KEY,
    PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
  };
});

const oneLine = (text: string) => {
  expect(text.endsWith('\n')).toBe(true);
  expect(text.trimEnd().split('\n')).toHaveLength(1);
};

describe('results', () => {
  it('ports list --json prints the ports as one JSON document, nothing else', async () => {
    const run = await runCapture(['ports', 'list', '--json'], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const list = run.json<Record<string, unknown>[]>();
    // An array of objects (never the window's table), with the documented fields: what the list
    // shows, no password and no rotation link (the key).
    expect(list.map((port) => port.id)).toEqual(portIds);
    expect(Object.keys(list[0] ?? {})).toEqual([...PORT_ROW_COLUMNS]);
    expect(run.stdout).not.toMatch(/password|rotationLink/);
  });

  it('--json takes a field list, before or after the command, and refuses a field that is not there', async () => {
    const after = await runCapture(['ports', 'list', '--json', 'id,currentIp'], env);
    expect(after.code).toBe(0);
    const picked = after.json<Record<string, unknown>[]>();
    expect(picked.map((port) => Object.keys(port))).toEqual(portIds.map(() => ['id', 'currentIp']));
    const before = await runCapture(['--json', 'id', 'ports', 'list'], env);
    expect(before.json<unknown>()).toEqual(portIds.map((id) => ({ id })));
    // `--json` then a command word is the whole document, not a field list.
    const whole = await runCapture(['--json', 'ports', 'list'], env);
    expect(whole.json<unknown[]>()).toHaveLength(portIds.length);
    const one = await runCapture(['ports', 'show', '--json', portIds[0] ?? ''], env);
    expect(one.json<{ id: string }>().id).toBe(portIds[0]);
    const bad = await runCapture(['ports', 'list', '--json', 'id,ip'], env);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^error: --json: no field "ip" here \(the fields: id, label, .*currentIp/);
  });

  it('ports list prints a table for a person', async () => {
    const run = await runCapture(['ports', 'list'], env);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(/^ID\s+LABEL\s+STATUS/);
    for (const id of portIds) expect(run.stdout).toContain(id);
    expect(() => JSON.parse(run.stdout)).toThrow();
  });

  it('ports rotate prints the receipt; a second one within 30 s exits 1 with the cooldown in seconds', async () => {
    const portId = portIds[1] ?? '';
    const first = await runCapture(['ports', 'rotate', portId, '--json'], env);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    const receipt = first.json();
    // The receipt records where the rotation came from: the command line.
    expect(receipt).toMatchObject({ portId, attempts: 1, confirmedBy: 'answer', trigger: 'cli' });
    expect(receipt.ip).not.toBe('');

    const second = await runCapture(['ports', 'rotate', portId, '--json'], env);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    oneLine(second.stderr);
    expect(second.stderr).toMatch(/^error: One rotation per 30 seconds.*\(cooldown: 30 s\)\n$/);
    await sandbox.advance(30);
  });

  it('ports rotate --wait waits out the cooldown on the clock, then rotates', async () => {
    const portId = portIds[2] ?? '';
    expect((await runCapture(['ports', 'rotate', portId], env)).code).toBe(0);
    const clock = new FakeClock(Date.parse(await sandbox.now()));
    const waiting = runCapture(['ports', 'rotate', portId, '--wait', '--json'], env, { clock });
    await clock.whenSleeping();
    expect(clock.sleepDurations).toEqual([30_000]);
    await sandbox.advance(30);
    await clock.advance(30_000);
    const run = await waiting;
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ portId });

    // Still in its cooldown when --timeout ends: exit code 3, nothing slept.
    const impatient = await runCapture(['ports', 'rotate', portId, '--wait', '--timeout', '10'], env, {
      clock: new FakeClock(),
    });
    expect(impatient.code).toBe(3);
    oneLine(impatient.stderr);
    expect(impatient.stderr).toMatch(/still in its cooldown/);
    await sandbox.advance(30);
  });

  it('ports relocate --wait reads the port every 10 s until it is active on its new modem', async () => {
    const ports = (await sandbox.request('GET', '/v1/mobile')).json.data as {
      id: string;
      country: string;
      carrier: string;
    }[];
    const port = ports.find((p) => p.country === 'US') ?? ports[0];
    const carrier = port?.carrier === 'verizon' ? 'tmobile_us' : 'verizon';
    const clock = new FakeClock(Date.parse(await sandbox.now()));
    const moving = runCapture(
      ['ports', 'relocate', port?.id ?? '', '--country', 'US', '--carrier', carrier, '--wait', '--json'],
      env,
      { clock },
    );
    await clock.whenSleeping();
    expect(clock.sleepDurations).toEqual([10_000]);
    // The sandbox's modem comes online within 100 s.
    await sandbox.advance(100);
    await clock.advance(10_000);
    const run = await moving;
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ id: port?.id, status: 'active', carrier });
  });

  it('topups create prints the top-up as JSON, or the address, the exact amount and a QR code', async () => {
    const run = await runCapture(
      ['topups', 'create', '--amount', '25.00', '--coin', 'USDT', '--network', 'tron', '--json'],
      env,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const topUp = run.json();
    expect(topUp).toMatchObject({
      amountUsd: '25.00',
      coin: 'USDT',
      network: 'tron',
      status: 'awaiting_payment',
    });
    expect(topUp.amountCrypto).toMatch(/^\d+\.\d{6}$/);

    const text = await runCapture(
      ['topups', 'create', '--amount', '30.00', '--coin', 'USDT', '--network', 'tron'],
      env,
    );
    expect(text.code).toBe(0);
    const created = (await sandbox.request('GET', '/v1/topups?perPage=1')).json.data[0];
    expect(text.stdout).toContain(created.address);
    expect(text.stdout).toContain(`${created.amountCrypto} USDT`);
    // The terminal QR code: half-block characters.
    expect(text.stdout).toMatch(/[▀▄█]/);
  });

  it('topups create --wait follows the top-up at the spec’s cadence until it is credited', async () => {
    const clock = new FakeClock(Date.parse(await sandbox.now()));
    const following = runCapture(
      ['topups', 'create', '--amount', '40.00', '--coin', 'USDT', '--network', 'tron', '--wait', '--json'],
      env,
      { clock },
    );
    await clock.whenSleeping();
    expect(clock.sleepDurations).toEqual([30_000]);
    const topUp = (await sandbox.request('GET', '/v1/topups?perPage=1')).json.data[0];
    expect(
      (
        await sandbox.control('POST', '/chain/transactions', {
          network: 'tron',
          amountCrypto: topUp.amountCrypto,
        })
      ).status,
    ).toBe(201);
    await clock.advance(30_000);
    // Paid and seen: verifying, read every 10 s until the confirmations are in.
    await clock.whenSleepCalls(2);
    expect(clock.sleepDurations).toEqual([30_000, 10_000]);
    await sandbox.advance(3_600);
    await clock.advance(10_000);
    const run = await following;
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ id: topUp.id, status: 'credited', final: true });
  });

  it('topups show --wait ends with exit code 3 when --timeout ends before the top-up is final', async () => {
    const created = await runCapture(
      ['topups', 'create', '--amount', '26.00', '--coin', 'USDT', '--network', 'tron', '--json'],
      env,
    );
    const id = created.json().id as string;
    const run = await runCapture(['topups', 'show', id, '--wait', '--timeout', '20', '--json'], env, {
      clock: new FakeClock(),
    });
    expect(run.code).toBe(3);
    expect(run.json()).toMatchObject({ id, final: false });
    oneLine(run.stderr);
  });

  it('subs string builds one line per sticky session with the targeting flags', async () => {
    const subscriptionId = (await sandbox.request('GET', '/v1/residential/subscriptions')).json.data[0].id;
    const run = await runCapture(
      [
        'subs',
        'string',
        subscriptionId,
        '--country',
        'US',
        '--count',
        '3',
        '--session-prefix',
        'job',
        '--json',
      ],
      env,
    );
    expect(run.code).toBe(0);
    const { lines } = run.json();
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(/^http:\/\/.*-country-us.*-session-job\d/i);
  });

  it('subs subusers add takes a cap as 1.5GB (exact bytes) and refuses a unit it does not know', async () => {
    const subscriptionId = (await sandbox.request('GET', '/v1/residential/subscriptions')).json.data[0].id;
    const run = await runCapture(
      ['subs', 'subusers', 'add', subscriptionId, '--label', 'cli', '--limit', '1.5GB', '--json'],
      env,
    );
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ label: 'cli', trafficLimitBytes: 1_500_000_000 });
    const bad = await runCapture(
      ['subs', 'subusers', 'add', subscriptionId, '--label', 'x', '--limit', '2TB'],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: --limit: a size such as 1.5GB or 500MB, or none\n');
  });

  it('subs subusers list prints the rows, and --json is an array of objects without passwords', async () => {
    const subscriptionId = (await sandbox.request('GET', '/v1/residential/subscriptions')).json.data[0].id;
    const whole = (await sandbox.request('GET', `/v1/residential/subscriptions/${subscriptionId}/sub-users`))
      .json.data as { label: string; password: string }[];
    expect(whole.length).toBeGreaterThan(0);
    const shown = await runCapture(['subs', 'subusers', 'list', subscriptionId], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^ID\s+LABEL\s+USERNAME\s+ENABLED\s+USED\s+LIMIT/);
    for (const subUser of whole) expect(shown.stdout).toContain(subUser.label);
    const json = await runCapture(['subs', 'subusers', 'list', subscriptionId, '--json'], env);
    expect(json.code).toBe(0);
    const listed = json.json<Record<string, unknown>[]>();
    expect(listed).toHaveLength(whole.length);
    expect(Object.keys(listed[0] ?? {})).toEqual([
      'id',
      'label',
      'username',
      'trafficLimitBytes',
      'trafficUsedBytes',
      'enabled',
      'createdAt',
    ]);
    expect(json.stdout).not.toMatch(/password/i);
    for (const subUser of whole) expect(json.stdout).not.toContain(subUser.password);
  });

  it('profiles list shows the profile this run uses (a key from the environment, never saved)', async () => {
    const run = await runCapture(['profiles', 'list', '--json'], env);
    expect(run.code).toBe(0);
    expect(run.json()).toEqual([
      expect.objectContaining({ name: 'Environment', kind: 'environment', active: true }),
    ]);
  });
});

describe('usage errors: exit code 2, one line on stderr, nothing sent', () => {
  const cases: [string, string[], RegExp][] = [
    ['an unknown command', ['ports', 'frobnicate'], /^error: unknown command 'frobnicate'/],
    ['an unknown flag', ['ports', 'list', '--frob'], /^error: unknown option '--frob'/],
    ['an empty port id', ['ports', 'show', ''], /^error: <port-id>: Choose a port$/],
    [
      'an id of the wrong shape',
      ['subs', 'subusers', 'rm', 'sub_1', '..'],
      /^error: <sub-user-id>: Not an id: it is only dots$/,
    ],
    [
      'an id with a space',
      ['ports', 'rotate', 'port 1'],
      /^error: <port-id>: Not an id: it contains spaces or control characters$/,
    ],
    [
      'a country code of the wrong shape',
      ['catalog', 'states', 'usa'],
      /^error: <country>: A country is a two-letter/,
    ],
    [
      'an amount with three decimals',
      ['topups', 'create', '--amount', '25.001', '--coin', 'USDT', '--network', 'tron'],
      /^error: --amount: An amount in USD with two decimals, e.g. 50.00$/,
    ],
    [
      'a cron expression that does not parse',
      ['ports', 'schedule', 'set', 'port_1', '--cron', 'every day at noon'],
      /^error: --cron: /,
    ],
    [
      'both cadences at once',
      ['ports', 'schedule', 'set', 'port_1', '--cron', '0 * * * *', '--every', '60'],
      /^error: --every and --cron cannot be used together$/,
    ],
    ['a number that is not one', ['ports', 'history', 'port_1', '--per-page', 'ten'], /^error: --per-page: /],
    [
      'an unknown scope',
      ['ports', 'list', '--scopes', 'read,root'],
      /^error: --scopes: unknown scope "root"/,
    ],
    [
      'a timeout that is not whole seconds',
      ['ports', 'rotate', 'port_1', '--wait', '--timeout', '1.5'],
      /^error: --timeout: /,
    ],
    [
      'a required flag left out',
      ['topups', 'create', '--amount', '25.00'],
      /^error: required option '--coin <code>'/,
    ],
  ];

  it.each(cases)('%s', async (_, argv, message) => {
    const before = (await sandbox.requests()).length;
    const run = await runCapture(argv, env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    oneLine(run.stderr);
    expect(run.stderr.trimEnd()).toMatch(message);
    expect((await sandbox.requests()).length).toBe(before);
  });

  it('a group without its command shows the group’s help (exit code 2)', async () => {
    const run = await runCapture(['ports'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('rotate');
  });
});

describe('scopes', () => {
  it('--scopes read refuses ports rotate with exit code 1 before any request reaches the sandbox', async () => {
    const before = await sandbox.requests();
    const run = await runCapture(['ports', 'rotate', portIds[0] ?? '', '--scopes', 'read'], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'error: proxy-manager ports rotate needs the "rotate" scope, which this run’s --scopes leaves out.\n',
    );
    expect(await sandbox.requests()).toEqual(before);
  });

  it('without the secrets scope, passwords are blanked', async () => {
    const run = await runCapture(['ports', 'show', portIds[0] ?? '', '--json', '--scopes', 'read'], env);
    expect(run.code).toBe(0);
    expect(run.json().password).toBeNull();
  });
});

describe('output', () => {
  it('a reader that went away (EPIPE) ends the output quietly', async () => {
    const { runCli } = await import('../../src-main/cli');
    const errorListeners: ((error: NodeJS.ErrnoException) => void)[] = [];
    let writes = 0;
    const closedPipe = {
      isTTY: false,
      write: () => {
        writes += 1;
        const error = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
        queueMicrotask(() => errorListeners.forEach((listener) => listener(error)));
        return false;
      },
      on: (_: 'error', listener: (error: NodeJS.ErrnoException) => void) => errorListeners.push(listener),
      off: () => undefined,
    };
    let stderr = '';
    const code = await runCli(['completion', 'bash'], {
      stdout: closedPipe,
      stderr: { write: (text) => ((stderr += text), true) },
      env,
    });
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(writes).toBe(1);
  });

  it('every command has help with an example (exit code 0)', async () => {
    for (const spec of COMMANDS) {
      const run = await runCapture([...spec.path, '--help'], env);
      expect(run.code, spec.path.join(' ')).toBe(0);
      expect(run.stdout).toContain('Examples:');
      expect(run.stdout).toContain(`$ proxy-manager ${spec.path.join(' ')}`);
    }
  });
});
