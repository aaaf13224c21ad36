import { z } from 'zod';
import { AUTOMATION_CHANNELS, toolNameOf } from '../dispatch/automation-catalog';
import { publicAnswer } from '../dispatch/public-answers';
import {
  type CallChannel,
  type HealthSnapshot,
  type IpcError,
  type IpcResult,
  ipcCalls,
  type Scope,
  type TopUpPlanChoice,
} from '../../src-shared/contract';
import { topUpCreateInput } from '../../src-shared/contract/topups';
import type { Coin } from '../../src-shared/api-types';
import {
  BadCursor,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  type PageRequest,
  shapeAnswer,
} from './agent-answers';
import type { TopUpQuotes } from './topup-quotes';

/** A contract call with this session's grant (the guarded dispatcher enforces it, wherever it runs). */
export type ContractCall = (channel: CallChannel, input: unknown) => Promise<IpcResult<unknown>>;

type JsonSchema = Record<string, unknown>;

interface ToolAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a tool answers: a value for the agent, or the contract's error (a tool error, never a crash). */
export type ToolOutcome = { ok: true; value: unknown } | { ok: false; error: IpcError };

export interface McpTool {
  name: string;
  /** The channel it calls, or the composite's own name, for the audit log. */
  audited: string;
  scope: Scope;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: ToolAnnotations;
  run(args: Record<string, unknown>): Promise<ToolOutcome>;
}

export interface ToolContext {
  call: ContractCall;
  quotes: TopUpQuotes;
}

/** What a session's scope promises an agent about a tool (MCP's annotations). */
function annotationsFor(scope: Scope, name: string): ToolAnnotations {
  const reads = scope === 'read' || scope === 'secrets';
  return {
    readOnlyHint: reads,
    // A rotation gives up the port's IP; a reset, a removal or a delete cannot be undone.
    destructiveHint: scope === 'rotate' || /delete|remove|reset/.test(name),
    idempotentHint: reads,
    // Everything but the local proxies' list talks to the proxy service.
    openWorldHint: true,
  };
}

const SCOPE_NOTE: Record<Scope, string> = {
  read: '',
  rotate: ' Changes the port’s IP.',
  manage: ' Changes the account.',
  spend: ' Spends the account’s money.',
  secrets: ' The answer holds secrets (passwords or links): do not repeat them in chat.',
  admin: '',
};

const toJsonSchema = (schema: z.ZodType): JsonSchema => {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
};

const FULL_PROPERTY = {
  type: 'boolean',
  default: false,
  description: 'Include long text fields (CSV, QR codes) in full; they are left out by default.',
};
const PAGE_PROPERTIES = {
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: PAGE_LIMIT_MAX,
    default: PAGE_LIMIT_DEFAULT,
    description: 'Items per page.',
  },
  cursor: {
    type: 'string',
    maxLength: 100,
    description: 'The previous answer’s nextCursor, for the next page; omit for the first.',
  },
};

/** An object schema with the tool's own properties added (an input-less channel gets an empty object). */
function withProperties(
  base: JsonSchema,
  extra: Record<string, JsonSchema>,
): JsonSchema & { type: 'object' } {
  const object = base.type === 'object' ? base : { properties: {}, additionalProperties: false };
  return {
    ...object,
    type: 'object',
    properties: { ...(object.properties ?? {}), ...extra },
  };
}

const toolOptions = z.object({
  full: z.boolean().optional(),
  limit: z.int().min(1).max(PAGE_LIMIT_MAX).optional(),
  cursor: z.string().max(100).optional(),
});

function invalid(field: string, message: string): ToolOutcome {
  return { ok: false, error: { code: 'invalid_input', message, fields: [{ field, message }] } };
}

