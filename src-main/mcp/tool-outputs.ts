import { z } from 'zod';
import { ipcErrorSchema, VIEW_ANSWERS } from '../dispatch/answer-schemas';
import { answerJsonSchema, answerSchemaOf } from '../dispatch/output-schemas';
import type { CallChannel } from '../../src-shared/contract';
import { isUnreachableBound, type JsonSchema, withCountryCode } from './tool-schemas';

/**
 * The MCP tools' output schemas: exactly what each tool sends as structured content, built from the
 * same schemas as the OpenAPI document (`answerSchemaOf`, checked at compile time against the
 * contract's types) and from the zod schemas below for the shapes only the tools send. A client
 * validates every answer against them (Claude Code and the SDK's client refuse one that does not
 * match), so they are exact rather than loose, and tests/mcp/ checks every tool's answers against them
 * with no undeclared member allowed.
 *
 * They do not count against the 20,000-character budget of what an agent reads: clients pass a
 * tool's name, description and input schema to the model, not its output schema (see docs/automation.md).
 */

export type ObjectSchema = JsonSchema & { type: 'object' };

/** An answer as structured content carries it (always an object: an array is `{items}`). */
export function asToolObject(schema: JsonSchema): ObjectSchema {
  if (schema.type === 'array') return objectOf({ items: schema });
  if (schema.type !== 'object') throw new Error('A tool answer must be an object or an array.');
  return schema as ObjectSchema;
}

/** An object with these members, all sent unless named optional, and no other. */
export function objectOf(
  properties: Record<string, JsonSchema>,
  optional: readonly string[] = [],
): ObjectSchema {
  const required = Object.keys(properties).filter((name) => !optional.includes(name));
  return { type: 'object', properties, required, additionalProperties: false };
}

/** One of several objects (an action tool's answers); MCP wants `type: object` at the root. */
export function eitherOf(...choices: JsonSchema[]): ObjectSchema {
  return { type: 'object', anyOf: choices };
}

/** The items of a channel's list answer. */
export function itemsOf(channel: CallChannel): JsonSchema {
  const answer = answerSchemaOf(channel);
  if (answer.type !== 'array') throw new Error(`${channel} does not answer a list.`);
  return answer.items as JsonSchema;
}

/**
 * An item that a concise answer cuts to `fields`: every member described, only those sure to be
 * there (a detailed answer sends the rest).
 */
export function conciseOrWhole(item: JsonSchema, fields: readonly string[]): JsonSchema {
  if (Array.isArray(item.anyOf)) {
    return { ...item, anyOf: (item.anyOf as JsonSchema[]).map((choice) => conciseOrWhole(choice, fields)) };
  }
  return {
    ...item,
    required: ((item.required as string[] | undefined) ?? []).filter((name) => fields.includes(name)),
  };
}

/** A paged list tool's answer: `items` (one of these item shapes), `total`, `nextCursor`. */
export function pageOf(items: JsonSchema, extra: Record<string, JsonSchema> = {}): ObjectSchema {
  return objectOf({
    ...extra,
    items: { type: 'array', items },
    total: { type: 'integer' },
    nextCursor: { type: ['string', 'null'] },
  });
}

/** A zod schema of a shape only the tools send, as published. */
export const toolShape = (schema: z.ZodType): ObjectSchema => asToolObject(answerJsonSchema(schema));

// The shapes only the tools send ---------------------------------------------------------------------

/** One port's outcome in `ports_rotate`. */
export const rotateResultSchema = z.discriminatedUnion('status', [
  z.strictObject({
    portId: z.string(),
    status: z.literal('rotated'),
    receipt: VIEW_ANSWERS['ports:rotate'],
  }),
  z.strictObject({
    portId: z.string(),
    status: z.literal('wait'),
    waitSeconds: z.number(),
    message: z.string(),
  }),
  z.strictObject({ portId: z.string(), status: z.literal('failed'), error: ipcErrorSchema }),
]);
export type RotateResult = z.output<typeof rotateResultSchema>;

/** What `topups_quote` says a top-up buys. */
const quoteBuysSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('balance'), text: z.string() }),
  z.strictObject({
    kind: z.literal('purchase'),
    planId: z.string(),
    plan: z.string().nullable(),
    quantity: z.number(),
    promoCode: z.string().nullable(),
    text: z.string(),
  }),
]);

/** `topups_quote`'s answer: what would be created, and the token that creates it. */
export const topUpQuoteSchema = z.strictObject({
  quote: z.strictObject({
    amountUsd: z.string(),
    coin: z.string(),
    network: z.string(),
    networkName: z.string().nullable(),
    depositAddress: z.string().nullable(),
    confirmationsRequired: z.number().nullable(),
    buys: quoteBuysSchema,
    amountCrypto: z.null(),
    amountCryptoNote: z.string(),
  }),
  confirmationToken: z.string(),
  expiresAt: z.string(),
});
export type TopUpQuote = z.output<typeof topUpQuoteSchema>;

/** Members that say something to a reader and nothing to a validator. */
const NOT_PUBLISHED = new Set(['description', 'x-free-form', 'default']);

/**
 * The schema as `tools/list` sends it, with what only lengthens it left out: descriptions (the tool's
 * description says what its answer means, and the OpenAPI document describes every field), defaults
 * (an answer has every member), the date-time regular expression beside `format: date-time`, integer
 * bounds of ±2^53, and `additionalProperties: {}` (the default). Every type, enum, `required` and
 * closed object stays, so a client validates exactly what it would have. A country is `countryCode`,
 * as the tools answer it.
 */
export function published(schema: ObjectSchema): ObjectSchema {
  return strip(withCountryCode(schema)) as ObjectSchema;
}

const isEmptyObject = (value: unknown): boolean =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;

function strip(schema: unknown): unknown {
  if (Array.isArray(schema)) return (schema as unknown[]).map(strip);
  if (schema === null || typeof schema !== 'object') return schema;
  const record = schema as JsonSchema;
  const kept = Object.entries(record).filter(([key, value]) => {
    if (NOT_PUBLISHED.has(key)) return false;
    if (key === 'pattern' && record.format === 'date-time') return false;
    if (isUnreachableBound(key, value)) return false;
    if ((key === 'additionalProperties' || key === 'propertyNames') && isEmptyObject(value)) return false;
    if (key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') return false;
    return true;
  });
  return Object.fromEntries(
    kept.map(([key, value]) => [key, key === 'properties' ? stripProperties(value) : strip(value)]),
  );
}

/** A `properties` map: its keys are names (a member may be called `description`), not keywords. */
function stripProperties(properties: unknown): unknown {
  if (properties === null || typeof properties !== 'object') return properties;
  return Object.fromEntries(
    Object.entries(properties as JsonSchema).map(([name, member]) => [name, strip(member)]),
  );
}
