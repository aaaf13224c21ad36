import { z } from 'zod';
import { publicAnswer } from '../dispatch/public-answers';
import {
  type CallChannel,
  type IpcError,
  type HealthSnapshot,
  type IpcResult,
  ipcCalls,
  type PortHealth,
  type ProxyTestResult,
  type RotationReceipt,
  type Scope,
  type TopUpPlanChoice,
} from '../../src-shared/contract';
import { topUpCreateInput } from '../../src-shared/contract/topups';
import { UNTIL_UNIQUE_MAX_TRIES } from '../../src-shared/contract/ports';
import type { Coin } from '../../src-shared/api-types';
import { AnswerTooLarge, BadCursor, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, shapeAnswer } from './agent-answers';
import { type JsonSchema, toolSchema } from './tool-schemas';
import {
  asToolObject,
  conciseOrWhole,
  eitherOf,
  itemsOf,
  type ObjectSchema,
  objectOf,
  pageOf,
  published,
  type RotateResult,
  rotateResultSchema,
  type TopUpQuote,
  topUpQuoteSchema,
  toolShape,
} from './tool-outputs';
import { answerJsonSchema, answerSchemaOf } from '../dispatch/output-schemas';
import { VIEW_ANSWERS } from '../dispatch/answer-schemas';
import type { TopUpQuotes } from './topup-quotes';

/**
 * The MCP server's tools: a small set designed for agents (Anthropic's "Writing effective tools for
 * agents"; the GitHub MCP server's toolsets), not one tool per contract channel. Near-duplicates are
 * one tool (one rotate tool for one or many ports, one proxy test tool, one local-proxy tool with an
 * action, one top-up reader), every property is described, `countryCode` names a country everywhere,
 * lists take `response_format`, and each tool says what it changes in a line derived from its scope.
 */

/** A contract call with this session's grant (the guarded dispatcher enforces it, wherever it runs). */
export type ContractCall = (channel: CallChannel, input: unknown) => Promise<IpcResult<unknown>>;

/** The groups `--toolsets` chooses from. */
export const TOOLSETS = [
  'ports',
  'subscriptions',
  'topups',
  'catalog',
  'local_proxies',
  'schedules',
  'tests',
  'health',
] as const;
export type Toolset = (typeof TOOLSETS)[number];

/**
 * MCP's hints, only where they differ from the defaults (not read-only, destructive, open world).
 * `idempotentHint` only where a tool changes something: MCP defines it for tools that are not
 * read-only, so it would only lengthen `tools/list` on a read tool.
 */
interface ToolAnnotations {
  readOnlyHint?: true;
  destructiveHint?: false;
  idempotentHint?: true;
}

/** What a tool answers: a value for the agent, or the contract's error (a tool error, never a crash). */
export type ToolOutcome = { ok: true; value: unknown } | { ok: false; error: IpcError };

export interface McpTool {
  name: string;
  toolset: Toolset;
  /** The channel it calls, or the tool's own name, for the audit log. */
  audited: string;
  scope: Scope;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  /** Exactly what the tool sends as structured content (tool-outputs.ts). */
  outputSchema: ObjectSchema;
  annotations: ToolAnnotations;
  run(args: Record<string, unknown>): Promise<ToolOutcome>;
}

export interface ToolContext {
  call: ContractCall;
  quotes: TopUpQuotes;
}

/**
 * What a tool of each scope may change: the last sentence of its description, the same for every
 * tool of the scope (so it cannot say something of one tool that is false of another).
 */
export const SIDE_EFFECTS: Record<Scope, string> = {
  read: 'Read only: changes nothing.',
  rotate: 'Changes IPs or sends traffic through the account’s proxies; spends no money.',
  manage: 'Changes the account’s settings or resources; spends no money.',
  spend: 'Part of paying for a top-up (quote, create, declare); moves no money by itself.',
  secrets: 'The answer holds secrets (passwords or links): never repeat them in chat.',
  admin: 'Changes the app’s own settings.',
};

/** Read-only tools: what `--read-only` keeps. */
const isReadOnlyScope = (scope: Scope): boolean => scope === 'read' || scope === 'secrets';

function invalid(field: string, message: string): ToolOutcome {
  return { ok: false, error: { code: 'invalid_input', message, fields: [{ field, message }] } };
}

const RESPONSE_FORMAT = z.enum(['concise', 'detailed']);
const pageArguments = z.object({
  limit: z.int().min(1).max(PAGE_LIMIT_MAX).optional(),
  cursor: z.string().max(100).optional(),
  response_format: RESPONSE_FORMAT.optional(),
});

/** A member renamed at any depth (a value's keys, not its strings). */
function renamedKey(value: unknown, from: string, to: string): unknown {
  if (Array.isArray(value)) return value.map((item) => renamedKey(item, from, to));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [key === from ? to : key, renamedKey(member, from, to)]),
  );
}

/** `countryCode` (the tools' one name for a country) back to the contract's `country`. */
const countryForContract = (args: unknown): unknown => renamedKey(args, 'countryCode', 'country');

/** An answer in the tools' words: a country is `countryCode` there too, as in every input. */
const countryCodeForAgent = (answer: unknown): unknown => renamedKey(answer, 'country', 'countryCode');

/**
 * Only the members a channel's input declares (its schemas are strict), a country named as the
 * channel names it: `countryCode` where it does (the catalog's), `country` at any depth elsewhere.
 */