/** Splits the tool's own arguments (`full`, `limit`, `cursor`) from the channel's input. */
function splitArguments(
  args: Record<string, unknown>,
  paged: boolean,
): { options: z.output<typeof toolOptions>; rest: Record<string, unknown> } | { error: ToolOutcome } {
  const { full, limit, cursor, ...rest } = args;
  const own = paged ? { full, limit, cursor } : { full };
  const parsed = toolOptions.safeParse(own);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: invalid(String(issue?.path[0] ?? ''), issue?.message ?? 'Invalid argument') };
  }
  // Not a paged tool: `limit` and `cursor` are the channel's to refuse.
  return { options: parsed.data, rest: paged ? rest : { ...rest, ...pick({ limit, cursor }) } };
}

const pick = (values: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));

/** No arguments and a channel that takes none (or whose input is optional): the input is absent. */
function inputOf(channel: CallChannel, rest: Record<string, unknown>): unknown {
  if (Object.keys(rest).length === 0 && ipcCalls[channel].input.safeParse(undefined).success)
    return undefined;
  return rest;
}

function shaped(value: unknown, shape: Parameters<typeof shapeAnswer>[1]): ToolOutcome {
  try {
    return { ok: true, value: shapeAnswer(value, shape) };
  } catch (error) {
    if (error instanceof BadCursor) return invalid('cursor', error.message);
    throw error;
  }
}

function channelTool(entry: (typeof AUTOMATION_CHANNELS)[number], context: ToolContext): McpTool {
  const { channel, scope } = entry;
  const name = toolNameOf(channel);
  const paged = entry.list !== undefined && entry.list.server !== true;
  const inputSchema = withProperties(toJsonSchema(ipcCalls[channel].input), {
    full: FULL_PROPERTY,
    ...(paged ? PAGE_PROPERTIES : {}),
  });
  return {
    name,
    audited: channel,
    scope,
    description: `${entry.description}${SCOPE_NOTE[scope]}${paged ? ' Paged: pass nextCursor as cursor for more.' : ''}`,
    inputSchema,
    annotations: annotationsFor(scope, name),
    run: async (args) => {
      const split = splitArguments(args, paged);
      if ('error' in split) return split.error;
      const result = await context.call(channel, inputOf(channel, split.rest));
      if (!result.ok) return result;
      const page: PageRequest | undefined = paged
        ? { limit: split.options.limit ?? PAGE_LIMIT_DEFAULT, cursor: split.options.cursor ?? null }
        : undefined;
      return shaped(publicAnswer(channel, result.value), {
        ...(entry.list ? { list: entry.list } : {}),
        ...(page ? { page } : {}),
        full: split.options.full === true,
      });
    },
  };
}

function invalidFromZod(error: z.ZodError): ToolOutcome {
  const fields = error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
  return {
    ok: false,
    error: { code: 'invalid_input', message: fields[0]?.message ?? 'Invalid input', fields },
  };
}

const rotateUntilNewInput = z.strictObject({
  portId: z.string().min(1).max(128).describe('The port to rotate (see ports_list).'),
  lastN: z.int().min(1).max(20).default(3).describe('The new IP must not be one of the port’s last N IPs.'),
  maxTries: z.int().min(1).max(10).default(5).describe('Give up after this many rotations.'),
});

/** `rotate_until_new`: one call instead of an agent's loop; a cooldown answers how long to wait. */
function rotateUntilNewTool(context: ToolContext): McpTool {
  return {
    name: 'rotate_until_new',
    audited: 'rotate_until_new',
    scope: 'rotate',
    description:
      'Rotate a mobile port until its IP is not one of its last N IPs (up to maxTries rotations, 30 s apart as the service requires). Answers {status: "rotated", receipt} with the new IP, or {status: "wait", wait_seconds} when the port is in its cooldown: call again after that many seconds.',
    inputSchema: withProperties(toJsonSchema(rotateUntilNewInput), {}),
    annotations: annotationsFor('rotate', 'rotate_until_new'),
    run: async (args) => {
      const parsed = rotateUntilNewInput.safeParse(args);
      if (!parsed.success) return invalidFromZod(parsed.error);
      const { portId, lastN, maxTries } = parsed.data;
      const result = await context.call('ports:rotate', { portId, untilNew: { lastN, maxTries } });
      if (result.ok) return { ok: true, value: { status: 'rotated', receipt: result.value } };
      if (result.error.retryAfterMs !== undefined) {
        return {
          ok: true,
          value: {
            status: 'wait',
            wait_seconds: Math.max(1, Math.ceil(result.error.retryAfterMs / 1000)),
            message: result.error.message,
          },
        };
      }
      return result;
    },
  };
}

