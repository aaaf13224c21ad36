import { z } from 'zod';
import { type CallChannel, ipcCalls } from '../../src-shared/contract';

/**
 * The MCP tools' JSON Schemas, from the contract's zod schemas but written for an agent's context
 * window: every property described (from `DESCRIPTIONS`, one sentence per name, so one concept reads
 * the same in every tool), a country is `countryCode` everywhere, and what only bloats the list
 * (IPv6 regular expressions beside `format`, integer bounds of ±2^53, nested `additionalProperties`)
 * is left out: the guarded dispatcher checks the input with the full schema anyway.
 */

export type JsonSchema = Record<string, unknown>;

/** One sentence per property name, whatever tool it is in. */
const DESCRIPTIONS: Record<string, string> = {
  portId: 'Port id (ports_list).',
  portIds: 'Port ids (ports_list).',
  subscriptionId: 'Subscription id (subscriptions_list).',
  subUserId: 'Sub-user id (sub_users_list).',
  topUpId: 'Top-up id (topups_read).',
  label: 'A name for it.',
  labelPrefix: 'Labels are this prefix and a number.',
  count: 'How many.',
  autoRenew: 'Renew from the balance at expiry.',
  rotation: '{mode: "manual"} or {mode: "interval", intervalMinutes}.',
  mode: 'manual or interval.',
  intervalMinutes: 'Minutes between rotations.',
  countryCode: 'Two-letter code, e.g. US.',
  carrier: 'Carrier (catalog carriers).',
  city: 'City (catalog cities).',
  state: 'State (catalog states).',
  asn: 'ISP AS number (catalog asns).',
  zip: 'US ZIP code.',
  from: 'First day, YYYY-MM-DD.',
  to: 'Last day, YYYY-MM-DD.',
  page: 'Page, from 1.',
  perPage: 'Items per page.',
  status: 'Only this status.',
  productId: 'residential or mobile-gb.',
  password: 'Printable ASCII; omit to generate.',
  regeneratePassword: 'Give it a new generated password.',
  enabled: 'Credentials work.',
  trafficLimit: '{amount: "1.5", unit: "MB"|"GB"}, or null: no cap.',
  amount: 'Decimal, e.g. 1.5.',
  unit: 'MB or GB.',
  targeting: 'Exit: {countryCode?, state?, city?, asn?, zip?, session?} (catalog values).',
  session: 'Sticky session id (same IP).',
  sessionPrefix: 'Session ids: this prefix and a number.',
  lifetimeMinutes: 'Sticky session lifetime, minutes.',
  format: 'Line format, e.g. http_url.',
  protocol: 'http or socks5.',
  targets:
    'Up to 200: {kind: "port", portId, protocol?: http|socks5} or {kind: "subscription", subscriptionId, subUserId?, targeting?, protocol}.',
  target: 'What to test.',
  kind: 'port or subscription.',
  timeoutMs: 'Timeout, ms.',
  url: 'URL to request (default: an IP echo).',
  upstream: '{kind: "port", portId} or {kind: "subscription", subscriptionId, subUserId?, targeting?}.',
  listenPort: 'Local port (default: first free from 24000).',
  bindAddress: 'Listen address (default 127.0.0.1).',
  allowNetwork: 'Allow a non-loopback address (needs auth).',
  auth: 'Local login {username, password (8+ chars)}; null: none.',
  username: 'User name.',
  closeOnRotation: 'Close connections on rotation.',
  start: 'Start at once.',
  cadence: '{kind: "every", seconds ≥ 30} or {kind: "cron", expression, timezone?}.',
  seconds: 'Interval, seconds (≥ 30).',
  expression: 'Cron expression.',
  timezone: 'IANA zone (default UTC).',
  jitterSeconds: 'Random delay up to this, seconds.',
  offsetSeconds: 'Delay after the slot, seconds.',
  staggerSeconds: 'Port i runs i × this after the slot.',
  amountUsd: 'USD, two decimals, e.g. 25.00.',
  coin: 'Coin (catalog coins), e.g. USDT.',
  network: "The coin's network, e.g. tron.",
  purchase: 'Buy once credited: {planId, quantity, promoCode?}.',
  planId: 'A plan the account uses.',
  quantity: 'How many.',
  options: 'Plan options.',
  promoCode: 'Promotion code.',
  txid: 'Transaction id (optional).',
  product: 'residential, mobile or mobile-gb.',
  mobileOnly: 'Only cities with mobile modems.',
  untilNew: '{lastN: 3, maxTries: 5}: rotate until the IP is none of the last lastN.',
};

