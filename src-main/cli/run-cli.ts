import { defaultDataDir } from '../core/app-paths';
import { type Clock, systemClock } from '../core/runtime/clock';
import type { CallChannel, IpcError, IpcResult } from '../../src-shared/contract';
import { type Scope, SCOPES } from '../../src-shared/contract/scopes';
import type { CliBackend, ProfileSelection } from './cli-backend';
import {
  CallFailed,
  type CommandContext,
  type CommandSpec,
  EXIT,
  type ExitCode,
  printValue,
  UsageError,
} from './command-spec';
import { PLACE_IDS } from './place-names';
import { COMMANDS, type COMPLETION_SHELLS } from './command-tree';
import { type CliStream, JsonFieldError, Output } from './output';
import { buildProgram, CommanderError, type Selection } from './program';
import type { FieldSpec } from './schema-fields';

/** What `runCli` reads and writes: the process's streams and environment, or a test's. */
export interface CliIo {
  stdout: CliStream;
  stderr: CliStream;
  /** Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Where a secret is read (`profiles add`'s key); default `process.stdin`. */
  stdin?: SecretSource;
  /** What `--version` prints: the launcher reads package.json, the packaged app its own version. */
  version?: string;
  /** Waits (`--wait`) run on it; tests pass a fake one. Default: the system clock. */
  clock?: Clock;
  /**
   * The clock of a core this command starts itself (what "expires in 2 days" is judged against):
   * tests put it on the sandbox's time. Default: the system clock.
   */
  coreClock?: Clock;
}