const healthInput = z.strictObject({
  refresh: z.boolean().optional().describe('Read ports, subscriptions and open top-ups again first.'),
});

/** `health_snapshot`: the overview's items (only what needs attention), without the screen's parts. */
function healthSnapshotTool(context: ToolContext): McpTool {
  return {
    name: 'health_snapshot',
    audited: 'overview:get',
    scope: 'read',
    description:
      'What needs attention now, most urgent first: ports and subscriptions expiring or running out of traffic, failing proxy tests, failed schedule runs, top-ups waiting for payment. An empty list with allGood true means nothing needs attention. Paged: pass nextCursor as cursor for more.',
    inputSchema: withProperties(toJsonSchema(healthInput), PAGE_PROPERTIES),
    annotations: annotationsFor('read', 'health_snapshot'),
    run: async (args) => {
      const { limit, cursor, ...rest } = args;
      const options = toolOptions.safeParse({ limit, cursor });
      if (!options.success) return invalidFromZod(options.error);
      const parsed = healthInput.safeParse(rest);
      if (!parsed.success) return invalidFromZod(parsed.error);
      const result = await context.call('overview:get', parsed.data.refresh ? { refresh: true } : undefined);
      if (!result.ok) return result;
      const snapshot = result.value as HealthSnapshot;
      const failed = Object.entries(snapshot.sources).flatMap(([source, state]) =>
        state.state === 'failed' ? [{ source, message: state.message }] : [],
      );
      return shaped(
        {
          generatedAt: snapshot.generatedAt,
          allGood: snapshot.allGood,
          counts: snapshot.counts,
          ...(failed.length > 0 ? { unreadSources: failed } : {}),
          // `info` items (a port that renews itself) are only worth knowing: not for an agent to act on.
          items: snapshot.items
            .filter((item) => item.level !== 'info')
            .map((item) => ({
              kind: item.kind,
              level: item.level,
              title: item.title,
              detail: item.detail,
              subject: item.subject,
              dueAt: item.dueAt,
            })),
        },
        {
          list: { path: 'items' },
          page: { limit: options.data.limit ?? PAGE_LIMIT_DEFAULT, cursor: options.data.cursor ?? null },
          full: false,
        },
      );
    },
  };
}

const quoteInput = topUpCreateInput.omit({ attemptId: true });
const confirmInput = z.strictObject({
  confirmationToken: z.string().min(1).max(100).describe('The token topups_create answered with the quote.'),
});

/** What a quote says the top-up buys, from the account's own plans when it can read them. */
async function describePurchase(
  context: ToolContext,
  purchase: z.output<typeof quoteInput>['purchase'],
): Promise<unknown> {
  if (!purchase) return { kind: 'balance', text: 'Balance credit only (no purchase).' };
  const plans = await context.call('topups:plans', undefined);
  const plan = plans.ok
    ? (plans.value as TopUpPlanChoice[]).find((choice) => choice.planId === purchase.planId)
    : undefined;
  return {
    kind: 'purchase',
    planId: purchase.planId,
    plan: plan?.label ?? null,
    quantity: purchase.quantity,
    promoCode: purchase.promoCode ?? null,
    text: `${purchase.quantity} × ${plan?.label ?? purchase.planId}, ordered from the balance once the top-up is credited.`,
  };
}

