import { z } from 'zod';

/** Bounds of a free-form JSON value the service defines and the app passes on (`purchase.options`). */
const FREE_FORM_LIMITS = { depth: 8, members: 500, keyLength: 64, stringLength: 2_000 } as const;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why `value` is not a bounded JSON value, or null. Walked with an explicit stack, so a value nested
 * 50,000 deep is refused here instead of overflowing the call stack of whatever reads it later.
 */
function freeFormProblem(value: unknown): string | null {
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  let members = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (node === null || typeof node === 'boolean') continue;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return 'holds a number that is not finite';
      continue;
    }
    if (typeof node === 'string') {
      if (node.length > FREE_FORM_LIMITS.stringLength)
        return `holds a text longer than ${FREE_FORM_LIMITS.stringLength} characters`;
      if (LONE_SURROGATE.test(node)) return 'holds text that is not well-formed';
      continue;
    }
    if (typeof node !== 'object') return 'holds something that is not JSON';
    if (depth >= FREE_FORM_LIMITS.depth) return `is nested more than ${FREE_FORM_LIMITS.depth} levels deep`;
    const entries: [string, unknown][] = Array.isArray(node)
      ? node.map((item, index) => [String(index), item])
      : Object.entries(node);
    members += entries.length;
    if (members > FREE_FORM_LIMITS.members) return `has more than ${FREE_FORM_LIMITS.members} members`;
    for (const [key, item] of entries) {
      if (key.length > FREE_FORM_LIMITS.keyLength || LONE_SURROGATE.test(key))
        return `has a member name that is too long or not well-formed`;
      stack.push({ node: item, depth: depth + 1 });
    }
  }
  return null;
}

/** An object of bounded JSON values, passed on to the service as it is. */
export const freeFormObject = z
  .record(z.string().max(FREE_FORM_LIMITS.keyLength), z.unknown())
  .superRefine((value, context) => {
    const problem = freeFormProblem(value);
    if (problem !== null) context.addIssue({ code: 'custom', message: `This value ${problem}` });
  });
