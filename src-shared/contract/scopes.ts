/**
 * What a session may do. Every channel of the contract declares exactly one scope; every transport
 * session (the window, web mode's page, the CLI, an MCP server, a REST token) holds a grant, and the
 * guarded dispatcher refuses a call outside it before anything runs.
 */
export const SCOPES = ['read', 'rotate', 'manage', 'spend', 'secrets', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** The window and web mode's own page hold every scope. */
export const FULL_GRANT: ReadonlySet<Scope> = new Set(SCOPES);

/** Fields that hold a secret in any answer: blanked for a session without the `secrets` scope. */
export const SECRET_FIELDS = ['password', 'rotationLink'] as const;
