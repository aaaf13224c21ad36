/**
 * RFC 8785 JSON Canonicalization Scheme (JCS): the bytes an update feed's signature covers.
 *
 * Why JCS: it is a published standard with test vectors and needs nothing beyond what JavaScript
 * already does (ECMAScript number and string serialisation, keys sorted by UTF-16 code units), so the
 * release script, this verifier and a maintainer's one-line `node -e` check produce the same bytes.
 * Mullvad signs its metadata's canonical JSON the same way (OLPC canonical JSON there).
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonical JSON has no NaN or Infinity');
      // ECMAScript's Number-to-String is what RFC 8785 prescribes (and JSON.stringify does); -0 is 0.
      return JSON.stringify(value);
    case 'string':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, item]) => item !== undefined)
        // Default sort compares UTF-16 code units, exactly the order RFC 8785 asks for.
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
    }
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      break;
  }
  throw new TypeError(`canonical JSON cannot hold a ${typeof value}`);
}