function inputFor(channel: CallChannel, args: Record<string, unknown>): unknown {
  const declared = z.toJSONSchema(ipcCalls[channel].input, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
  };
  const names = new Set(Object.keys(declared.properties ?? {}));
  const source = (names.has('countryCode') ? args : countryForContract(args)) as Record<string, unknown>;
  const picked = Object.fromEntries(Object.entries(source).filter(([key]) => names.has(key)));
  if (Object.keys(picked).length === 0 && ipcCalls[channel].input.safeParse(undefined).success)
    return undefined;
  return picked;
}

/** An answer as an object (MCP's structured content is one): an array becomes `{items}`. */
function asObject(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) return { items: value };
  if (value === null || typeof value !== 'object') return { value };
  return value as Record<string, unknown>;
}

function shaped(value: unknown, shape: Parameters<typeof shapeAnswer>[1]): ToolOutcome {
  try {
    return { ok: true, value: asObject(shapeAnswer(value, shape)) };
  } catch (error) {
    if (error instanceof BadCursor) return invalid('cursor', error.message);
    if (error instanceof AnswerTooLarge) {
      return { ok: false, error: { code: 'answer_too_large', message: error.message } };
    }
    throw error;
  }
}

interface ToolSpec {
  name: string;
  toolset: Toolset;
  scope: Scope;
  summary: string;
  /** The input's properties (described by `toolSchema`); `required` names the required ones. */
  input: JsonSchema & { type: 'object' };
  output: ObjectSchema;
  audited: string;
  /** A removal or reset: cannot be undone (a rotation always counts as one). */
  destructive?: boolean;
  run(args: Record<string, unknown>): Promise<ToolOutcome>;
}

function tool(spec: ToolSpec): McpTool {
  const readOnly = isReadOnlyScope(spec.scope);
  const known = new Set(Object.keys(spec.input.properties as Record<string, unknown>));
  return {
    name: spec.name,
    toolset: spec.toolset,
    audited: spec.audited,
    scope: spec.scope,
    description: `${spec.summary} ${SIDE_EFFECTS[spec.scope]}`,
    inputSchema: spec.input,
    outputSchema: published(spec.output),
    annotations: readOnly
      ? { readOnlyHint: true }
      : spec.scope === 'rotate' || spec.destructive === true
        ? {}
        : { destructiveHint: false },
    run: (args) => {
      const unknown = Object.keys(args).filter((key) => !known.has(key));
      if (unknown.length > 0) {
        return Promise.resolve(
          invalid(
            unknown[0] ?? '',
            `${spec.name} takes no argument "${unknown[0]}" (its arguments: ${[...known].join(', ')}).`,
          ),
        );
      }
      return spec
        .run(args)
        .then((outcome) => (outcome.ok ? { ok: true, value: countryCodeForAgent(outcome.value) } : outcome));
    },
  };
}

interface ListPlan {
  channel: CallChannel;
  /** Where the answer keeps its list (`''`: it is one). */
  path: string;
  /** The fields a concise answer keeps of each item. */
  concise: readonly string[];
}

/** A list channel's answer (its public shape), paged, concise unless asked for details. */
async function listRun(
  context: ToolContext,
  plan: ListPlan,
  args: Record<string, unknown>,
): Promise<ToolOutcome> {
  const { limit, cursor, response_format: format, ...rest } = args;
  const own = pageArguments.safeParse({ limit, cursor, response_format: format });
  if (!own.success) {
    const issue = own.error.issues[0];
    return invalid(String(issue?.path[0] ?? ''), issue?.message ?? 'Invalid argument');
  }
  const result = await context.call(plan.channel, inputFor(plan.channel, rest));
  if (!result.ok) return result;
  let value = publicAnswer(plan.channel, result.value);
  if (own.data.response_format !== 'detailed') value = conciseList(value, plan.path, plan.concise);
  return shaped(value, {
    list: { path: plan.path },
    page: { limit: own.data.limit ?? PAGE_LIMIT_DEFAULT, cursor: own.data.cursor ?? null },
    full: false,
  });
}

/** A list tool: one list channel, paged, with `response_format`. */
function listTool(
  context: ToolContext,
  spec: Omit<ToolSpec, 'run' | 'output' | 'audited'> & Omit<ListPlan, 'path'> & { itemDescription: string },
): McpTool {
  return tool({
    ...spec,
    audited: spec.channel,
    output: pageOf(conciseOrWhole(itemsOf(spec.channel), spec.concise)),
    run: (args) => listRun(context, { ...spec, path: '' }, args),
  });
}

function conciseList(value: unknown, path: string, fields: readonly string[]): unknown {
  const pick = (items: unknown): unknown =>
    Array.isArray(items)
      ? (items as unknown[]).map((item) =>
          item !== null && typeof item === 'object'
            ? Object.fromEntries(
                fields
                  .filter((field) => field in item)
                  .map((field) => [field, (item as Record<string, unknown>)[field]]),
              )
            : item,
        )
      : items;
  if (path === '') return pick(value);
  if (value === null || typeof value !== 'object') return value;
  return { ...(value as Record<string, unknown>), [path]: pick((value as Record<string, unknown>)[path]) };
}

