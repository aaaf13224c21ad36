import { z } from 'zod';
import { type CallChannel, type IpcFieldError, ipcCalls } from '../../src-shared/contract';
import { UsageError } from './command-spec';

/**
 * A command's flags and arguments, read from its channel's input schema (zod 4 emits JSON Schema):
 * which fields exist, their types, enums, bounds, defaults and which are required. A command only
 * says what the schema cannot: which fields are positional, a shorter flag name, a sentence of
 * meaning. The input built from the flags is then checked by the very schema the dispatcher uses.
 */

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
  description?: string;
}

export type FieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'string[]' | 'custom';

/** Reads a custom flag's text into the field's value (or throws `UsageError`). */
export type CustomParser = (text: string) => unknown;

export interface FieldSpec {
  /** Dotted path in the input, e.g. `untilNew.lastN`. */
  path: string;
  /** `--flag` name (kebab-case) or, for a positional, its `<name>`. */
  flag: string;
  positional: boolean;
  kind: FieldKind;
  /** Required whenever the command runs (its parents are required too). */
  required: boolean;
  choices?: string[];
  /** Set when the field belongs to one variant of a discriminated union: picking it picks the variant. */
  variant?: { union: string; discriminator: string; value: string };
  /** The meaning (from the command) and the schema's constraints, for help. */
  help: string;
  /** Placeholder in help: `<n>`, `<usd>`… */
  placeholder: string;
  parse?: CustomParser;
}

export interface FieldOverrides {
  /** Fields taken as positional arguments, in order; the last may be an array (variadic). */
  args?: string[];
  /** Flag names for dotted paths (default: the last segment in kebab-case). */
  rename?: Record<string, string>;
  /** A sentence of meaning per dotted path. */
  describe?: Record<string, string>;
  /** Placeholders per dotted path (`<usd>`). */
  placeholder?: Record<string, string>;
  /** Paths not offered as flags (filled by `fixed` or `generate`, or not for the CLI). */
  hide?: string[];
  /** Values set whatever the flags say. */
  fixed?: Record<string, unknown>;
  /** A union at this path is used in one variant only: discriminator value. */
  variant?: Record<string, string>;
  /** The CLI's own defaults (shown in help); nested ones apply only when their parent is present. */
  defaults?: Record<string, unknown>;
  /** Fields taken whole from one flag's text (e.g. `--limit 1.5GB` for `{amount, unit}`). */
  custom?: Record<string, { parse: CustomParser; help: string; placeholder?: string }>;
}

/**
 * What a field means, by its name, where the command says nothing of its own: every flag of every
 * command has a sentence in its help (checked by a test), and one name reads the same everywhere.
 */
const FIELD_MEANINGS: Record<string, string> = {
  fresh: 'read from the service now instead of what the app holds',
  page: 'the page to show',
  perPage: 'items per page',
  from: 'the first day',
  to: 'the last day',
  country: 'two-letter country code, e.g. US (us works too)',
  countryCode: 'two-letter country code, e.g. US (us works too)',
  carrier: 'a carrier from `catalog carriers`',
  portIds: 'port ids from `ports list`',
  portId: 'a port id from `ports list`',
  subscriptionId: 'a subscription id from `subs list`',
  subUserId: 'a sub-user id from `subs subusers list`',
  productId: 'only subscriptions of this product',
  product: 'only where this product is offered',
  label: 'a name to recognise it by',
  password: 'a password of your choice (printable ASCII); omit for a generated one',
  regeneratePassword: 'give it a new generated password',
  format: 'how each line is written',
  protocol: 'the protocol to use',
  status: 'only top-ups in this status',
  txid: 'the transaction id of your payment',
  kind: 'which simulated payment: exact, short or late',
  state: 'a state from `catalog states`',
  city: 'a city from `catalog cities`',
  asn: 'an ISP’s AS number from `catalog asns`',
  zip: 'a US ZIP code',
  session: 'a sticky session id (the same IP while it lasts)',
  screen: 'the list the first state of a window carries',
};

const kebab = (name: string): string => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

const schemaCache = new Map<CallChannel, JsonSchema>();

