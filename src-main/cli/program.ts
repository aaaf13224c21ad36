import { Argument, Command, CommanderError, Option } from 'commander';
import type { CommandSpec } from './command-spec';
import { COMMANDS, GLOBAL_OPTIONS, GROUPS } from './command-tree';
import type { FieldSpec } from './schema-fields';

/** What the command line chose: the command, its fields and what was given for each. */
export interface Selection {
  spec: CommandSpec;
  fields: FieldSpec[];
  /** Field path → the text (or texts, or boolean) given. */
  given: Map<string, unknown>;
  /** The CLI-only options (`csv`, `wait`, `timeout`) and the global ones, by attribute name. */
  options: Record<string, unknown>;
  /** Free arguments of a command without a channel (`completion bash`). */
  args: string[];
}

export interface ProgramIo {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

const PROGRAM_NAME = 'proxy-manager';

const DESCRIPTION =
  'The command line of Proxy Manager: mobile ports, traffic subscriptions, the catalog and crypto top-ups, ' +
  'through the same contract and scopes as the app. While the desktop app or web mode runs, commands go ' +
  'through it (one owner of rotations, cooldowns and receipts).';

const EPILOG = `
Exit codes: 0 done, 1 the call failed, 2 usage error, 3 still pending when --wait timed out,
4 health --check found something that needs attention.
Environment: PROXY_MANAGER_API_KEY with PROXY_MANAGER_BASE_URL use that key for this run only;
PROXY_MANAGER_DATA_DIR overrides the data folder. Documentation: docs/automation.md.`;

function addGlobalOptions(command: Command): void {
  for (const global of GLOBAL_OPTIONS) {
    const option = new Option(global.flags, global.help);
    if ('choices' in global) option.choices(global.choices);
    command.addOption(option);
  }
}

/** The one line each command's help gives for the global options (listed in full once, at the top). */
const GLOBAL_NOTE = `Global options (${GLOBAL_OPTIONS.map((option) => option.flags.split(' ')[0]).join(', ')}): see proxy-manager --help.`;

type Derive = (spec: CommandSpec) => FieldSpec[];

/** Global options that take a value: the word after them is not a command word. */
const VALUED_GLOBALS = new Set(
  GLOBAL_OPTIONS.filter((option) => option.flags.includes('<')).map((option) => option.flags.split(' ')[0]),
);

/**
 * The commands the command line names (`ports rotate port_1 --json` names `ports rotate`). Only their
 * flags are derived from the contract's schemas: help and a usage error never load zod for the
 * whole tree, which is most of the start-up time.
 */
function namedCommands(argv: readonly string[]): CommandSpec[] {
  const words: string[] = [];
  for (let index = 0; index < argv.length && words.length < 3; index += 1) {
    const token = argv[index] ?? '';
    if (token === '--') break;
    if (token.startsWith('-')) {
      if (VALUED_GLOBALS.has(token)) index += 1;
      continue;
    }
    words.push(token);
  }
  if (words[0] === 'help') words.shift();
  return COMMANDS.filter((spec) => spec.path.every((word, index) => words[index] === word));
}

function leafCommand(
  parent: Command,
  spec: CommandSpec,
  derive: Derive | null,
  onSelect: (selection: Selection) => void,
): void {
  const name = spec.path.at(-1) ?? '';
  const command = parent.command(name).description(spec.summary);
  const fields = derive && spec.channel ? derive(spec) : [];
  const fieldOptions = new Map<string, Option>();
  for (const field of fields) {
    if (field.positional) {
      const variadic = field.kind === 'string[]' ? '...' : '';
      const argument = new Argument(
        field.required ? `<${field.flag}${variadic}>` : `[${field.flag}${variadic}]`,
        field.help,
      );
      if (field.choices) argument.choices(field.choices);
      command.addArgument(argument);
      continue;
    }
    const flags =
      field.kind === 'boolean'
        ? `--${field.flag}`
        : `--${field.flag} <${field.placeholder}${field.kind === 'string[]' ? '...' : ''}>`;
    const option = new Option(flags, field.help);
    if (field.choices) option.choices(field.choices);
    if (field.required) option.makeOptionMandatory();
    command.addOption(option);
    fieldOptions.set(field.path, option);
    if (field.kind === 'boolean')
      command.addOption(new Option(`--no-${field.flag}`, `the opposite of --${field.flag}`));
  }
  for (const argument of spec.arguments ?? []) {
    const entry = new Argument(
      argument.optional ? `[${argument.name}]` : `<${argument.name}>`,
      argument.help,
    );
    if (argument.choices) entry.choices(argument.choices);
    command.addArgument(entry);
  }
  for (const extra of spec.extra ?? []) {
    const option = new Option(extra.flags, extra.help);
    if (extra.default !== undefined) option.default(extra.default);
    command.addOption(option);
  }
  command.addHelpText(
    'after',
    `\nExamples:\n${spec.examples.map((line) => `  $ ${line}`).join('\n')}\n\n${GLOBAL_NOTE}\n`,
  );
  command.action((...received: unknown[]) => {
    const self = received.at(-1) as Command;
    const given = new Map<string, unknown>();
    const positional = fields.filter((field) => field.positional);
    positional.forEach((field, index) => {
      const value: unknown = self.processedArgs[index];
      if (value !== undefined) given.set(field.path, value);
    });
    for (const [path, option] of fieldOptions) {
      const key = option.attributeName();
      const source = self.getOptionValueSource(key);
      if (source === 'cli') given.set(path, self.getOptionValue(key));
    }
    const args = (self.processedArgs as unknown[])
      .slice(positional.length)
      .filter((value) => value !== undefined)
      .map(String);
    onSelect({ spec, fields, given, options: self.optsWithGlobals(), args });
  });
}

/**
 * The commander program for the command tree. `parse` ends with a `Selection`, or throws the
 * `CommanderError` of a usage error (already written, one line) or of help shown.
 */
export async function buildProgram(
  io: ProgramIo,
  version: string,
  argv: readonly string[],
): Promise<{ program: Command; selected: () => Selection | null }> {
  let selection: Selection | null = null;
  const named = new Set(namedCommands(argv));
  const { deriveFields } = named.size > 0 ? await import('./schema-fields') : { deriveFields: null };
  const derive: Derive | null = deriveFields && ((spec) => deriveFields(spec.channel!, spec.fields));
  const program = new Command(PROGRAM_NAME)
    // Global options are listed once, in `proxy-manager --help`; each command's help points there.
    .configureHelp({ showGlobalOptions: false })
    .description(DESCRIPTION)
    .version(version, '-V, --version')
    .addHelpText('after', EPILOG)
    .showSuggestionAfterError(true);
  addGlobalOptions(program);
  const groups = new Map<string, Command>();
  const groupOf = (path: readonly string[]): Command => {
    let parent = program;
    for (let depth = 1; depth <= path.length; depth += 1) {
      const key = path.slice(0, depth).join(' ');
      let group = groups.get(key);
      if (!group) {
        group = parent.command(path[depth - 1] ?? '').description(GROUPS[key] ?? '');
        groups.set(key, group);
      }
      parent = group;
    }
    return parent;
  };
  for (const spec of COMMANDS) {
    leafCommand(groupOf(spec.path.slice(0, -1)), spec, named.has(spec) ? derive : null, (chosen) => {
      selection = chosen;
    });
  }
  const configure = (command: Command): void => {
    command.exitOverride();
    command.configureOutput({
      writeOut: (text) => io.writeOut(text),
      writeErr: (text) => io.writeErr(text),
      // One line: commander's "(Did you mean …?)" goes on the same line.
      outputError: (text, write) => write(`${text.trim().replace(/\s*\n\s*/g, ' ')}\n`),
    });
    command.commands.forEach(configure);
  };
  configure(program);
  return { program, selected: () => selection };
}

export { CommanderError };