/** A tool that is one channel: its input (described, `countryCode` for a country) and its answer. */
function channelTool(
  context: ToolContext,
  spec: Omit<ToolSpec, 'run' | 'input' | 'audited' | 'scope' | 'output'> & {
    channel: CallChannel;
    omit?: readonly string[];
    full?: boolean;
  },
): McpTool {
  return tool({
    ...spec,
    scope: ipcCalls[spec.channel].scope,
    audited: spec.channel,
    input: toolSchema(spec.channel, { omit: spec.omit ?? [] }),
    output: asToolObject(answerSchemaOf(spec.channel)),
    run: async (args) => {
      const result = await context.call(spec.channel, inputFor(spec.channel, args));
      if (!result.ok) return result;
      return shaped(publicAnswer(spec.channel, result.value), { full: spec.full === true });
    },
  });
}

/** A tool whose `action` chooses the channel; the other arguments go to it. */
function actionTool(
  context: ToolContext,
  spec: Omit<ToolSpec, 'run' | 'audited'> & {
    actions: Record<string, (args: Record<string, unknown>) => { channel: CallChannel; input: unknown }>;
  },
): McpTool {
  return tool({
    ...spec,
    audited: spec.name,
    run: async (args) => {
      const action = typeof args.action === 'string' ? spec.actions[args.action] : undefined;
      if (!action) return invalid('action', `action: one of ${Object.keys(spec.actions).join(', ')}.`);
      const { action: _action, ...rest } = args;
      const chosen = action(rest);
      const result = await context.call(chosen.channel, chosen.input);
      if (!result.ok) return result;
      return shaped(publicAnswer(chosen.channel, result.value), { full: false });
    },
  });
}

// The rotate tool ----------------------------------------------------------------------------------

const ROTATE_MANY_MAX = 50;

const rotateInput = z.object({
  portIds: z.array(z.string().min(1).max(128)).min(1).max(ROTATE_MANY_MAX),
  untilNew: z
    .object({ lastN: z.int().min(1).max(20).default(3), maxTries: z.int().min(1).max(10).default(5) })
    .optional(),
  untilUnique: z.int().min(1).max(UNTIL_UNIQUE_MAX_TRIES).optional(),
});

/** One port's rotation: a receipt, a cooldown to wait out, or an error. */
async function rotateOne(
  context: ToolContext,
  portId: string,
  { untilNew, untilUnique }: Pick<z.output<typeof rotateInput>, 'untilNew' | 'untilUnique'>,
): Promise<RotateResult> {
  const result = await context.call('ports:rotate', {
    portId,
    ...(untilNew ? { untilNew } : {}),
    ...(untilUnique ? { untilUnique } : {}),
  });
  if (result.ok) return { portId, status: 'rotated', receipt: result.value as RotationReceipt };
  if (result.error.retryAfterMs !== undefined) {
    return {
      portId,
      status: 'wait',
      waitSeconds: Math.max(1, Math.ceil(result.error.retryAfterMs / 1000)),
      message: result.error.message,
    };
  }
  return { portId, status: 'failed', error: result.error };
}

function rotateTool(context: ToolContext): McpTool {
  return tool({
    name: 'ports_rotate',
    toolset: 'ports',
    scope: 'rotate',
    summary:
      'Rotate the IP of one or many ports now (each at most once per 30 s); untilNew rotates until the IP is new, untilUnique until the verdict is clean. Answers per port: rotated (receipt: old and new IP, verdict), wait (waitSeconds) or failed (error).',
    input: {
      type: 'object',
      properties: {
        portIds: {
          type: 'array',
          minItems: 1,
          maxItems: ROTATE_MANY_MAX,
          items: { type: 'string' },
          description: 'The ports to rotate (ids from ports_list); one or many.',
        },
        untilNew: {
          type: 'object',
          description: '{lastN: 3, maxTries: 5}: rotate until the IP is none of the last lastN.',
        },
        untilUnique: {
          type: 'integer',
          minimum: 1,
          maximum: UNTIL_UNIQUE_MAX_TRIES,
          description: 'Rotate (waiting out cooldowns) until the verdict is clean, at most this many tries.',
        },
      },
      required: ['portIds'],
    },
    output: objectOf({ results: { type: 'array', items: answerJsonSchema(rotateResultSchema) } }),
    audited: 'ports:rotate',
    run: async (args) => {
      const parsed = rotateInput.safeParse(args);
      if (!parsed.success) return invalidFromZod(parsed.error);
      const { portIds, ...until } = parsed.data;
      // One at a time: the owner runs one rotation per port anyway, and the results stay in order.
      const results: RotateResult[] = [];
      for (const portId of [...new Set(portIds)]) results.push(await rotateOne(context, portId, until));
      const only = results.length === 1 ? results[0] : undefined;
      if (only?.status === 'failed') return { ok: false, error: only.error };
      return shaped({ results }, { full: false });
    },
  });
}

function invalidFromZod(error: z.ZodError): ToolOutcome {
  const fields = error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
  return {
    ok: false,
    error: { code: 'invalid_input', message: fields[0]?.message ?? 'Invalid input', fields },
  };
}

// The test tool ------------------------------------------------------------------------------------

const proxyTestResultSchema = VIEW_ANSWERS['proxy:testMany'].element;
/** A test's result as an agent acts on it: 200 whole results are more than one answer holds. */
const conciseTestResultSchema = proxyTestResultSchema
  .pick({ target: true, ok: true, exit: true, timings: true })
  .extend({
    failure: proxyTestResultSchema.shape.failure.unwrap().pick({ kind: true, message: true }).nullable(),
  });

