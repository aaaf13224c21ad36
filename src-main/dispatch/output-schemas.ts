import { z } from 'zod';
import {
  asnListSchema,
  carrierListSchema,
  cityListSchema,
  coinListSchema,
  countryListSchema,
  stateListSchema,
  subscriptionSchema,
  topUpPageSchema,
  topUpSchema,
  usageReportSchema,
} from '../../src-shared/api-types';
import { type CallChannel, SECRET_FIELDS } from '../../src-shared/contract';
import { VIEW_ANSWERS } from './answer-schemas';
import { publicSchemaOf } from './public-answers';

type JsonSchema = Record<string, unknown>;

/**
 * What the automation surfaces send for a channel, as JSON Schema: the reshaped lists
 * (`public-answers.ts`), the answers that are the service's own objects (from the same zod schemas
 * the API client checks them with), and the contract's view types (`answer-schemas.ts`, checked at
 * compile time against their TypeScript types).
 */
const SERVICE_ANSWERS: Partial<Record<CallChannel, z.ZodType>> = {
  'subscriptions:list': z.array(subscriptionSchema),
  'subscriptions:get': subscriptionSchema,
  'subscriptions:update': subscriptionSchema,
  'subscriptions:usage': usageReportSchema,
  'ports:usage': usageReportSchema,
  'topups:list': topUpPageSchema,
  'topups:get': topUpSchema,
  'topups:create': topUpSchema,
  'topups:declareTxid': topUpSchema,
  'topups:simulatePayment': topUpSchema,
  'catalog:countries': countryListSchema.shape.data,
  'catalog:states': stateListSchema.shape.data,
  'catalog:cities': cityListSchema.shape.data,
  'catalog:asns': asnListSchema.shape.data,
  'catalog:carriers': carrierListSchema.shape.data,
  'catalog:coins': coinListSchema.shape.data,
};

/** A secret is `null` for a session without the `secrets` scope (the dispatcher blanks it). */
function secretsMayBeNull(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(secretsMayBeNull);
  if (schema === null || typeof schema !== 'object') return schema;
  const record = schema as JsonSchema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'properties' && value !== null && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as JsonSchema).map(([name, property]) => [
          name,
          (SECRET_FIELDS as readonly string[]).includes(name)
            ? { anyOf: [secretsMayBeNull(property), { type: 'null' }] }
            : secretsMayBeNull(property),
        ]),
      );
    } else out[key] = secretsMayBeNull(value);
  }
  return out;
}

/**
 * Members the service defines and the app passes on as they are, whose shape the service's spec
 * does not show (a top-up's `rejection`, a plan's `options`): said so (`x-free-form`) rather than
 * left as a schema that looks like an oversight.
 */
const FREE_FORM_MEMBERS: Readonly<Record<string, string>> = {
  rejection:
    'Why the service rejected it, as the service gives it (an object with reason/message, or text); null when not rejected.',
  options: 'The plan’s options, as the service defines them (a JSON object).',
};

function markFreeForm(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(markFreeForm);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (key === 'properties' && value !== null && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as JsonSchema).map(([name, property]) => {
          const said = FREE_FORM_MEMBERS[name];
          return [
            name,
            said
              ? { ...(property as JsonSchema), description: said, 'x-free-form': true }
              : markFreeForm(property),
          ];
        }),
      );
    } else out[key] = markFreeForm(value);
  }
  return out;
}

/** An answer's zod schema as the JSON Schema the surfaces publish (secrets nullable, free-form said). */
export function answerJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return markFreeForm(secretsMayBeNull(json)) as JsonSchema;
}

/** The zod schema of a channel's answer, where the contract's value is sent as it is. */
function answerZodOf(channel: CallChannel): z.ZodType | null {
  return (
    SERVICE_ANSWERS[channel] ?? (VIEW_ANSWERS as Partial<Record<CallChannel, z.ZodType>>)[channel] ?? null
  );
}

/**
 * The JSON Schema of what a channel's route or tool answers. Every channel the automation surfaces
 * offer has one: a route or a tool whose answer no schema describes is refused when it is built.
 */
export function answerSchemaOf(channel: CallChannel): JsonSchema {
  const reshaped = publicSchemaOf(channel);
  if (reshaped) return reshaped;
  const answer = answerZodOf(channel);
  if (!answer) throw new Error(`${channel} has no answer schema (src-main/dispatch/output-schemas.ts).`);
  return answerJsonSchema(answer);
}
