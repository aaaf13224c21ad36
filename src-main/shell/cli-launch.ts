/**
 * The command line through the app's own executable. The packaged app has the RunAsNode fuse off
 * (scripts/apply-fuses.mjs), so it cannot run a Node script the way `ELECTRON_RUN_AS_NODE=1` CLIs
 * do; instead the executable itself recognises a command (`proxy-manager ports list`) and runs it
 * without a window. The `proxy-manager` on PATH is that executable (the deb's /usr/bin link) or
 * the launcher in resources/bin that starts it (docs/install.md).
 *
 * The CLI itself (`src-main/cli`) is loaded at `loadCli`, only when the run is a command.
 */
import { CALL_CHANNELS } from '../../src-shared/contract/channel-names';

/** `proxy-manager --cli <arguments>`: a command whatever its first word. */
const CLI_FLAG = '--cli';

/** Exit status when this build has no command line. */
export const CLI_UNAVAILABLE_STATUS = 2;

/**
 * The words that make a run a command: the contract's domains (`ports`, `subscriptions`,
 * `topups`, ...: the CLI is `proxy-manager <domain> <action>`), and asking for help or the version.
 * Nothing the desktop app is started with (`--hidden`, `--demo`, Chromium's switches, a macOS
 * `-psn_` argument) is among them.
 */
export const CLI_WORDS: ReadonlySet<string> = new Set([
  ...CALL_CHANNELS.map((channel) => channel.slice(0, channel.indexOf(':'))),
  // The CLI's own words beside the domains (tests/shell/cli-launch.test.ts checks its command tree).
  'subs',
  'test',
  'local-proxy',
  'update',
  'health',
  'mcp',
  'serve',
  'token',
  'audit',
  'completion',
  'help',
  '--help',
  '-h',
  'version',
  '--version',
]);

/**
 * What the user typed: the arguments after the executable, and after the app folder when Electron
 * runs an unpackaged app (`electron . ports list`, where `process.defaultApp` is true).
 */
export function userArguments(argv: readonly string[], defaultApp: boolean): string[] {
  return argv.slice(defaultApp ? 2 : 1);
}

/** The command's arguments when this run is a command, or null: start the desktop app. */
export function cliArgumentsOf(
  argv: readonly string[],
  { defaultApp = false, words = CLI_WORDS }: { defaultApp?: boolean; words?: ReadonlySet<string> } = {},
): string[] | null {
  const args = userArguments(argv, defaultApp);
  const first = args[0];
  if (first === undefined) return null;
  if (first === CLI_FLAG) return args.slice(1);
  return words.has(first) ? args : null;
}

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** What the CLI module provides: run one command, resolve with the exit status. */
interface CliModule {
  run(args: readonly string[], io: CliIo): Promise<number>;
}

export type CliLoader = (version: string | undefined) => Promise<CliModule | null>;

/**
 * The command line (`src-main/cli`), loaded only for a command: it writes to the process's own
 * streams, and a closed pipe (`| head`) ends it quietly.
 */
const loadCli: CliLoader = async (version) => {
  const cli = await import('../cli');
  return {
    run: (args) =>
      cli.runCli(args, { stdout: process.stdout, stderr: process.stderr, ...(version ? { version } : {}) }),
  };
};

const processIo: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** Runs one command and resolves with the process's exit status; never rejects. */
export async function runCli(
  args: readonly string[],
  { load = loadCli, io = processIo, version }: { load?: CliLoader; io?: CliIo; version?: string } = {},
): Promise<number> {
  try {
    const cli = await load(version);
    if (!cli) {
      io.stderr('proxy-manager: the command line is not available in this build yet\n');
      return CLI_UNAVAILABLE_STATUS;
    }
    return await cli.run(args, io);
  } catch (error) {
    io.stderr(`proxy-manager: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
