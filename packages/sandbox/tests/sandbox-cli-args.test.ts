import { describe, expect, it } from 'vitest';
import {
  parseKeySpec,
  parseSandboxArgs,
  SANDBOX_USAGE,
  UsageError,
  wantsHelp,
} from '../src/sandbox-cli-args';

describe('parseSandboxArgs', () => {
  it('gives no options for no arguments (the server defaults apply)', () => {
    expect(parseSandboxArgs([])).toEqual({});
  });

  it('reads every option', () => {
    expect(
      parseSandboxArgs([
        '--host',
        '0.0.0.0',
        '--port',
        '0',
        '--gateway-http-port',
        '8080',
        '--gateway-socks-port',
        '0',
        '--key',
        'a:proxies',
        '--key',
        'readonly:',
        '--latency',
        'fast',
        '--seed',
        '42',
        '--data',
        'state.json',
        '--clock',
        'manual',
        '--start-time',
        '2026-03-10T12:00:00Z',
      ]),
    ).toEqual({
      host: '0.0.0.0',
      port: 0,
      gatewayHttpPort: 8080,
      gatewaySocksPort: 0,
      keys: [
        { key: 'a', scopes: ['proxies'] },
        { key: 'readonly', scopes: [] },
      ],
      latency: 'fast',
      seed: 42,
      dataFile: 'state.json',
      clock: 'manual',
      startTime: '2026-03-10T12:00:00Z',
    });
  });

  it.each([
    ['--gateway-http-port', '65536'],
    ['--gateway-socks-port', '-1'],
    ['--gateway-http-port', 'http'],
  ])('refuses %s %s with a usage error naming the flag', (flag, value) => {
    expect(() => parseSandboxArgs([flag, value])).toThrow(UsageError);
    expect(() => parseSandboxArgs([flag, value])).toThrow(flag);
  });

  it.each(['2026-03-10', '2026-03-10T12:00Z', '2026-03-10T12:00:00.250+02:00'])(
    'accepts the ISO start time %s',
    (startTime) => {
      expect(parseSandboxArgs(['--start-time', startTime]).startTime).toBe(startTime);
    },
  );

  it('accepts --name=value', () => {
    expect(parseSandboxArgs(['--port=4011', '--latency=realistic', '--clock=real'])).toEqual({
      port: 4011,
      latency: 'realistic',
      clock: 'real',
    });
  });

  it.each([
    [['--port', '65536']],
    [['--port', '-1']],
    [['--port', '']],
    [['--port', '1e3']],
    [['--port', '0x10']],
    [['--port', '80.5']],
    [['--seed', 'abc']],
    [['--seed', '']],
    [['--seed', '-3']],
    [['--seed', '4294967296']],
    [['--latency', 'slow']],
    [['--clock', 'fast']],
    [['--start-time', 'March 10']],
    [['--start-time', '2026-02-30T00:00:00Z']],
    [['--start-time', '2026-03-10T24:00:00Z']],
    [['--start-time', '2026-03-10T12:00:00']],
    [['--host', '']],
    [['--data', '']],
    [['--key', 'nocolon']],
    [['--key', ':proxies']],
    [['--key', 'has space:proxies']],
    [['--key', 'a:proxies', '--key', 'a:']],
    [['--unknown']],
    [['positional']],
    [['--port']],
  ])('refuses %j with a UsageError', (argv) => {
    expect(() => parseSandboxArgs(argv)).toThrow(UsageError);
  });

  it('never echoes a key in its error message', () => {
    expect(() => parseSandboxArgs(['--key', 'supersecret'])).toThrow(/\*{11}/);
    try {
      parseSandboxArgs(['--key', 'supersecret']);
    } catch (error) {
      expect((error as Error).message).not.toContain('supersecret');
    }
  });
});

describe('parseKeySpec', () => {
  it('splits at the last colon, trims and de-duplicates scopes', () => {
    expect(parseKeySpec('k:v:proxies, admin ,proxies,')).toEqual({
      key: 'k:v',
      scopes: ['proxies', 'admin'],
    });
  });

  it('allows an empty scope list', () => {
    expect(parseKeySpec('readonly:')).toEqual({ key: 'readonly', scopes: [] });
  });
});

describe('help', () => {
  it('is asked with --help or -h, and the usage names every option', () => {
    expect(wantsHelp(['--help'])).toBe(true);
    expect(wantsHelp(['-h'])).toBe(true);
    expect(wantsHelp(['--port', '0'])).toBe(false);
    for (const option of [
      '--host',
      '--port',
      '--key',
      '--latency',
      '--seed',
      '--data',
      '--clock',
      '--start-time',
    ]) {
      expect(SANDBOX_USAGE).toContain(option);
    }
  });
});
