import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src-main/api';
import { AppError } from '../../src-main/core/errors';
import {
  type CallChannel,
  type ContractHandlers,
  ipcCalls,
  SCOPES,
  type Scope,
} from '../../src-shared/contract';
import { createGuardedDispatcher } from '../../src-main/dispatch/guarded-dispatcher';
import { VALID_INPUTS } from '../support/valid-inputs';

/** Shapes no channel accepts. */
const MALFORMED: unknown[] = [
  42,
  'text',
  true,
  null,
  [],
  [{ profileId: 'p1' }],
  { unexpectedMember: 1 },
  JSON.parse('{"__proto__": {"polluted": true}, "profileId": 7}'),
  { profileId: 'x'.repeat(10_000), apiKey: 'k', name: '', baseUrl: 'javascript:alert(1)' },
  { countryCode: 'us' },
  { page: -1 },
  { theme: 'neon' },
];

const channels = Object.keys(ipcCalls) as CallChannel[];

function recordingHandlers(): { handlers: ContractHandlers; calls: string[] } {
  const calls: string[] = [];
  const handlers = Object.fromEntries(
    channels.map((channel) => [
      channel,
      (input: unknown) => {
        calls.push(channel);
        return Promise.resolve({ echoed: input });
      },
    ]),
  ) as unknown as ContractHandlers;
  return { handlers, calls };
}

describe('guarded dispatcher over the whole contract', () => {
  it('has a valid example for every channel, and each one reaches its handler parsed', async () => {
    expect(Object.keys(VALID_INPUTS).sort()).toEqual([...channels].sort());
    const { handlers, calls } = recordingHandlers();
    const dispatch = createGuardedDispatcher({ handlers, isTrustedSender: () => true, log: () => undefined });
    for (const channel of channels) {
      const result = await dispatch('ui', channel, VALID_INPUTS[channel]);
      expect(result, channel).toMatchObject({ ok: true });
    }
    expect(calls).toEqual(channels);
  });

  it('answers every malformed input on every channel with a typed error and never calls the handler', async () => {
    const { handlers, calls } = recordingHandlers();
    const log = vi.fn();
    const dispatch = createGuardedDispatcher({ handlers, isTrustedSender: () => true, log });
    for (const channel of channels) {
      for (const input of MALFORMED) {
        const result = await dispatch('ui', channel, input);
        expect(result.ok, `${channel} accepted ${JSON.stringify(input)?.slice(0, 60)}`).toBe(false);
        if (!result.ok) {
          expect(result.error.code).toBe('invalid_input');
          expect(result.error.message.length).toBeGreaterThan(0);
          expect(result.error.fields?.length).toBeGreaterThan(0);
        }
      }
    }
    expect(calls).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports the bad field by name with the schema message', async () => {
    const { handlers } = recordingHandlers();
    const dispatch = createGuardedDispatcher({ handlers, isTrustedSender: () => true, log: () => undefined });
    const result = await dispatch('ui', 'profiles:create', {
      name: '',
      baseUrl: 'ftp://example.com',
      apiKey: 'has space',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.fields?.map((f) => f.field).sort()).toEqual(['apiKey', 'baseUrl', 'name']);
    expect(JSON.stringify(result.error)).not.toContain('has space');
  });

  it('refuses unknown channels, including prototype members', async () => {
    const { handlers, calls } = recordingHandlers();
    const dispatch = createGuardedDispatcher({ handlers, isTrustedSender: () => true, log: () => undefined });
    for (const channel of ['ports:explode', 'constructor', '__proto__', 'toString', '']) {
      expect(await dispatch('ui', channel, undefined)).toEqual({
        ok: false,
        error: { code: 'unknown_channel', message: 'Unknown call.' },
      });
    }
    expect(calls).toEqual([]);
  });

  it('refuses an untrusted sender before looking at anything else', async () => {
    const { handlers, calls } = recordingHandlers();
    const log = vi.fn();
    const dispatch = createGuardedDispatcher({ handlers, isTrustedSender: (s) => s === 'ui', log });
    const result = await dispatch('iframe', 'app:getState', undefined);
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(calls).toEqual([]);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('untrusted sender'));
  });

  it('turns handler failures into typed errors and keeps secrets out of them', async () => {
    const { handlers } = recordingHandlers();
    const secret = 'Bearer sk-live-abcdef123456';
    const failing: ContractHandlers = {
      ...handlers,
      'app:getState': () => Promise.reject(new Error(`boom with ${secret}`)),
      'ports:list': () =>
        Promise.reject(
          new ApiError(
            { status: 429, code: 'rotation_too_soon', message: 'Too soon', retryAfterMs: 12_000 },
            {
              endpoint: 'POST /v1/mobile/{portId}/rotate',
              attempts: 1,
              outcomeUnknown: false,
              affects: null,
              idempotencyKey: null,
            },
          ),
        ),
      'demo:start': () => Promise.reject(new AppError('not_configured', 'No profile is active.')),
      'demo:stop': () => {
        throw new TypeError('synchronous throw');
      },
    };
    const log = vi.fn();
    const dispatch = createGuardedDispatcher({ handlers: failing, isTrustedSender: () => true, log });

    const internal = await dispatch('ui', 'app:getState', undefined);
    expect(internal).toEqual({
      ok: false,
      error: {
        code: 'internal_error',
        message: 'Something went wrong inside the app. Details are in the log.',
      },
    });
    const logged = log.mock.calls.map((c) => String(c[0])).join('\n');
    expect(logged).toContain('boom');
    expect(logged).not.toContain('sk-live-abcdef123456');

    expect(await dispatch('ui', 'ports:list', undefined)).toEqual({
      ok: false,
      error: { code: 'rotation_too_soon', message: 'Too soon', retryAfterMs: 12_000 },
    });
    expect(await dispatch('ui', 'demo:start', undefined)).toEqual({
      ok: false,
      error: { code: 'not_configured', message: 'No profile is active.' },
    });
    expect(await dispatch('ui', 'demo:stop', undefined)).toMatchObject({
      ok: false,
      error: { code: 'internal_error' },
    });
  });
});

