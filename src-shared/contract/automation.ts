import { z } from 'zod';
import { call, type DomainCalls } from './define';
import { SCOPES, type Scope } from './scopes';
import { noInput } from './shared-inputs';

/**
 * Automation: the tokens that open the local REST API (and, optionally, the MCP server), the local
 * REST API's switch, and the audit log of every MCP and REST call. Every call here needs `admin`:
 * none of them is offered to an MCP agent or over REST (a token cannot mint or widen tokens).
 */

/** A token as listed: never its value (only its hash is stored). */
export interface AutomationTokenView {
  id: string;
  name: string;
  scopes: Scope[];
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601; null until the token is first used. */
  lastUsedAt: string | null;
}

/** The one answer that carries a token's value: shown once, then only its hash exists. */
export interface CreatedAutomationToken {
  token: AutomationTokenView;
  /** `pmt_…`: goes in `Authorization: Bearer`. */
  secret: string;
}

/**
 * Who made an audited call: a REST token (by id and name), the MCP server, or a REST request refused
 * before any token was accepted (`name` says why it has none; the token sent is never written).
 */
type AuditCaller =
  { kind: 'token'; tokenId: string; name: string } | { kind: 'mcp' } | { kind: 'anonymous'; name: string };

/** One MCP or REST call: no input values and no answer, only what was called and how it ended. */
export interface AuditEntry {
  /** ISO 8601. */
  at: string;
  surface: 'mcp' | 'rest';
  caller: AuditCaller;
  /** The contract channel, or a composite tool's name (`rotate_until_new`). */
  channel: string;
  /**
   * `ok`, or what refused it: the error's code (`scope_denied`, `invalid_input`, `rate_limited`…),
   * or for a REST request refused before its call `unauthorized`, `forbidden_origin`,
   * `body_too_large`, `unsupported_media_type`, `bad_json`, `not_acceptable`, `over_capacity`.
   */
  outcome: string;
  durationMs: number;
  /** REST: the peer's address (always loopback today; kept for a refused request's trace). */
  remoteAddress?: string;
}

/** The local REST API: the setting, and what the process that owns the jobs made of it. */
export interface RestApiStatus {
  enabled: boolean;
  port: number;
  /** `http://127.0.0.1:PORT` while it listens; null otherwise. */
  url: string | null;
  /** Why it does not listen although enabled (a port in use), or null. */
  error: string | null;
}

const AUTOMATION_TOKEN_NAME_MAX = 60;
export const AUTOMATION_TOKENS_MAX = 100;
/** The audit log keeps this many entries (the oldest go first). */
export const AUDIT_LOG_MAX = 1000;
export const REST_PORT_DEFAULT = 24_080;

const tokenName = z
  .string()
  .trim()
  .min(1, 'Give the token a name')
  .max(AUTOMATION_TOKEN_NAME_MAX, `At most ${AUTOMATION_TOKEN_NAME_MAX} characters`)
  .regex(/^[^\p{Cc}]*$/u, 'No control characters');

/** A token's scopes: any but `admin` (no token manages tokens, profiles, keys or settings). */
const TOKEN_SCOPES = SCOPES.filter((scope) => scope !== 'admin');
const tokenScopes = z
  .array(
    z
      .enum(SCOPES, { error: `One of ${TOKEN_SCOPES.join(', ')}` })
      .refine((scope) => scope !== 'admin', { error: 'A token cannot hold admin' }),
  )
  .min(1, 'Choose at least one scope')
  .max(SCOPES.length)
  .transform((scopes) => SCOPES.filter((scope) => (scopes as readonly Scope[]).includes(scope)));

const tokenId = z.string().regex(/^tok_[0-9a-f]{12}$/, 'Not a token id');

const restPort = z.int('A whole number').min(1024, 'At least 1024').max(65_535, 'At most 65535');

export const automationCalls = {
  'automation:tokens': call<AutomationTokenView[]>('admin')(noInput),
  'automation:createToken': call<CreatedAutomationToken>('admin')(
    z.strictObject({ name: tokenName, scopes: tokenScopes }),
  ),
  'automation:revokeToken': call<{ revoked: boolean }>('admin')(z.strictObject({ tokenId })),
  /** Newest first. */
  'automation:audit': call<AuditEntry[]>('admin')(
    z.strictObject({ limit: z.int().min(1).max(AUDIT_LOG_MAX).optional() }).optional(),
  ),
  'automation:restStatus': call<RestApiStatus>('admin')(noInput),
  'automation:setRest': call<RestApiStatus>('admin')(
    z
      .strictObject({ enabled: z.boolean().optional(), port: restPort.optional() })
      .refine((value) => value.enabled !== undefined || value.port !== undefined, {
        message: 'Nothing to change',
      }),
  ),
} as const satisfies DomainCalls<'automation'>;
