/**
 * What a session may do. Every channel of the contract declares exactly one scope; every transport
 * session (the window, web mode's page, the CLI, an MCP server, a REST token) holds a grant, and the
 * guarded dispatcher refuses a call outside it before anything runs.
 */
export const SCOPES = ['read', 'rotate', 'manage', 'spend', 'secrets', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  read: 'see ports, subscriptions, usage, top-ups, the catalog, schedules and alerts',
  rotate: 'rotate ports, rotate until a new IP, and set or pause rotation schedules',
  manage: 'change labels, auto-renew, relocations, sub-users, passwords and settings',
  spend: 'create top-ups and purchases, and declare payments',
  secrets: 'see proxy passwords, rotation links and credential exports',
  admin: 'add, change and remove profiles and API keys',
};

/** The window and web mode's own page hold every scope. */
export const FULL_GRANT: ReadonlySet<Scope> = new Set(SCOPES);

/** Fields that hold a secret in any answer: blanked for a session without the `secrets` scope. */
export const SECRET_FIELDS = ['password', 'rotationLink'] as const;