function conciseTestResult(result: ProxyTestResult): z.output<typeof conciseTestResultSchema> {
  return {
    target: result.target,
    ok: result.ok,
    exit: result.exit,
    timings: result.timings,
    failure: result.failure && { kind: result.failure.kind, message: result.failure.message },
  };
}

function proxyTestTool(context: ToolContext): McpTool {
  const many = toolSchema('proxy:testMany');
  return tool({
    name: 'proxy_test',
    toolset: 'tests',
    scope: ipcCalls['proxy:testMany'].scope,
    summary:
      'Send one request through each target (a port, or a subscription with targeting): exit IP, location and timings, or why it failed.',
    input: {
      ...many,
      properties: {
        ...(many.properties as Record<string, JsonSchema>),
        response_format: RESPONSE_FORMAT_PROPERTY,
      },
    },
    output: objectOf({
      results: {
        type: 'array',
        items: {
          anyOf: [answerJsonSchema(conciseTestResultSchema), answerJsonSchema(proxyTestResultSchema)],
        },
      },
    }),
    audited: 'proxy:testMany',
    run: async (args) => {
      const { response_format: _format, ...targets } = args;
      const detailed = detailedAsked(args);
      if (typeof detailed !== 'boolean') return detailed;
      const result = await context.call('proxy:testMany', inputFor('proxy:testMany', targets));
      if (!result.ok) return result;
      const results = result.value as ProxyTestResult[];
      const concise = (): ToolOutcome => shaped({ results: results.map(conciseTestResult) }, { full: false });
      if (!detailed) return concise();
      // The tests have run (and spent traffic): results too large in full come concise, never lost.
      const whole = shaped({ results }, { full: false });
      return !whole.ok && whole.error.code === 'answer_too_large' ? concise() : whole;
    },
  });
}

// Top-ups: one reader, a quote, a confirmation -----------------------------------------------------

function topUpsReadTool(context: ToolContext): McpTool {
  const list = toolSchema('topups:list');
  return tool({
    name: 'topups_read',
    toolset: 'topups',
    scope: 'read',
    summary:
      'Read top-ups: with topUpId one (status, deposit address, exact amount, confirmations); without it the list, newest first.',
    input: {
      ...list,
      properties: {
        topUpId: { type: 'string', description: 'One top-up’s id; omit for the list.' },
        ...(list.properties as Record<string, JsonSchema>),
      },
    },
    output: eitherOf(topUpWithPayment(), asToolObject(answerSchemaOf('topups:list'))),
    audited: 'topups_read',
    run: async (args) => {
      const { topUpId, ...rest } = args;
      if (topUpId !== undefined) {
        if (typeof topUpId !== 'string') return invalid('topUpId', 'topUpId: a top-up id from the list.');
        const [topUp, payment] = await Promise.all([
          context.call('topups:get', { topUpId }),
          context.call('topups:paymentDetails', { topUpId }),
        ]);
        if (!topUp.ok) return topUp;
        const { qrSvg: _qr, ...details } = (payment.ok ? payment.value : {}) as Record<string, unknown>;
        return shaped({ ...(topUp.value as object), payment: payment.ok ? details : null }, { full: false });
      }
      const result = await context.call('topups:list', inputFor('topups:list', rest));
      if (!result.ok) return result;
      return shaped(result.value, { full: false });
    },
  });
}

/** `topups_read` with `topUpId`: the top-up and how to pay it (no QR image: an agent cannot show it). */
function topUpWithPayment(): ObjectSchema {
  const topUp = asToolObject(answerSchemaOf('topups:get'));
  const payment = answerJsonSchema(VIEW_ANSWERS['topups:paymentDetails'].omit({ qrSvg: true }));
  return {
    ...topUp,
    properties: { ...(topUp.properties as object), payment: { anyOf: [payment, { type: 'null' }] } },
    required: [...((topUp.required as string[] | undefined) ?? []), 'payment'],
  };
}

const quoteInput = topUpCreateInput.omit({ attemptId: true });
const confirmInput = z.strictObject({ confirmationToken: z.string().min(1).max(100) });

/** What a quote says the top-up buys, from the account's own plans when it can read them. */
async function describePurchase(
  context: ToolContext,
  purchase: z.output<typeof quoteInput>['purchase'],
): Promise<TopUpQuote['quote']['buys']> {
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

function topUpQuoteTool(context: ToolContext): McpTool {
  return tool({
    name: 'topups_quote',
    toolset: 'topups',
    scope: 'spend',
    summary:
      'Step 1 of 2 of a crypto top-up: a quote (amount, coin, network, deposit address, what it buys) and a confirmationToken (5 min). Creates nothing: show it to the user, then call topups_confirm.',
    input: toolSchema('topups:create', { omit: ['attemptId'] }),
    output: toolShape(topUpQuoteSchema),
    audited: 'topups_quote',
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
      const answer: TopUpQuote = {
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
      };
      return { ok: true, value: answer };
    },
  });
}

