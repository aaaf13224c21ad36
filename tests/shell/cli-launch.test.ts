import { describe, expect, it, vi } from 'vitest';
import {
  CLI_UNAVAILABLE_STATUS,
  CLI_WORDS,
  type CliIo,
  cliArgumentsOf,
  runCli,
  userArguments,
} from '../../src-main/shell/cli-launch';

function recordingIo(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (text) => void out.push(text), stderr: (text) => void err.push(text) };
}

describe('command line through the app executable', () => {
  it("knows the contract's domains and help/version as the words that start a command", () => {
    for (const word of ['ports', 'subscriptions', 'topups', 'catalog', 'help', '--help', '--version'])
      expect(CLI_WORDS.has(word)).toBe(true);
    for (const word of ['--hidden', '--demo', '--no-sandbox', '-psn_0_12345', '.', ''])
      expect(CLI_WORDS.has(word)).toBe(false);
  });

  it('takes the user’s arguments after the executable, and after the app folder under `electron .`', () => {
    expect(userArguments(['/opt/Proxy Manager/proxy-manager', 'ports', 'list'], false)).toEqual([
      'ports',
      'list',
    ]);
    expect(userArguments(['/x/electron', '.', 'ports', 'list'], true)).toEqual(['ports', 'list']);
  });

  it('is a command when the first argument is a CLI word or --cli, and the app otherwise', () => {
    const exe = '/opt/Proxy Manager/proxy-manager';
    expect(cliArgumentsOf([exe, 'ports', 'rotate', 'p-1'])).toEqual(['ports', 'rotate', 'p-1']);
    expect(cliArgumentsOf([exe, '--cli', 'anything', '--json'])).toEqual(['anything', '--json']);
    expect(cliArgumentsOf([exe, '--cli'])).toEqual([]);
    expect(cliArgumentsOf([exe, '--help'])).toEqual(['--help']);
    expect(cliArgumentsOf(['/x/electron', '.', 'topups', 'list'], { defaultApp: true })).toEqual([
      'topups',
      'list',
    ]);
    // The desktop app's own starts: no arguments, a login start, the demo, a file dropped on the launcher.
    expect(cliArgumentsOf([exe])).toBeNull();
    expect(cliArgumentsOf([exe, '--hidden'])).toBeNull();
    expect(cliArgumentsOf([exe, '--demo'])).toBeNull();
    expect(cliArgumentsOf([exe, '/home/me/ports'])).toBeNull();
    // Unpackaged, the app folder is not a command word even if it were named like one.
    expect(cliArgumentsOf(['/x/electron', 'ports'], { defaultApp: true })).toBeNull();
    // Playwright's Electron launch puts its switches first: still the app.
    expect(
      cliArgumentsOf(['/x/electron', '--inspect=0', '--remote-debugging-port=0', '/repo', '--no-sandbox'], {
        defaultApp: true,
      }),
    ).toBeNull();
    // A command word later on does not make it a command.
    expect(cliArgumentsOf([exe, '--demo', 'ports'])).toBeNull();
  });

  it('takes its words from the caller when given (the CLI may own the list)', () => {
    expect(cliArgumentsOf(['/e', 'sandbox', 'start'], { words: new Set(['sandbox']) })).toEqual([
      'sandbox',
      'start',
    ]);
    expect(cliArgumentsOf(['/e', 'ports'], { words: new Set(['sandbox']) })).toBeNull();
  });

  it('says in one line that this build has no command line, and exits 2', async () => {
    const io = recordingIo();
    await expect(runCli(['ports', 'list'], { io, load: () => Promise.resolve(null) })).resolves.toBe(
      CLI_UNAVAILABLE_STATUS,
    );
    expect(CLI_UNAVAILABLE_STATUS).toBe(2);
    expect(io.err).toEqual(['proxy-manager: the command line is not available in this build yet\n']);
    expect(io.out).toEqual([]);
  });

  it('runs the CLI module when there is one, with the arguments and its output streams', async () => {
    const io = recordingIo();
    const run = vi.fn((args: readonly string[], cliIo: CliIo) => {
      cliIo.stdout(`ran ${args.join(' ')}\n`);
      return Promise.resolve(0);
    });
    await expect(runCli(['ports', 'list'], { io, load: () => Promise.resolve({ run }) })).resolves.toBe(0);
    expect(run).toHaveBeenCalledWith(['ports', 'list'], io);
    expect(io.out).toEqual(['ran ports list\n']);
  });

  it('turns a CLI that throws, or fails to load, into status 1 and one line on stderr', async () => {
    const io = recordingIo();
    const failing = { run: () => Promise.reject(new Error('no key stored')) };
    await expect(runCli(['ports'], { io, load: () => Promise.resolve(failing) })).resolves.toBe(1);
    await expect(
      runCli(['ports'], { io, load: () => Promise.reject(new Error('missing chunk')) }),
    ).resolves.toBe(1);
    expect(io.err).toEqual(['proxy-manager: no key stored\n', 'proxy-manager: missing chunk\n']);
  });
});

describe('the words that start the command line', () => {
  it('include the first word of every command the CLI has', async () => {
    const { COMMANDS } = await import('../../src-main/cli/command-tree');
    for (const command of COMMANDS)
      expect(CLI_WORDS.has(command.path[0] as string), command.path.join(' ')).toBe(true);
  });
});