/**
 * `proxy-manager <domain> <action> [args]`: parses the command line, checks the grant and the input
 * with the contract's own scopes and schemas, runs the command through the owner of the background
 * jobs (or a core in this process), prints the result and resolves with the exit code. Never
 * throws, never exits the process and never prints a stack trace.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const env = io.env ?? process.env;
  const wantsColor = !argv.includes('--no-color') && env.NO_COLOR === undefined;
  const out = new Output(io.stdout, io.stderr, wantsColor);
  try {
    return await run(jsonFieldsApart(argv), io, env, out);
  } catch (error) {
    // Only a bug gets here; the user still gets one line.
    out.error(error instanceof Error ? error.message : String(error));
    return EXIT.failed;
  } finally {
    out.detach();
  }
}

async function run(
  argv: readonly string[],
  io: CliIo,
  env: Record<string, string | undefined>,
  out: Output,
): Promise<ExitCode> {
  const { program, selected } = await buildProgram(
    { writeOut: (text) => out.out(text), writeErr: (text) => out.note(text.trimEnd()) },
    io.version ?? 'unknown',
    argv,
  );
  try {
    program.parse([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.done;
    // Usage errors were written by commander (one line); `commander.help` is a group without its command.
    return EXIT.usage;
  }
  const selection = selected();
  if (!selection) return EXIT.usage;
  const { options } = selection;

  let grant: ReadonlySet<Scope>;
  try {
    // `token create --scopes …` names the token's scopes; the run keeps every scope (it needs `admin`).
    grant = selection.spec.scopesAreInput ? new Set(SCOPES) : parseScopes(options.scopes);
    checkExtras(selection);
  } catch (error) {
    if (error instanceof UsageError) {
      out.error(error.message);
      return EXIT.usage;
    }
    throw error;
  }
  const json = options.json !== undefined && options.json !== false;
  if (typeof options.json === 'string' && options.json !== '') {
    out.jsonFields = options.json.split(',');
  }

  const { spec } = selection;
  if (!spec.channel) return runLocalCommand(spec, selection, out, env, grant, io);

  // Loaded only for a command that calls something (not for help or a usage error).
  const [{ ipcCalls }, { buildInput, describeFieldError }] = await Promise.all([
    import('../../src-shared/contract'),
    import('./schema-fields'),
  ]);
  // The grant first, as the dispatcher does: a refused call sends nothing anywhere.
  const { scope } = ipcCalls[spec.channel];
  if (!grant.has(scope)) {
    out.error(
      `proxy-manager ${spec.path.join(' ')} needs the "${scope}" scope, which this run’s --scopes leaves out.`,
    );
    return EXIT.failed;
  }

  let input: unknown;
  try {
    input = buildInput(spec.channel, selection.fields, selection.given, spec.fields);
    if (spec.scopesAreInput && typeof options.scopes === 'string') {
      input = {
        ...(input as object),
        scopes: options.scopes
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      };
    }
  } catch (error) {
    if (error instanceof UsageError) {
      out.error(error.message);
      return EXIT.usage;
    }
    throw error;
  }
  if (spec.secretFromStdin) {
    const secret = await readSecret(io.stdin ?? process.stdin, io.stderr, spec.secretFromStdin.prompt);
    if (secret === '') {
      out.error(
        `no ${spec.secretFromStdin.prompt.replace(/ \(.*\)$/, '')} given: type it at the prompt or pipe it in`,
      );
      return EXIT.usage;
    }
    input = { ...(input as object), [spec.secretFromStdin.field]: secret };
  }
  // The same schema the dispatcher parses with: a field error is a usage error, named as typed.
  const parsed = ipcCalls[spec.channel].input.safeParse(input);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((issue) =>
      spec.scopesAreInput && issue.path[0] === 'scopes'
        ? `--scopes: ${options.scopes === undefined ? 'name the token’s scopes, e.g. read,rotate' : issue.message}`
        : describeFieldError(selection.fields, {
            field: issue.path.map(String).join('.'),
            message: issue.message,
          }),
    );
    out.error(messages.join('; '));
    return EXIT.usage;
  }

  const selectionOf = selectProfile(options, env);
  if ('usage' in selectionOf) {
    out.error(selectionOf.usage);
    return EXIT.usage;
  }
  const channels = [spec.channel, ...(spec.also ?? [])];
  const verbose = options.verbose === true;
  // Loaded only for a command that calls something: the control client and its crypto are not needed
  // for help or a usage error.
  const { openBackend, startError } = await import('./cli-backend');
  let backend: CliBackend;
  try {
    backend = await openBackend({
      origin: 'cli',
      dataDir: defaultDataDir(env),
      selection: selectionOf.selection,
      grant,
      scopes: new Set(channels.map((channel) => ipcCalls[channel].scope)),
      demoLatency: options.demoLatency === 'fast' ? 'fast' : 'realistic',
      ...(io.coreClock ? { clock: io.coreClock } : {}),
      log: verbose ? (line) => out.note(line) : () => undefined,
    });
  } catch (error) {
    const known = startError(error);
    out.error(known ? describeError(known) : error instanceof Error ? error.message : String(error));
    return EXIT.failed;
  }

  const context: CommandContext = {
    out,
    json,
    clock: io.clock ?? systemClock,
    options,
    given: new Set(selection.given.keys()),
    fields: selection.fields,
    places: PLACE_IDS,
    callResult: <C extends CallChannel>(channel: C, callInput: unknown) =>
      backend.call(channel, callInput) as Promise<IpcResult<never>>,
    call: async <C extends CallChannel>(channel: C, callInput: unknown) => {
      const result = await backend.call(channel, callInput);
      if (!result.ok) throw new CallFailed(result.error);
      return result.value as never;
    },
  };
  try {
    const runCommand = spec.run ?? defaultRun(spec);
    return await runCommand(context, input, selection.args);
  } catch (error) {
    out.clearProgress();
    if (error instanceof CallFailed) {
      out.error(describeError(error.error, selection.fields, describeFieldError));
      return EXIT.failed;
    }
    if (error instanceof UsageError || error instanceof JsonFieldError) {
      out.error(error.message);
      return EXIT.usage;
    }
    throw error;
  } finally {
    await backend.close().catch(() => undefined);
  }
}

function defaultRun(spec: CommandSpec): NonNullable<CommandSpec['run']> {
  return async (context, input) => {
    const value = await context.call(spec.channel as CallChannel, input);
    await printValue(context, spec, value);
    return EXIT.done;
  };
}

/** Commands that call nothing (`completion`), or that run here with a core of their own (`local-proxy run`). */
async function runLocalCommand(
  spec: CommandSpec,
  selection: Selection,
  out: Output,
  env: Record<string, string | undefined>,
  grant: ReadonlySet<Scope>,
  io: CliIo,
): Promise<ExitCode> {
  if (spec.path[0] === 'mcp' || spec.path[0] === 'serve') {
    const profile = selectProfile(selection.options, env);
    if ('usage' in profile) {
      out.error(profile.usage);
      return EXIT.usage;
    }
    const session = {
      out,
      dataDir: defaultDataDir(env),
      selection: profile.selection,
      demoLatency: selection.options.demoLatency === 'fast' ? ('fast' as const) : ('realistic' as const),
      verbose: selection.options.verbose === true,
      version: io.version ?? 'unknown',
    };
    if (spec.path[0] === 'mcp') {
      const { runMcp } = await import('./commands/mcp-run');
      const tokenEnv = selection.options.tokenEnv;
      const token = typeof tokenEnv === 'string' ? env[tokenEnv] : undefined;
      if (typeof tokenEnv === 'string' && !token) {
        out.error(`--token-env: the variable ${tokenEnv} is not set`);
        return EXIT.usage;
      }
      const toolsets = parseToolsets(selection.options.toolsets);
      if ('usage' in toolsets) {
        out.error(toolsets.usage);
        return EXIT.usage;
      }
      return runMcp({
        ...session,
        ...(toolsets.list ? { toolsets: toolsets.list } : {}),
        readOnly: selection.options.readOnly === true,
        outputSchemas: selection.options.outputSchemas !== false,
        // An agent gets `read` unless the command line (or its token) grants more.
        grant: selection.options.scopes === undefined && !token ? new Set(['read']) : grant,
        ...(token ? { token } : {}),
      });
    }
    const port = Number(selection.options.port);
    if (!/^\d+$/.test(String(selection.options.port)) || (port !== 0 && port < 1024) || port > 65_535) {
      out.error('--port: a port from 1024 to 65535 (0: a free one), e.g. 24080');
      return EXIT.usage;
    }
    const { runServe } = await import('./commands/serve-run');
    return runServe({ ...session, port });
  }
  if (spec.path[0] === 'local-proxy' && spec.path[1] === 'run') {
    // It listens on the account's traffic: the scope of adding a local proxy.
    if (!grant.has('manage')) {
      out.error(
        'proxy-manager local-proxy run needs the "manage" scope, which this run’s --scopes leaves out.',
      );
      return EXIT.failed;
    }
    const profile = selectProfile(selection.options, env);
    if ('usage' in profile) {
      out.error(profile.usage);
      return EXIT.usage;
    }
    const { runLocalProxy } = await import('./commands/local-proxy-run');
    return runLocalProxy({ selection, out, profile: profile.selection, dataDir: defaultDataDir(env) });
  }
  if (spec.path[0] === 'completion') {
    const shell = selection.args[0] as (typeof COMPLETION_SHELLS)[number];
    const { completionScript } = await import('./completion');
    out.out(completionScript(shell));
    return EXIT.done;
  }
  return EXIT.usage;
}

