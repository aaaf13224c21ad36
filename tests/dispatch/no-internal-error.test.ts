import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { type CallChannel, ipcCalls } from '../../src-shared/contract';
import { createHarness, type Harness } from '../core/support/core-harness';
import { VALID_INPUTS } from '../support/valid-inputs';

// Property: whatever input a channel's schema accepts, the app answers a value or a typed error,
// never `internal_error`. Inputs are the valid example of each channel with its strings, numbers
// and arrays replaced by awkward values from a seeded generator, kept only when the schema takes them.

const SEED = 20261126;
const CASES_PER_CHANNEL = 12;

/** Mulberry32: small, seeded, the same sequence on every machine. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AWKWARD_STRINGS = [
  '',
  ' ',
  '.',
  '..',
  '%2e%2e',
  'a/b',
  '\t',
  '\n',
  '\ud800',
  '\u202e',
  '🙂',
  'é',
  '?key=abc',
  'x'.repeat(129),
  '0',
  '-1',
  '1e999',
  'null',
  '__proto__',
  'constructor',
  'US',
  'tron',
  'USDT',
  '2026-02-30',
  '9999-12-31',
  '10000.00',
  '10000.01',
  '0.00',
  '0.001',
  '1.5',
  'mp_1',
  'sub_1',
  'https://x.invalid/',
  '*/5 * * * *',
];
const AWKWARD_NUMBERS = [0, -1, 1, 2, 30, 59, 60, 1_000, 10_000, 2 ** 31, Number.MAX_SAFE_INTEGER, 0.5];

function mutate(value: unknown, random: () => number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  if (typeof value === 'string') return random() < 0.7 ? pick(AWKWARD_STRINGS) : value;
  if (typeof value === 'number') return random() < 0.7 ? pick(AWKWARD_NUMBERS) : value;
  if (typeof value === 'boolean') return random() < 0.5 ? !value : value;
  if (Array.isArray(value)) {
    const items = value.map((item) => mutate(item, random));
    if (random() < 0.2) return [];
    if (random() < 0.2) return [...items, ...items];
    return items;
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(() => random() > 0.1)
        .map(([key, member]) => [key, mutate(member, random)]),
    );
  }
  return value;
}

// Channels whose effect would end the run itself rather than answer.
const LEFT_OUT = new Set<CallChannel>(['demo:start', 'demo:stop', 'profiles:delete', 'profiles:removeKey']);

let sandbox: TestSandbox;
let harness: Harness;
let mainProfileId: string;

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  harness = await createHarness(sandbox);
  await harness.core.start({});
  const state = await harness.call('profiles:create', {
    name: 'Main',
    baseUrl: sandbox.baseUrl,
    apiKey: DEMO_KEY,
  });
  mainProfileId = state.activeProfile?.id ?? '';
});

afterAll(async () => {
  await harness.core.dispose();
  await sandbox.close();
});

describe('no internal error for input the contract accepts', () => {
  const channels = (Object.keys(ipcCalls) as CallChannel[]).filter((channel) => !LEFT_OUT.has(channel));

  it.each(channels)('%s', async (channel) => {
    // The valid inputs of profiles:create and connection:save make api.example.com the active
    // account; each channel starts on the sandbox's again, so none waits on a host nobody answers.
    if ((await harness.call('app:getState')).activeProfile?.id !== mainProfileId)
      await harness.call('profiles:switch', { profileId: mainProfileId });
    const random = seeded(SEED + channel.length * 7919 + channel.charCodeAt(channel.length - 1));
    let accepted = 0;
    for (let attempt = 0; attempt < CASES_PER_CHANNEL * 4 && accepted < CASES_PER_CHANNEL; attempt += 1) {
      const input = attempt === 0 ? VALID_INPUTS[channel] : mutate(VALID_INPUTS[channel], random);
      if (!ipcCalls[channel].input.safeParse(input).success) continue;
      accepted += 1;
      const result = await harness.dispatch(channel, input);
      if (!result.ok) {
        expect(
          result.error.code,
          `${channel} ${JSON.stringify(input)?.slice(0, 200)}: ${result.error.message}`,
        ).not.toBe('internal_error');
      }
    }
    expect(accepted).toBeGreaterThan(0);
  });
});
