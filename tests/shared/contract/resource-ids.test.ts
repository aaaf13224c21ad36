import { describe, expect, it } from 'vitest';
import { type CallChannel, ipcCalls } from '../../../src-shared/contract';
import { resourceIdProblem } from '../../../src-shared/resource-id';
import { VALID_INPUTS } from '../../support/valid-inputs';

// Ids that would steer a request elsewhere once put into a path, or that cannot be put there at all.
const STEERING_IDS = [
  '.',
  '..',
  '...',
  '%2e%2e',
  '.%2e',
  'a/b',
  '../x',
  'a\\b',
  'x?key=1',
  'x#y',
  ' ',
  'a b',
  '\t',
  '\n',
  'mp_1\n',
  '\ud800',
  'a\udc00',
  '\u0000',
  '\u200b',
];
const GOOD_IDS = ['mp_9', 'sub-1', 'a.b', 'A:1', 'x~y', '7c9e6679-7425-40de-944b-e07fc1f90ae7', 'é', '🙂'];

/** Every place in an input that holds an id, as a path of members (`target.portId`, `portIds.0`). */
const NOT_RESOURCE_IDS = new Set([
  'attemptId',
  'profileId',
  'noticeId',
  'alertId',
  'callId',
  'productId',
  'tokenId',
  // An alert channel's id (`ach_…`) has its own stricter pattern and never goes into a request path.
  'channelId',
]);
function idPaths(value: unknown, path: string[] = [], isId = false): string[][] {
  if (typeof value === 'string') return isId ? [path] : [];
  if (Array.isArray(value))
    return value.flatMap((item, index) => idPaths(item, [...path, String(index)], isId));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, member]) =>
    idPaths(member, [...path, key], /Ids?$/.test(key) && !NOT_RESOURCE_IDS.has(key)),
  );
}

function withValueAt(input: unknown, path: string[], value: string): unknown {
  const copy = structuredClone(input) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[path.at(-1) as string] = value;
  return copy;
}

const channels = Object.keys(ipcCalls) as CallChannel[];
const idTaking = channels.flatMap((channel) =>
  idPaths(VALID_INPUTS[channel]).map((path) => ({ channel, path })),
);

describe('ids in the contract', () => {
  it('finds the id-taking channels', () => {
    expect(new Set(idTaking.map((entry) => entry.channel)).size).toBeGreaterThanOrEqual(30);
  });

  it.each(idTaking)('$channel refuses every steering id at $path with a field error', ({ channel, path }) => {
    for (const bad of STEERING_IDS) {
      const result = ipcCalls[channel].input.safeParse(withValueAt(VALID_INPUTS[channel], path, bad));
      expect(result.success, `${channel} took ${JSON.stringify(bad)} at ${path.join('.')}`).toBe(false);
      if (!result.success) expect(result.error.issues[0]?.path.map(String)).toEqual(path);
    }
    for (const good of GOOD_IDS) {
      const result = ipcCalls[channel].input.safeParse(withValueAt(VALID_INPUTS[channel], path, good));
      expect(result.success, `${channel} refused ${good}`).toBe(true);
    }
  });

  it('states the problem without repeating the id', () => {
    expect(resourceIdProblem('..')).toBe('is only dots');
    expect(resourceIdProblem('a/b')).toBe('contains a slash');
    expect(resourceIdProblem('\ud800')).toBe('is not well-formed text');
    expect(resourceIdProblem('a b')).toBe('contains spaces or control characters');
    expect(resourceIdProblem('x'.repeat(129))).toBe('has more than 128 characters');
    expect(resourceIdProblem('mp_1')).toBeNull();
  });
});