export function inputJsonSchema(channel: CallChannel): JsonSchema {
  let schema = schemaCache.get(channel);
  if (!schema) {
    schema = z.toJSONSchema(ipcCalls[channel].input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    schemaCache.set(channel, schema);
  }
  return schema;
}

/** `anyOf: [X, null]` (nullable) as X. */
function withoutNull(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf?.filter((option) => option.type !== 'null');
  if (options && options.length === 1 && options[0]) return { ...schema, ...options[0], anyOf: undefined };
  return schema;
}

function leafKind(schema: JsonSchema): FieldKind | null {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'string' || type === 'integer' || type === 'number' || type === 'boolean') return type;
  if (type === 'array' && schema.items?.type === 'string') return 'string[]';
  if (schema.enum?.every((value) => typeof value === 'string')) return 'string';
  return null;
}

function constraints(schema: JsonSchema, kind: FieldKind): string[] {
  const parts: string[] = [];
  if (schema.enum) parts.push(`one of ${schema.enum.join(', ')}`);
  if (kind === 'integer' || kind === 'number') {
    const safe = (n: number | undefined) => n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER;
    if (safe(schema.minimum) && safe(schema.maximum)) parts.push(`${schema.minimum}-${schema.maximum}`);
    else if (safe(schema.minimum)) parts.push(`at least ${schema.minimum}`);
    else if (safe(schema.maximum)) parts.push(`at most ${schema.maximum}`);
  }
  if (kind === 'string' && !schema.enum) {
    if (schema.format === 'date' || schema.pattern === '^\\d{4}-\\d{2}-\\d{2}$') parts.push('YYYY-MM-DD');
    else if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  }
  if (kind === 'string[]') {
    const items = schema.items ?? {};
    if (items.maxLength !== undefined) parts.push(`each at most ${items.maxLength} characters`);
    if (schema.maxItems !== undefined) parts.push(`at most ${schema.maxItems}`);
  }
  return parts;
}

/** The flags and arguments of `channel`'s input, with the command's overrides. */
export function deriveFields(channel: CallChannel, overrides: FieldOverrides = {}): FieldSpec[] {
  const root = inputJsonSchema(channel);
  if (root.type !== 'object' || !root.properties) return [];
  const fields: FieldSpec[] = [];
  const hidden = new Set([...(overrides.hide ?? []), ...Object.keys(overrides.fixed ?? {})]);
  const args = overrides.args ?? [];
  const defaults = overrides.defaults ?? {};

  const add = (path: string, schema: JsonSchema, required: boolean, variant: FieldSpec['variant']): void => {
    if (hidden.has(path)) return;
    const custom = overrides.custom?.[path];
    const kind: FieldKind | null = custom ? 'custom' : leafKind(schema);
    if (kind === null) return walk(path, schema, required, variant);
    const name = path.split('.').at(-1) ?? path;
    const positional = args.includes(path);
    const flag = overrides.rename?.[path] ?? kebab(name);
    const notes = custom ? [] : constraints(schema, kind);
    const fallback = defaults[path] ?? schema.default;
    if (fallback !== undefined) notes.push(`default ${JSON.stringify(fallback).replace(/^"|"$/g, '')}`);
    const meaning =
      overrides.describe?.[path] ?? custom?.help ?? schema.description ?? FIELD_MEANINGS[name] ?? '';
    const help = [meaning, notes.length > 0 ? `(${notes.join('; ')})` : ''].filter(Boolean).join(' ');
    const placeholder =
      overrides.placeholder?.[path] ??
      custom?.placeholder ??
      (kind === 'integer' || kind === 'number'
        ? 'n'
        : kind === 'string[]'
          ? flag
          : notes.includes('YYYY-MM-DD')
            ? 'date'
            : /Id$/.test(name)
              ? 'id'
              : 'value');
    fields.push({
      path,
      flag,
      positional,
      kind,
      required: required && defaults[path] === undefined && schema.default === undefined,
      ...(schema.enum ? { choices: schema.enum.map(String) } : {}),
      ...(variant ? { variant } : {}),
      help,
      placeholder,
      ...(custom ? { parse: custom.parse } : {}),
    });
  };

  const walk = (prefix: string, raw: JsonSchema, required: boolean, variant: FieldSpec['variant']): void => {
    const schema = withoutNull(raw);
    const union = schema.oneOf ?? schema.anyOf;
    if (union) {
      const chosen = overrides.variant?.[prefix];
      for (const option of union) {
        const discriminator = Object.entries(option.properties ?? {}).find(([, p]) => p.const !== undefined);
        if (!discriminator) continue;
        const [key, property] = discriminator;
        const value = String(property.const);
        if (chosen !== undefined && chosen !== value) continue;
        const own = chosen !== undefined ? variant : { union: prefix, discriminator: key, value };
        walkObject(prefix, option, required && chosen !== undefined, own, key);
      }
      return;
    }
    if (schema.type === 'object' && schema.properties) walkObject(prefix, schema, required, variant);
  };

  const walkObject = (
    prefix: string,
    schema: JsonSchema,
    required: boolean,
    variant: FieldSpec['variant'],
    skip?: string,
  ): void => {
    const requiredKeys = new Set(schema.required ?? []);
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      if (key === skip) continue;
      const path = prefix ? `${prefix}.${key}` : key;
      add(path, property, required && requiredKeys.has(key), variant);
    }
  };

  walkObject('', root, true, undefined);
  // Positionals in the order the command gives.
  const positional = args
    .map((path) => fields.find((field) => field.path === path))
    .filter((field): field is FieldSpec => field !== undefined);
  return [...positional, ...fields.filter((field) => !field.positional)];
}