describe('scopes', () => {
  it('every channel declares one of the scopes', () => {
    for (const channel of channels) expect(SCOPES, channel).toContain(ipcCalls[channel].scope);
  });

  it('puts every channel that answers a secret as a whole behind `secrets`, and money behind `spend`', () => {
    const needing = (scope: Scope) => channels.filter((channel) => ipcCalls[channel].scope === scope).sort();
    expect(needing('secrets')).toEqual([
      'ports:revealRotationLink',
      'subscriptions:buildProxyString',
      'subscriptions:exportCredentials',
    ]);
    expect(needing('spend')).toEqual(['topups:create', 'topups:declareTxid', 'topups:simulatePayment']);
    // Alert channels: adding one answers a webhook's signing secret once and says where alerts leave the machine.
    expect(
      needing('admin').every((channel) =>
        /^(profiles|connection|demo|automation|updates):|^alertRouting:(addChannel|removeChannel)$/.test(
          channel,
        ),
      ),
    ).toBe(true);
  });

  it('refuses every call outside the grant with scope_denied, naming the scope, before the input or handler', async () => {
    for (const scope of SCOPES) {
      const { handlers, calls } = recordingHandlers();
      const grant = new Set(SCOPES.filter((held) => held !== scope));
      const dispatch = createGuardedDispatcher({
        handlers,
        isTrustedSender: () => true,
        log: () => undefined,
        grantOf: () => grant,
      });
      for (const channel of channels) {
        // Malformed input: the scope is checked first, so a refused caller learns nothing of the schema.
        const result = await dispatch('cli', channel, { unexpectedMember: 1 });
        if (ipcCalls[channel].scope !== scope) continue;
        expect(result, channel).toEqual({
          ok: false,
          error: {
            code: 'scope_denied',
            message: `This session may not call ${channel}: it needs the "${scope}" scope.`,
            scope,
          },
        });
      }
      expect(calls).toEqual([]);
    }
  });

  it('blanks passwords and rotation links at any depth for a session without `secrets`', async () => {
    const port = { id: 'mp_1', password: 'pw-1', credentials: { password: 'pw-2' }, hasRotationLink: true };
    const subUsers = { subUsers: [{ id: 'su_1', password: 'pw-3', rotationLink: 'https://x/rotate?key=k' }] };
    const handlers = {
      ...recordingHandlers().handlers,
      'ports:get': () => Promise.resolve(port),
      'subscriptions:subUsers': () => Promise.resolve(subUsers),
    } as unknown as ContractHandlers;
    const readOnly = createGuardedDispatcher({
      handlers,
      isTrustedSender: () => true,
      log: () => undefined,
      grantOf: () => new Set<Scope>(['read']),
    });
    expect(await readOnly('cli', 'ports:get', { portId: 'mp_1' })).toEqual({
      ok: true,
      value: { id: 'mp_1', password: null, credentials: { password: null }, hasRotationLink: true },
    });
    const answer = await readOnly('cli', 'subscriptions:subUsers', { subscriptionId: 'sub_1' });
    expect(JSON.stringify(answer)).not.toMatch(/pw-3|key=k/);

    const full = createGuardedDispatcher({ handlers, isTrustedSender: () => true, log: () => undefined });
    expect(await full('ui', 'ports:get', { portId: 'mp_1' })).toEqual({ ok: true, value: port });
  });
});