/** `topups_create`: a quote and a confirmation token; nothing is created. */
function topUpQuoteTool(context: ToolContext): McpTool {
  return {
    name: 'topups_create',
    audited: 'topups_create',
    scope: 'spend',
    description:
      'Step 1 of a crypto top-up: answers a quote (USD amount, coin, network, deposit address, what it buys) and a confirmationToken valid for 5 minutes. Nothing is created yet: show the quote to the user, then call topups_confirm with the token. The exact crypto amount is fixed by the service when the top-up is created (its rate is then locked for 30 minutes): topups_confirm answers it.',
    inputSchema: withProperties(toJsonSchema(quoteInput), {}),
    annotations: { ...annotationsFor('spend', 'topups_create'), readOnlyHint: true, idempotentHint: true },
    run: async (args) => {
      const parsed = quoteInput.safeParse(args);
      if (!parsed.success) return invalidFromZod(parsed.error);
      const input = parsed.data;
      const coins = await context.call('catalog:coins', undefined);
      let network: Coin['networks'][number] | undefined;
      if (coins.ok) {
        const coin = (coins.value as Coin[]).find((c) => c.code === input.coin);
        network = coin?.networks.find((n) => n.id === input.network);
        if (!network) {
          const pairs = (coins.value as Coin[]).flatMap((c) => c.networks.map((n) => `${c.code}/${n.id}`));
          return invalid(
            'network',
            `Not a coin and network the service accepts (accepted: ${pairs.join(', ')}).`,
          );
        }
      }
      const buys = await describePurchase(context, input.purchase);
      const { token, expiresAt } = context.quotes.issue(input);
      return {
        ok: true,
        value: {
          quote: {
            amountUsd: input.amountUsd,
            coin: input.coin,
            network: input.network,
            networkName: network?.name ?? null,
            depositAddress: network?.address ?? null,
            confirmationsRequired: network?.confirmationsRequired ?? null,
            buys,
            amountCrypto: null,
            amountCryptoNote:
              'The exact amount to send is set by the service when the top-up is created (rate locked 30 minutes, a unique offset in the last digits): topups_confirm answers it.',
          },
          confirmationToken: token,
          expiresAt: new Date(expiresAt).toISOString(),
        },
      };
    },
  };
}

/** `topups_confirm`: creates the quoted top-up, once (the quote's attempt id is its Idempotency-Key). */
function topUpConfirmTool(context: ToolContext): McpTool {
  return {
    name: 'topups_confirm',
    audited: 'topups:create',
    scope: 'spend',
    description:
      'Step 2 of a crypto top-up: creates the top-up quoted by topups_create (only with its confirmationToken, within 5 minutes). Answers the top-up with the deposit address and the exact crypto amount to send. Calling it again with the same token answers the same top-up; it never creates a second.',
    inputSchema: withProperties(toJsonSchema(confirmInput), {}),
    annotations: { ...annotationsFor('spend', 'topups_confirm'), idempotentHint: true },
    run: async (args) => {
      const parsed = confirmInput.safeParse(args);
      if (!parsed.success) return invalidFromZod(parsed.error);
      const quote = context.quotes.redeem(parsed.data.confirmationToken);
      if ('problem' in quote) {
        return { ok: false, error: { code: 'confirmation_invalid', message: quote.problem } };
      }
      const result = await context.call('topups:create', quote.input);
      return result.ok ? { ok: true, value: shapeAnswer(result.value, { full: false }) } : result;
    },
  };
}

/**
 * The tools of a grant: one per offered channel whose scope the grant holds (`topups:create` is the
 * quote and confirm pair instead), and the composites. A tool outside the grant is not listed.
 */
export function buildTools(grant: ReadonlySet<Scope>, context: ToolContext): McpTool[] {
  const tools = AUTOMATION_CHANNELS.filter(
    (entry) => entry.channel !== 'topups:create' && entry.channel !== 'overview:get',
  ).map((entry) => channelTool(entry, context));
  tools.push(
    rotateUntilNewTool(context),
    healthSnapshotTool(context),
    topUpQuoteTool(context),
    topUpConfirmTool(context),
  );
  return tools.filter((tool) => grant.has(tool.scope));
}