/** What a parsed command line gave for each field (absent: not given). */
export type GivenValues = Map<string, unknown>;

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (next === undefined || next === null || typeof next !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1) ?? path] = value;
}

function hasPath(target: Record<string, unknown>, path: string): boolean {
  let node: unknown = target;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || !(key in node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

/** A country code's field (`--country us` is `US`: the service's codes are upper case). */
const COUNTRY_FIELD = /(^|\.)(country|countryCode)$/;

function convert(field: FieldSpec, value: unknown): unknown {
  if (field.parse && typeof value === 'string') return field.parse(value);
  if (typeof value !== 'string') return value;
  if (COUNTRY_FIELD.test(field.path)) return value.toUpperCase();
  // A number the schema wants is converted only when it reads as one; otherwise the schema says why.
  if (field.kind === 'integer' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  if (field.kind === 'number' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}

/**
 * The call's input from the values given: each at its path, the variant a union's flags point to,
 * the command's fixed and generated values, then its defaults. Throws `UsageError` when flags of
 * two variants of one union are mixed.
 */
export function buildInput(
  channel: CallChannel,
  fields: readonly FieldSpec[],
  given: GivenValues,
  overrides: FieldOverrides & { generate?: Record<string, () => unknown> } = {},
): unknown {
  const root = inputJsonSchema(channel);
  if (root.type !== 'object') return undefined;
  const input: Record<string, unknown> = {};
  const variants = new Map<string, { value: string; flag: string; discriminator: string }>();
  for (const field of fields) {
    if (!given.has(field.path)) continue;
    const value = convert(field, given.get(field.path));
    if (field.variant) {
      const chosen = variants.get(field.variant.union);
      if (chosen && chosen.value !== field.variant.value) {
        throw new UsageError(`--${chosen.flag} and --${field.flag} cannot be used together`);
      }
      variants.set(field.variant.union, {
        value: field.variant.value,
        flag: field.flag,
        discriminator: field.variant.discriminator,
      });
    }
    setPath(input, field.path, value);
  }
  for (const [union, chosen] of variants) setPath(input, `${union}.${chosen.discriminator}`, chosen.value);
  for (const [path, value] of Object.entries(overrides.fixed ?? {})) setPath(input, path, value);
  for (const [path, make] of Object.entries(overrides.generate ?? {})) setPath(input, path, make());
  for (const [path, value] of Object.entries(overrides.defaults ?? {})) {
    const parent = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '';
    if ((parent === '' || hasPath(input, parent)) && !hasPath(input, path)) setPath(input, path, value);
  }
  return input;
}

/**
 * A field error of the schema, named as the user typed it: `--amount`, `<portId>`. A path inside a
 * field taken whole (a custom flag) is that flag; a union given no flag at all names its flags.
 */
export function describeFieldError(fields: readonly FieldSpec[], error: IpcFieldError): string {
  const label = labelOf(fields, error.field);
  return label ? `${label}: ${error.message}` : error.message;
}

function labelOf(fields: readonly FieldSpec[], path: string): string | null {
  if (path === 'input' || path === '') return null;
  const exact = fields.find((field) => field.path === path);
  const owner =
    exact ??
    [...fields]
      .filter((field) => path.startsWith(`${field.path}.`))
      .sort((a, b) => b.path.length - a.path.length)[0];
  if (owner) return owner.positional ? `<${owner.flag}>` : `--${owner.flag}`;
  const inside = fields.filter((field) => field.path.startsWith(`${path}.`));
  if (inside.length > 0) return inside.map((field) => `--${field.flag}`).join(' or ');
  return path;
}
