import type { Clock } from '../core/runtime/clock';
import type { CallChannel, CallOutput, IpcError, IpcResult } from '../../src-shared/contract';
import { publicAnswer, publicFieldsOf } from '../dispatch/public-answers';
import type { Output } from './output';
import { type PlaceNames, placeNamesOf } from './place-names';
import type { FieldOverrides, FieldSpec } from './schema-fields';

/** Exit codes: the contract of the CLI with scripts. */
export const EXIT = {
  done: 0,
  /** The call failed: a typed error of the app or the service (a 429 cooldown, a refusal, offline…). */
  failed: 1,
  /** Usage: unknown command or flag, or an argument the contract's schema refuses. */
  usage: 2,
  /** `--wait` timed out with the operation still pending. */
  pending: 3,
  /** `health --check`: something needs attention (an error or a warning of the overview). */
  attention: 4,
  /** `health --check`: a list (ports, subscriptions, open top-ups) could not be read: not known. */
  unknown: 5,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A call answered with an error: the command ends with exit code 1 and the error's one line. */
export class CallFailed extends Error {
  constructor(readonly error: IpcError) {
    super(error.message);
    this.name = 'CallFailed';
  }
}

/** A usage error (exit code 2): a flag or argument that cannot make a valid input. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A CLI-only option (not an input field): `--csv`, `--wait`, `--timeout <seconds>`. */
interface ExtraOption {
  /** Commander flags, e.g. `--timeout <seconds>`. */
  flags: string;
  help: string;
  /** Whole seconds > 0 (checked before anything runs). */
  seconds?: boolean;
  default?: string;
}

export interface CommandContext {
  out: Output;
  json: boolean;
  clock: Clock;
  /** The CLI-only options' values by attribute name (`csv`, `wait`, `timeout`). */
  options: Record<string, unknown>;
  /** The fields the user gave explicitly (dotted paths). */
  given: ReadonlySet<string>;
  fields: readonly FieldSpec[];
  /** A call that throws `CallFailed` on an error answer. */
  call<C extends CallChannel>(channel: C, input: unknown): Promise<CallOutput<C>>;
  /** A call whose error answer is returned, for commands that act on it (a cooldown to wait out). */
  callResult<C extends CallChannel>(channel: C, input: unknown): Promise<IpcResult<CallOutput<C>>>;
  /** The catalog's names of the places `render` shows (see `CommandSpec.places`); ids until then. */
  places: PlaceNames;
}

export interface CommandSpec {
  /** `['ports', 'rotate']`, `['ports', 'schedule', 'set']`. */
  path: readonly string[];
  /** The channel whose input schema gives the flags; absent for commands that call nothing. */
  channel?: CallChannel;
  /** Other channels the command may call (their scopes are checked before anything runs). */
  also?: readonly CallChannel[];
  summary: string;
  /** Whole command lines, e.g. `proxy-manager ports rotate port_1 --until-new 3`. */
  examples: readonly string[];
  fields?: FieldOverrides & { generate?: Record<string, () => unknown> };
  extra?: readonly ExtraOption[];
  /** Free positional arguments of a command without a channel (`completion <shell>`). */
  arguments?: readonly { name: string; help: string; choices?: readonly string[]; optional?: boolean }[];
  /**
   * Runs the command with its checked input; default: one call to `channel`, then the value
   * (JSON) or `render` (text). Returns the exit code.
   */
  run?: (context: CommandContext, input: unknown, args: readonly string[]) => Promise<ExitCode>;
  /**
   * The global `--scopes` names a field of the input (`token create --scopes read,rotate`: the
   * token's scopes) instead of narrowing this run's grant.
   */
  scopesAreInput?: boolean;
  /**
   * A secret field read from stdin (a prompt without echo on a terminal, else the first line of what
   * is piped in), never from a flag: a flag would show in `ps` and the shell's history.
   */
  secretFromStdin?: { field: string; prompt: string };
  /** The value as text for a person (tables); default: JSON. */
  render?: (value: never, context: CommandContext) => string;
  /**
   * The country codes whose names (and their cities' names) `render` shows: read from the catalog
   * before rendering text (`context.places`), never for `--json`, which keeps the ids.
   */
  places?: (value: never) => Iterable<string>;
}

/** `--timeout` in ms from the context (validated as whole seconds already). */
export function timeoutMs(context: CommandContext, fallbackSeconds: number): number {
  const raw = context.options.timeout;
  return (typeof raw === 'string' ? Number(raw) : fallbackSeconds) * 1000;
}

/**
 * Prints a value: as one JSON document in its public shape (a list the window gets as a table is an
 * array of objects), or the command's text.
 */
export async function printValue(context: CommandContext, spec: CommandSpec, value: unknown): Promise<void> {
  if (context.json || !spec.render) {
    if (spec.channel) {
      context.out.knownFields = publicFieldsOf(spec.channel);
      context.out.json(publicAnswer(spec.channel, value));
    } else context.out.json(value);
    return;
  }
  if (spec.places) context.places = await placeNamesOf(context, spec.places(value as never));
  context.out.out(spec.render(value as never, context));
}