/** The words of the command tree (`ports`, `list`, `schedule`…): never a `--json` field list. */
const COMMAND_WORDS = new Set(COMMANDS.flatMap((spec) => spec.path));
const FIELD_LIST = /^[a-zA-Z][a-zA-Z0-9]*(,[a-zA-Z][a-zA-Z0-9]*)*$/;

/**
 * `--json` takes its field list as `--json id,label` or `--json=id,label`; a following word that is
 * a command word or an argument (`port_1`, `--demo`) is not one, so `--json ports list` and
 * `ports show --json port_1` keep working. Fields are camelCase: ids (`port_1`) never look like them.
 */
function jsonFieldsApart(argv: readonly string[]): string[] {
  const result: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const token = argv[index] ?? '';
    if (token === '--') {
      result.push(...argv.slice(index));
      break;
    }
    if (token !== '--json') {
      result.push(token);
      continue;
    }
    const next = argv[index + 1];
    if (next !== undefined && FIELD_LIST.test(next) && !COMMAND_WORDS.has(next)) {
      result.push(`--json=${next}`);
      index += 1;
    } else result.push('--json=');
  }
  return result;
}

/** The MCP server's toolsets (`tools/list` groups); the names live here so that help loads no MCP code. */
const TOOLSET_NAMES = [
  'ports',
  'subscriptions',
  'topups',
  'catalog',
  'local_proxies',
  'schedules',
  'tests',
  'health',
] as const;

function parseToolsets(raw: unknown): { list?: (typeof TOOLSET_NAMES)[number][] } | { usage: string } {
  if (typeof raw !== 'string') return {};
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.find((name) => !(TOOLSET_NAMES as readonly string[]).includes(name));
  if (names.length === 0 || unknown !== undefined) {
    return {
      usage: `--toolsets: ${unknown === undefined ? 'name at least one' : `unknown toolset "${unknown}"`} (the toolsets: ${TOOLSET_NAMES.join(', ')})`,
    };
  }
  return { list: names as (typeof TOOLSET_NAMES)[number][] };
}

/** What a secret is read from: a terminal (raw mode, no echo) or a pipe. */
interface SecretSource {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  once(event: 'end' | 'close', listener: () => void): unknown;
  removeAllListeners(event: string): unknown;
  pause(): unknown;
  resume(): unknown;
}