/**
 * Left out: lengths and patterns (the descriptions say the format, and the dispatcher's own schema
 * answers a precise field error), and bounds no input reaches.
 */
/**
 * Nested shapes said in their description instead of as schemas (`{kind: port, portId} or …`): the
 * same shape in three tools would cost more of the context window than all the rest of them.
 */
const COLLAPSED: Record<string, JsonSchema> = {
  targeting: { type: 'object' },
  upstream: { type: 'object' },
  cadence: { type: 'object' },
  rotation: { type: 'object' },
  purchase: { type: 'object' },
  trafficLimit: { type: ['object', 'null'] },
  auth: { type: ['object', 'null'] },
  targets: { type: 'array', items: { type: 'object' } },
  bindAddress: { type: 'string' },
  untilNew: { type: 'object' },
};

/**
 * The schema with a country named `countryCode`: the tools' one name for it, in what they take and
 * in what they answer (the contract and the service say `country`).
 */
export function withCountryCode<S extends JsonSchema>(schema: S): S {
  return renamedMember(schema, 'country', 'countryCode') as S;
}

function renamedMember(schema: unknown, from: string, to: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => renamedMember(item, from, to));
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema as JsonSchema).map(([key, value]) => {
      if (key === 'properties' && value !== null && typeof value === 'object') {
        return [
          key,
          Object.fromEntries(
            Object.entries(value as JsonSchema).map(([name, member]) => [
              name === from ? to : name,
              renamedMember(member, from, to),
            ]),
          ),
        ];
      }
      if (key === 'required' && Array.isArray(value)) {
        return [key, (value as unknown[]).map((name) => (name === from ? to : name))];
      }
      return [key, renamedMember(value, from, to)];
    }),
  );
}

/** A `minimum` or `maximum` of ±2^53: zod's bound of any integer, which no value reaches. */
export const isUnreachableBound = (key: string, value: unknown): boolean =>
  (key === 'minimum' || key === 'maximum') && Math.abs(Number(value)) >= Number.MAX_SAFE_INTEGER;

const DROPPED = new Set(['$schema', 'pattern', 'minLength', 'maxLength', 'minItems']);

function compact(schema: unknown, depth: number): unknown {
  if (Array.isArray(schema)) return schema.map((item) => compact(item, depth));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (DROPPED.has(key)) continue;
    if (isUnreachableBound(key, value)) continue;
    if (key === 'additionalProperties' && depth > 0) continue;
    if (key === 'properties' && value !== null && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as JsonSchema).map(([name, property]) => {
          const collapsed = COLLAPSED[name];
          if (collapsed) return [name, { ...collapsed, description: DESCRIPTIONS[name] }];
          const inner = compact(property, depth + 1) as JsonSchema;
          const description = inner.description ?? DESCRIPTIONS[name];
          return [name, description === undefined ? inner : { ...inner, description }];
        }),
      );
      continue;
    }
    out[key] = compact(value, depth);
  }
  return out;
}

/** A channel's input as a tool's input schema (an object; `omit` leaves members out). */
export function toolSchema(
  channel: CallChannel,
  options: { omit?: readonly string[] } = {},
): JsonSchema & { type: 'object' } {
  const json = z.toJSONSchema(ipcCalls[channel].input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const object = json.type === 'object' ? json : { properties: {} };
  const compacted = compact(withCountryCode(object), 0) as JsonSchema;
  const properties = { ...(compacted.properties as JsonSchema | undefined) };
  for (const name of options.omit ?? []) delete properties[name];
  const required = ((compacted.required as string[] | undefined) ?? []).filter(
    (name) => !(options.omit ?? []).includes(name),
  );
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}
