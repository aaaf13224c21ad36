import { promises as fs } from 'node:fs';

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