function topUpConfirmTool(context: ToolContext): McpTool {
  return tool({
    name: 'topups_confirm',
    toolset: 'topups',
    scope: 'spend',
    summary:
      'Step 2 of 2: creates the top-up topups_quote quoted (its confirmationToken) and answers the address and the exact crypto amount to send. Repeating it answers the same top-up.',
    input: {
      type: 'object',
      properties: {
        confirmationToken: { type: 'string', description: 'The token topups_quote answered.' },
      },
      required: ['confirmationToken'],
    },
    output: asToolObject(answerSchemaOf('topups:create')),
    audited: 'topups:create',
    run: async (args) => {
      const parsed = confirmInput.safeParse(args);
      if (!parsed.success) return invalidFromZod(parsed.error);
      const quote = context.quotes.redeem(parsed.data.confirmationToken);
      if ('problem' in quote) {
        return { ok: false, error: { code: 'confirmation_invalid', message: quote.problem } };
      }
      const result = await context.call('topups:create', quote.input);
      return result.ok ? shaped(result.value, { full: false }) : result;
    },
  });
}

// Health: a thin pass-through of the overview ------------------------------------------------------

/**
 * The overview as an agent acts on it: the items (what, how urgent, when, about what) and whether
 * every list was read; the window's own parts (cards, badges, one-click actions, routes) only with
 * `detailed`.
 */
const snapshotSchema = VIEW_ANSWERS['overview:get'];
const conciseSnapshotSchema = snapshotSchema
  .pick({ allGood: true, generatedAt: true, counts: true, totals: true, sources: true })
  .extend({
    items: z.array(
      snapshotSchema.shape.items.element.pick({
        id: true,
        kind: true,
        level: true,
        levelWord: true,
        title: true,
        detail: true,
        dueAt: true,
        dueIn: true,
        dueIsForecast: true,
        subject: true,
      }),
    ),
  });

function conciseSnapshot(snapshot: HealthSnapshot): z.output<typeof conciseSnapshotSchema> {
  return {
    allGood: snapshot.allGood,
    generatedAt: snapshot.generatedAt,
    counts: snapshot.counts,
    totals: snapshot.totals,
    sources: snapshot.sources,
    items: snapshot.items.map((item) => ({
      id: item.id,
      kind: item.kind,
      level: item.level,
      // The one model's words (Now/Soon/FYI, "in 2 days"): every surface says the same.
      levelWord: item.levelWord,
      title: item.title,
      detail: item.detail,
      dueAt: item.dueAt,
      dueIn: item.dueIn,
      dueIsForecast: item.dueIsForecast,
      subject: item.subject,
    })),
  };
}

/** A port's health scores as an agent acts on them; the last raw check and connect times only detailed. */
const portHealthSchema = VIEW_ANSWERS['ports:health'].element;
const conciseHealthSchema = portHealthSchema
  .pick({
    portId: true,
    status: true,
    failuresInARow: true,
    uptime24h: true,
    uptime30d: true,
    rotations30d: true,
    uniqueIpRatio30d: true,
    unchanged30d: true,
    repeated30d: true,
    drift30d: true,
  })
  .extend({
    firstByteP50: portHealthSchema.shape.latency24h.shape.firstByteP50,
    firstByteP95: portHealthSchema.shape.latency24h.shape.firstByteP95,
    lastVerdict: portHealthSchema.shape.lastVerdict.unwrap().pick({ kind: true, message: true }).nullable(),
  });

function conciseHealth(health: PortHealth): z.output<typeof conciseHealthSchema> {
  return {
    portId: health.portId,
    status: health.status,
    failuresInARow: health.failuresInARow,
    uptime24h: health.uptime24h,
    uptime30d: health.uptime30d,
    firstByteP50: health.latency24h.firstByteP50,
    firstByteP95: health.latency24h.firstByteP95,
    rotations30d: health.rotations30d,
    uniqueIpRatio30d: health.uniqueIpRatio30d,
    unchanged30d: health.unchanged30d,
    repeated30d: health.repeated30d,
    drift30d: health.drift30d,
    lastVerdict: health.lastVerdict && { kind: health.lastVerdict.kind, message: health.lastVerdict.message },
  };
}

function healthSnapshotTool(context: ToolContext): McpTool {
  return tool({
    name: 'health_snapshot',
    toolset: 'health',
    scope: 'read',
    summary:
      'What needs attention now, most urgent first (the app’s Overview): expiries, traffic running out, failing tests and schedules, pending top-ups, alerts. Start here.',
    input: {
      type: 'object',
      properties: {
        refresh: { type: 'boolean', description: 'Read the lists from the service first (slower).' },
        response_format: RESPONSE_FORMAT_PROPERTY,
      },
    },
    output: eitherOf(toolShape(conciseSnapshotSchema), asToolObject(answerSchemaOf('overview:get'))),
    audited: 'overview:get',
    run: async (args) => {
      const detailed = detailedAsked(args);
      if (typeof detailed !== 'boolean') return detailed;
      const result = await context.call(
        'overview:get',
        args.refresh === true ? { refresh: true } : undefined,
      );
      if (!result.ok) return result;
      return shaped(detailed ? result.value : conciseSnapshot(result.value as HealthSnapshot), {
        full: false,
      });
    },
  });
}

