import { SECRET_FIELDS } from '../../src-shared/contract';

const SECRET_KEYS: ReadonlySet<string> = new Set(SECRET_FIELDS);

/**
 * A copy of an answer with every secret field (a proxy password, a rotation link) set to null, at
 * any depth: what a session without the `secrets` scope receives. Channels whose whole answer is a
 * secret (`ports:revealRotationLink`, credential exports) need `secrets` to be called at all.
 */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key,
      SECRET_KEYS.has(key) && field !== null && field !== undefined ? null : withoutSecrets(field),
    ]),
  );
}
