import { promises as fs } from 'node:fs';
import type { z } from 'zod';

/**
 * Small pieces shared by the stores that keep one JSON file in the data folder (settings,
 * job state), so that they recover and name their copies the same way.
 */

/** The file's text, or null when it does not exist; any other read error is thrown. */
export async function readTextOrNull(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** A time for a file name (`2026-01-01T00-00-00-000Z`): no `:` (Windows) or `.`. */
export function fileStamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

/** `base`, or `base-1`, `base-2`... when something already has that name. */
export async function freePath(base: string): Promise<string> {
  for (let attempt = 0; ; attempt += 1) {
    const candidate = attempt === 0 ? base : `${base}-${attempt}`;
    try {
      await fs.access(candidate);
    } catch {
      return candidate;
    }
  }
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/** The first problem of a zod error, as `path: message`, for a user-facing sentence. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unknown problem';
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

const SECRET_MEMBER_NAMES = /^(api[-_]?key|key|password|passphrase|secret|token|rotation[-_]?link)$/i;
/** A URL whose query carries `key=`, as rotation links do. */
const KEY_IN_QUERY = /[?&]key=/i;

/** The path of the first member whose name or value looks like a secret, or null. */
export function findSecretLikeMember(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return KEY_IN_QUERY.test(value) ? path || '(root)' : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findSecretLikeMember(item, `${path}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [name, item] of Object.entries(value)) {
      const memberPath = path ? `${path}.${name}` : name;
      if (SECRET_MEMBER_NAMES.test(name)) return memberPath;
      const found = findSecretLikeMember(item, memberPath);
      if (found !== null) return found;
    }
  }
  return null;
}