/** Health checks' scores of every port, or one port's uptime bar with `range`. */
function portsHealthTool(context: ToolContext): McpTool {
  return tool({
    name: 'ports_health',
    toolset: 'health',
    scope: 'read',
    summary:
      'Whether each port works, from health checks through it: status (up/down), 24 h and 30 d uptime, latency p50/p95, rotations with their verdicts (unchanged, repeat, drift). With portId and range (24h or 30d): that port’s uptime buckets.',
    input: {
      type: 'object',
      properties: {
        portId: { type: 'string', description: 'One port (ids from ports_list); omit for every port.' },
        range: {
          type: 'string',
          enum: ['24h', '30d'],
          description: 'With portId: its buckets over this range.',
        },
        ...pagedProperties(true),
      },
    },
    output: eitherOf(
      objectOf({
        ports: {
          type: 'array',
          items: { anyOf: [answerJsonSchema(conciseHealthSchema), itemsOf('ports:health')] },
        },
        total: { type: 'integer' },
        nextCursor: { type: ['string', 'null'] },
      }),
      objectOf({ history: answerSchemaOf('ports:healthHistory') }),
    ),
    audited: 'ports:health',
    run: async (args) => {
      const portId = typeof args.portId === 'string' ? args.portId : undefined;
      if (args.range !== undefined) {
        if (!portId) return invalid('portId', 'range needs portId: the buckets are one port’s.');
        const history = await context.call('ports:healthHistory', { portId, range: args.range });
        return history.ok ? shaped({ history: history.value }, { full: false }) : history;
      }
      const page = pageArguments.safeParse({
        limit: args.limit,
        cursor: args.cursor,
        response_format: args.response_format,
      });
      if (!page.success) return invalidFromZod(page.error);
      const result = await context.call('ports:health', portId ? { portId } : undefined);
      if (!result.ok) return result;
      const scores = result.value as PortHealth[];
      // Paged as every list is: a thousand ports' scores are more than one answer holds.
      return shaped(
        { ports: page.data.response_format === 'detailed' ? scores : scores.map(conciseHealth) },
        {
          list: { path: 'ports' },
          page: { limit: page.data.limit ?? PAGE_LIMIT_DEFAULT, cursor: page.data.cursor ?? null },
          full: false,
        },
      );
    },
  });
}

/** Where alerts go away from this desktop, and what became of each one (never a secret). */
function alertDeliveriesTool(context: ToolContext): McpTool {
  return tool({
    name: 'alert_deliveries',
    toolset: 'health',
    scope: 'read',
    summary:
      'Alert channels (webhook, Telegram, ntfy, Slack, Discord, email: where, failing or not) and the delivery log, newest first (time, event, channel, outcome, attempts). deadOnly: only alerts given up on.',
    input: {
      type: 'object',
      properties: {
        deadOnly: { type: 'boolean', description: 'Only the dead letters (given up on).' },
        limit: { type: 'integer', minimum: 1, maximum: 200, description: 'Log entries (default 50).' },
      },
    },
    output: objectOf({
      channels: answerSchemaOf('alertRouting:channels'),
      deliveries: answerSchemaOf('alertRouting:deliveries'),
    }),
    audited: 'alertRouting:deliveries',
    run: async (args) => {
      const channels = await context.call('alertRouting:channels', undefined);
      if (!channels.ok) return channels;
      const deliveries = await context.call('alertRouting:deliveries', {
        ...(args.deadOnly === true ? { deadOnly: true } : {}),
        limit: typeof args.limit === 'number' ? args.limit : 50,
      });
      if (!deliveries.ok) return deliveries;
      return shaped({ channels: channels.value, deliveries: deliveries.value }, { full: false });
    },
  });
}

// The toolset --------------------------------------------------------------------------------------

/**
 * `response_format`: where an answer grows with the account (lists, the overview, every port's
 * health) a tool answers the fields an agent acts on unless asked for `detailed`. A tool that answers
 * one object of a bounded size (a port, a receipt, a page of at most 100 IPs) has none: the whole
 * object is small, and its fields are what was asked for.
 */
const RESPONSE_FORMAT_PROPERTY: JsonSchema = {
  type: 'string',
  enum: ['concise', 'detailed'],
  description: 'concise (default) or detailed: every field.',
};

/** Whether a tool's arguments ask for every field (`response_format: detailed`); concise otherwise. */
function detailedAsked(args: Record<string, unknown>): boolean | ToolOutcome {
  const format = RESPONSE_FORMAT.safeParse(args.response_format ?? 'concise');
  if (!format.success) return invalid('response_format', 'response_format: concise or detailed.');
  return format.data === 'detailed';
}

const pagedProperties = (concise: boolean): Record<string, JsonSchema> => ({
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: PAGE_LIMIT_MAX,
    description: `Page size (default ${PAGE_LIMIT_DEFAULT}).`,
  },
  cursor: { type: 'string', description: 'The last page’s nextCursor.' },
  ...(concise ? { response_format: RESPONSE_FORMAT_PROPERTY } : {}),
});

function withPaging(base: JsonSchema & { type: 'object' }): JsonSchema & { type: 'object' } {
  return { ...base, properties: { ...(base.properties as object), ...pagedProperties(true) } };
}

const ACTION = (actions: readonly string[], description: string): JsonSchema => ({
  type: 'string',
  enum: actions,
  description,
});

