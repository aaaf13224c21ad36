import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../lib/atomic-file';
import { AppError } from '../errors';
import { withFileLock } from '../storage/file-lock';
import { readTextOrNull } from '../storage/json-file';
import {
  AUTOMATION_TOKENS_MAX,
  type AutomationTokenView,
  type CreatedAutomationToken,
} from '../../../src-shared/contract/automation';
import { SCOPES, type Scope } from '../../../src-shared/contract/scopes';

const TOKENS_FILE_NAME = 'automation-tokens.json';
/** A token's value: this prefix, then 32 random bytes as base64url (43 characters). */
const TOKEN_PREFIX = 'pmt_';
const TOKEN_PATTERN = /^pmt_[A-Za-z0-9_-]{43}$/;
/** `lastUsedAt` is written at most this often per token (a busy script must not rewrite the file per call). */
const LAST_USED_RESOLUTION_MS = 60_000;

const storedTokenSchema = z.object({
  id: z.string().regex(/^tok_[0-9a-f]{12}$/),
  name: z.string().min(1).max(200),
  scopes: z.array(z.enum(SCOPES)),
  /** sha-256 of the token's value, hex: the value itself is never stored. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
type StoredToken = z.infer<typeof storedTokenSchema>;

const tokensFileSchema = z.object({ version: z.literal(1), tokens: z.array(storedTokenSchema) });

export interface TokenStoreOptions {
  dataDir: string;
  /** Wall time (epoch ms). */
  now: () => number;
  log?: (line: string) => void;
}

const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');

const viewOf = (token: StoredToken): AutomationTokenView => ({
  id: token.id,
  name: token.name,
  scopes: [...token.scopes],
  createdAt: token.createdAt,
  lastUsedAt: token.lastUsedAt,
});

/**
 * The automation tokens (REST, and MCP when asked for): named, scoped, stored only as a sha-256
 * hash in `<dataDir>/automation-tokens.json` (mode 0600). The file is read at every check, so a
 * token revoked in the window stops working at once in a `serve` process too; each change is a
 * read-modify-write under an inter-process lock.
 */
export class TokenStore {
  private readonly file: string;
  private readonly lockFile: string;
  /** When this process last wrote each token's `lastUsedAt`. */
  private readonly lastWritten = new Map<string, number>();

  constructor(private readonly options: TokenStoreOptions) {
    this.file = join(options.dataDir, TOKENS_FILE_NAME);
    this.lockFile = `${this.file}.lock`;
  }

  async list(): Promise<AutomationTokenView[]> {
    return (await this.read()).map(viewOf);
  }

  async create(name: string, scopes: readonly Scope[]): Promise<CreatedAutomationToken> {
    const secret = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const token: StoredToken = {
      id: `tok_${randomBytes(6).toString('hex')}`,
      name,
      scopes: SCOPES.filter((scope) => scopes.includes(scope)),
      hash: hashOf(secret),
      createdAt: new Date(this.options.now()).toISOString(),
      lastUsedAt: null,
    };
    await this.update((tokens) => {
      if (tokens.length >= AUTOMATION_TOKENS_MAX) {
        throw new AppError('invalid_input', `At most ${AUTOMATION_TOKENS_MAX} tokens: revoke one first.`);
      }
      if (tokens.some((other) => other.name === name)) {
        throw new AppError('invalid_input', 'A token with this name exists.', [
          { field: 'name', message: 'A token with this name exists' },
        ]);
      }
      return [...tokens, token];
    });
    return { token: viewOf(token), secret };
  }

  async revoke(tokenId: string): Promise<boolean> {
    let found = false;
    await this.update((tokens) => {
      found = tokens.some((token) => token.id === tokenId);
      return tokens.filter((token) => token.id !== tokenId);
    });
    return found;
  }

  /** The token this value opens, or null; notes the use (at most once a minute per token). */
  async verify(secret: string | null): Promise<AutomationTokenView | null> {
    if (secret === null || !TOKEN_PATTERN.test(secret)) return null;
    const given = Buffer.from(hashOf(secret), 'hex');
    const token = (await this.read()).find((stored) =>
      timingSafeEqual(Buffer.from(stored.hash, 'hex'), given),
    );
    if (!token) return null;
    const now = this.options.now();
    const written = this.lastWritten.get(token.id) ?? (token.lastUsedAt ? Date.parse(token.lastUsedAt) : 0);
    if (!(now - written < LAST_USED_RESOLUTION_MS)) {
      this.lastWritten.set(token.id, now);
      const at = new Date(now).toISOString();
      await this.update((tokens) =>
        tokens.map((t) => (t.id === token.id ? { ...t, lastUsedAt: at } : t)),
      ).catch((error: unknown) =>
        this.options.log?.(
          `[automation] could not note a token's use: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
      return viewOf({ ...token, lastUsedAt: at });
    }
    return viewOf(token);
  }

  private async read(): Promise<StoredToken[]> {
    const text = await readTextOrNull(this.file);
    if (text === null) return [];
    try {
      return tokensFileSchema.parse(JSON.parse(text)).tokens;
    } catch {
      // A damaged file opens nothing (fail closed); the next change rewrites it.
      this.options.log?.(`[automation] ${TOKENS_FILE_NAME} is unreadable; no token is accepted`);
      return [];
    }
  }

  private async update(change: (tokens: StoredToken[]) => StoredToken[]): Promise<void> {
    await withFileLock(this.lockFile, async () => {
      const next = change(await this.read());
      await writeFileAtomic(this.file, `${JSON.stringify({ version: 1, tokens: next }, null, 2)}\n`, {
        mode: 0o600,
      });
    });
  }
}