/**
 * A secret from a prompt without echo (a terminal) or the first line of stdin (a pipe). Never a
 * flag: a flag shows in `ps` and in the shell's history.
 */
function readSecret(stdin: SecretSource, stderr: CliStream, prompt: string): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      stdin.removeAllListeners('data');
      if (stdin.isTTY) {
        stdin.setRawMode?.(false);
        stderr.write('\n');
      }
      stdin.pause();
      resolve(text.split(/\r?\n/)[0]?.trim() ?? '');
    };
    if (stdin.isTTY) {
      stderr.write(`${prompt}: `);
      stdin.setRawMode?.(true);
    }
    stdin.on('data', (chunk) => {
      for (const char of chunk.toString()) {
        if (stdin.isTTY && (char === '\r' || char === '\n' || char === '\u0004')) return finish();
        if (stdin.isTTY && char === '\u0003') {
          text = '';
          return finish();
        }
        if (stdin.isTTY && (char === '\u007f' || char === '\b')) text = text.slice(0, -1);
        else text += char;
      }
    });
    stdin.once('end', finish);
    stdin.resume();
  });
}

function parseScopes(raw: unknown): ReadonlySet<Scope> {
  if (typeof raw !== 'string') return new Set(SCOPES);
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError('--scopes: name at least one scope, e.g. read,rotate');
  const unknown = names.filter((name) => !(SCOPES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new UsageError(`--scopes: unknown scope "${unknown[0]}" (the scopes: ${SCOPES.join(', ')})`);
  }
  return new Set(names as Scope[]);
}

function checkExtras(selection: Selection): void {
  for (const extra of selection.spec.extra ?? []) {
    if (!extra.seconds) continue;
    const name = /--([a-z-]+)/.exec(extra.flags)?.[1] ?? '';
    const key = name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
    const value = selection.options[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) <= 0 || Number(value) > 604_800) {
      throw new UsageError(`--${name}: whole seconds from 1 to 604800, e.g. 60`);
    }
  }
}

function selectProfile(
  options: Record<string, unknown>,
  env: Record<string, string | undefined>,
): { selection: ProfileSelection } | { usage: string } {
  const profile = typeof options.profile === 'string' ? options.profile : undefined;
  if (options.demo === true) {
    if (profile !== undefined) return { usage: '--demo and --profile cannot be used together' };
    return { selection: { kind: 'demo' } };
  }
  if (profile !== undefined) return { selection: { kind: 'named', name: profile } };
  const apiKey = env.PROXY_MANAGER_API_KEY;
  const baseUrl = env.PROXY_MANAGER_BASE_URL;
  if (apiKey && baseUrl) return { selection: { kind: 'environment', apiKey, baseUrl } };
  if (apiKey || baseUrl) {
    return { usage: 'PROXY_MANAGER_API_KEY and PROXY_MANAGER_BASE_URL must be set together' };
  }
  return { selection: { kind: 'active' } };
}

/** The service's routes a message may name, as the commands a CLI user runs instead. */
const ROUTE_COMMANDS: readonly [RegExp, string][] = [
  [
    /`?GET \/v1\/catalog\/(countries|states|cities|asns|carriers|coins)\b[^`\s)]*`?/g,
    '`proxy-manager catalog $1`',
  ],
  [/`?GET \/v1\/topups\b`?/g, '`proxy-manager topups list`'],
  [/`?GET \/v1\/mobile\b`?/g, '`proxy-manager ports list`'],
];

function inCliWords(message: string): string {
  return ROUTE_COMMANDS.reduce((text, [route, command]) => text.replace(route, command), message);
}

/** The error's one line: its message, the fields it names, and a cooldown in seconds. */
function describeError(
  error: IpcError,
  specs: readonly FieldSpec[] = [],
  name: (specs: readonly FieldSpec[], field: { field: string; message: string }) => string = (_, field) =>
    `${field.field}: ${field.message}`,
): string {
  let text = inCliWords(error.message);
  const fields = error.fields ?? [];
  if (fields.length > 0 && !(fields.length === 1 && text.includes(fields[0]?.message ?? '\u0000'))) {
    const described = fields.map((field) => name(specs, field));
    text = `${text} (${described.join('; ')})`;
  }
  if (error.retryAfterMs !== undefined) {
    text = `${text} (cooldown: ${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} s)`;
  }
  return text;
}