function localProxiesTool(context: ToolContext): McpTool {
  const add = toolSchema('localProxies:add');
  return actionTool(context, {
    name: 'local_proxies',
    toolset: 'local_proxies',
    scope: 'manage',
    destructive: true,
    summary:
      'Local proxies (127.0.0.1 addresses forwarding to a port or subscription with its credentials): action list, add, update, remove, start or stop (by id).',
    input: {
      type: 'object',
      properties: {
        action: ACTION(['list', 'add', 'update', 'remove', 'start', 'stop'], 'What to do.'),
        localProxyId: {
          type: 'string',
          description: 'The local proxy (update, remove, start, stop), from action list.',
        },
        ...(add.properties as Record<string, JsonSchema>),
      },
      required: ['action'],
    },
    output: eitherOf(
      ...(['localProxies:list', 'localProxies:add', 'localProxies:remove'] as const).map((channel) =>
        asToolObject(answerSchemaOf(channel)),
      ),
    ),
    actions: {
      list: () => ({ channel: 'localProxies:list', input: undefined }),
      add: (args) => ({ channel: 'localProxies:add', input: inputFor('localProxies:add', args) }),
      // `localProxyId` here (every tool names an id after its kind), `id` in the contract.
      update: ({ localProxyId, ...args }) => ({
        channel: 'localProxies:update',
        input: inputFor('localProxies:update', { ...args, id: localProxyId }),
      }),
      remove: (args) => ({ channel: 'localProxies:remove', input: { id: args.localProxyId } }),
      start: (args) => ({ channel: 'localProxies:start', input: { id: args.localProxyId } }),
      stop: (args) => ({ channel: 'localProxies:stop', input: { id: args.localProxyId } }),
    },
  });
}

function schedulesTool(context: ToolContext): McpTool {
  const set = toolSchema('schedules:set');
  return actionTool(context, {
    name: 'schedules',
    toolset: 'schedules',
    scope: 'rotate',
    summary:
      'Rotation schedules (run by the desktop app or web mode): action list, set (portIds, cadence), remove (portIds), pause or resume all.',
    input: {
      type: 'object',
      properties: {
        action: ACTION(['list', 'set', 'remove', 'pause', 'resume'], 'What to do.'),
        ...(set.properties as Record<string, JsonSchema>),
      },
      required: ['action'],
    },
    // Every action answers the schedules as they now are.
    output: asToolObject(answerSchemaOf('schedules:list')),
    actions: {
      list: () => ({ channel: 'schedules:list', input: undefined }),
      set: (args) => ({ channel: 'schedules:set', input: inputFor('schedules:set', args) }),
      remove: (args) => ({ channel: 'schedules:remove', input: { portIds: args.portIds } }),
      pause: () => ({ channel: 'schedules:pause', input: { paused: true } }),
      resume: () => ({ channel: 'schedules:pause', input: { paused: false } }),
    },
  });
}

function subUsersTool(context: ToolContext): McpTool {
  const create = toolSchema('subscriptions:createSubUser');
  const update = toolSchema('subscriptions:updateSubUser');
  const many = toolSchema('subscriptions:createSubUsers');
  return actionTool(context, {
    name: 'sub_users_change',
    toolset: 'subscriptions',
    scope: 'manage',
    destructive: true,
    summary:
      'Sub-users of a subscription: action create (label; or count and labelPrefix), update (subUserId and what changes) or delete (subUserId).',
    input: {
      type: 'object',
      properties: {
        action: ACTION(['create', 'update', 'delete'], 'What to do.'),
        ...(create.properties as Record<string, JsonSchema>),
        ...(update.properties as Record<string, JsonSchema>),
        ...(many.properties as Record<string, JsonSchema>),
      },
      required: ['action', 'subscriptionId'],
    },
    output: eitherOf(
      ...(
        [
          'subscriptions:createSubUser',
          'subscriptions:createSubUsers',
          'subscriptions:deleteSubUser',
        ] as const
      ).map((channel) => asToolObject(answerSchemaOf(channel))),
    ),
    actions: {
      create: (args) =>
        args.count !== undefined
          ? { channel: 'subscriptions:createSubUsers', input: inputFor('subscriptions:createSubUsers', args) }
          : { channel: 'subscriptions:createSubUser', input: inputFor('subscriptions:createSubUser', args) },
      update: (args) => ({
        channel: 'subscriptions:updateSubUser',
        input: inputFor('subscriptions:updateSubUser', args),
      }),
      delete: (args) => ({
        channel: 'subscriptions:deleteSubUser',
        input: { subscriptionId: args.subscriptionId, subUserId: args.subUserId },
      }),
    },
  });
}

const CATALOG_LISTS = ['countries', 'states', 'cities', 'asns', 'carriers', 'coins'] as const;

const CATALOG_CONCISE = ['code', 'name', 'id', 'asn', 'products', 'networks'] as const;

function catalogTool(context: ToolContext): McpTool {
  return tool({
    name: 'catalog',
    toolset: 'catalog',
    scope: 'read',
    audited: 'catalog',
    output: pageOf({
      anyOf: CATALOG_LISTS.map((list) => conciseOrWhole(itemsOf(`catalog:${list}`), CATALOG_CONCISE)),
    }),
    summary:
      'The public catalog: list countries, states, cities, asns or carriers (of a countryCode), or coins for top-ups.',
    input: withPaging({
      type: 'object',
      properties: {
        list: ACTION(CATALOG_LISTS, 'Which list.'),
        countryCode: {
          type: 'string',
          description: 'Two-letter country code, e.g. US (states, cities, asns, carriers).',
        },
        product: {
          type: 'string',
          enum: ['residential', 'mobile', 'mobile-gb'],
          description: 'countries, cities: only where this product is offered.',
        },
      },
      required: ['list'],
    }),
    run: (args) => {
      const { list, ...rest } = args;
      if (typeof list !== 'string' || !(CATALOG_LISTS as readonly string[]).includes(list)) {
        return Promise.resolve(invalid('list', `list: one of ${CATALOG_LISTS.join(', ')}.`));
      }
      return listRun(
        context,
        { channel: `catalog:${list}` as CallChannel, path: '', concise: CATALOG_CONCISE },
        rest,
      );
    },
  });
}

/** Every tool, whatever the grant, in the order `tools/list` gives them. */
function allTools(context: ToolContext): McpTool[] {
  return [
    healthSnapshotTool(context),
    portsHealthTool(context),
    alertDeliveriesTool(context),
    listTool(context, {
      name: 'ports_list',
      toolset: 'ports',
      scope: 'read',
      channel: 'ports:list',
      concise: ['id', 'label', 'status', 'country', 'currentIp', 'expiresAt'],
      itemDescription: 'Mobile ports (see the REST API’s /v1/ports for every field).',
      summary: 'List the dedicated mobile (4G/5G) ports: id, label, status, country, current IP, expiry.',
      input: withPaging({ type: 'object', properties: {} }),
    }),
    channelTool(context, {
      name: 'ports_get',
      toolset: 'ports',
      channel: 'ports:get',
      summary: 'Read one mobile port: its IP, state, carrier, endpoint, plan and dates.',
    }),
    rotateTool(context),
    channelTool(context, {
      name: 'ports_update',
      toolset: 'ports',
      channel: 'ports:update',
      summary: 'Change a port’s label, auto-renew or the service’s automatic rotation interval.',
    }),
    channelTool(context, {
      name: 'ports_relocate',
      toolset: 'ports',
      channel: 'ports:relocate',
      summary:
        'Move a port to another country and carrier (catalog list carriers). It is provisioning for a few minutes: follow it with ports_get.',
    }),
    channelTool(context, {
      name: 'ports_history',
      toolset: 'ports',
      channel: 'ports:ipHistory',
      summary: 'The IPs a port had, newest first (page, perPage).',
    }),
    channelTool(context, {
      name: 'ports_usage',
      toolset: 'ports',
      channel: 'ports:usage',
      summary: 'A port’s daily traffic between two days (default: the last 30 days).',
    }),
    proxyTestTool(context),
    listTool(context, {
      name: 'subscriptions_list',
      toolset: 'subscriptions',
      scope: 'read',
      channel: 'subscriptions:list',
      concise: ['id', 'label', 'productId', 'status', 'trafficRemainingBytes', 'expiresAt', 'subUserCount'],
      itemDescription: 'Traffic subscriptions.',
      summary:
        'List the traffic subscriptions (residential or mobile GB): id, label, product, traffic left, expiry.',
      input: withPaging(toolSchema('subscriptions:list', { omit: ['fresh'] })),
    }),
    channelTool(context, {
      name: 'subscriptions_get',
      toolset: 'subscriptions',
      channel: 'subscriptions:get',
      summary: 'Read one traffic subscription: traffic used and left, expiry, endpoint, sub-user count.',
    }),
    channelTool(context, {
      name: 'subscriptions_update',
      toolset: 'subscriptions',
      channel: 'subscriptions:update',
      summary: 'Change a subscription’s label or auto-renew.',
    }),
    channelTool(context, {
      name: 'subscriptions_usage',
      toolset: 'subscriptions',
      channel: 'subscriptions:usage',
      summary:
        'Daily traffic of a subscription, or of one sub-user, between two days, with a by-country split.',
    }),
    listTool(context, {
      name: 'sub_users_list',
      toolset: 'subscriptions',
      scope: 'read',
      channel: 'subscriptions:subUsers',
      concise: ['id', 'label', 'username', 'enabled', 'trafficUsedBytes'],
      itemDescription: 'Sub-users (no passwords: proxy_strings gives credentials).',
      summary: 'List the sub-users of a subscription: id, label, username, traffic used and cap, enabled.',
      input: withPaging(toolSchema('subscriptions:subUsers')),
    }),
    subUsersTool(context),
    channelTool(context, {
      name: 'proxy_strings',
      toolset: 'subscriptions',
      channel: 'subscriptions:buildProxyString',
      summary:
        'Proxy strings (with the password) for a subscription or one sub-user, with country, state, city, ASN, ZIP and sticky-session targeting.',
    }),
    topUpsReadTool(context),
    topUpQuoteTool(context),
    topUpConfirmTool(context),
    channelTool(context, {
      name: 'topups_declare_paid',
      toolset: 'topups',
      channel: 'topups:declareTxid',
      summary: 'Tell the service a top-up’s payment was sent, optionally with its transaction id (txid).',
    }),
    catalogTool(context),
    localProxiesTool(context),
    schedulesTool(context),
  ];
}

export interface ToolSelection {
  grant: ReadonlySet<Scope>;
  /** Default: every toolset. */
  toolsets?: readonly Toolset[];
  /** Only the tools that change nothing (`read` and `secrets`). */
  readOnly?: boolean;
}

/** Every tool (for naming a refused one), and the ones this session lists. */
export function buildTools(
  selection: ToolSelection,
  context: ToolContext,
): { listed: McpTool[]; every: McpTool[] } {
  const every = allTools(context);
  const toolsets = new Set(selection.toolsets ?? TOOLSETS);
  const listed = every.filter(
    (candidate) =>
      selection.grant.has(candidate.scope) &&
      toolsets.has(candidate.toolset) &&
      (!selection.readOnly || isReadOnlyScope(candidate.scope)),
  );
  return { listed, every };
}
