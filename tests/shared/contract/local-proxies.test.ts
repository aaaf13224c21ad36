import { describe, expect, it } from 'vitest';
import { ipcCalls } from '../../../src-shared/contract';
import { isLoopbackAddress } from '../../../src-shared/contract/local-proxies';

const add = ipcCalls['localProxies:add'];
const update = ipcCalls['localProxies:update'];
const upstream = { kind: 'port', portId: 'mp_1' } as const;
const login = { username: 'tool', password: 'long-enough-1' };

const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.success ? [] : (result.error?.issues.map((issue) => issue.path.join('.')) ?? []);

describe('localProxies contract', () => {
  it('reads with `read` and changes with `manage`', () => {
    expect(ipcCalls['localProxies:list'].scope).toBe('read');
    for (const channel of [
      'localProxies:add',
      'localProxies:update',
      'localProxies:remove',
      'localProxies:start',
      'localProxies:stop',
    ] as const) {
      expect(ipcCalls[channel].scope).toBe('manage');
    }
  });

  it('listens on 127.0.0.1 unless told otherwise, and starts at once', () => {
    expect(add.input.parse({ upstream })).toEqual({
      upstream,
      bindAddress: '127.0.0.1',
      allowNetwork: false,
      closeOnRotation: false,
      start: true,
    });
  });

  it('takes an address other computers reach only with “allow network” and a local login', () => {
    expect(issues(add.input.safeParse({ upstream, bindAddress: '0.0.0.0' }))).toEqual([
      'allowNetwork',
      'auth',
    ]);
    expect(
      issues(add.input.safeParse({ upstream, bindAddress: '192.168.1.20', allowNetwork: true })),
    ).toEqual(['auth']);
    expect(
      add.input.safeParse({ upstream, bindAddress: '0.0.0.0', allowNetwork: true, auth: login }).success,
    ).toBe(true);
    expect(add.input.safeParse({ upstream, bindAddress: '::1' }).success).toBe(true);
    expect(issues(add.input.safeParse({ upstream, bindAddress: 'localhost' }))).toEqual(['bindAddress']);
  });

  it('refuses privileged ports, short local passwords and a colon in the user name', () => {
    expect(issues(add.input.safeParse({ upstream, listenPort: 80 }))).toEqual(['listenPort']);
    expect(issues(add.input.safeParse({ upstream, listenPort: 65_536 }))).toEqual(['listenPort']);
    expect(
      issues(add.input.safeParse({ upstream, auth: { username: 'a:b', password: 'long-enough-1' } })),
    ).toEqual(['auth.username']);
    expect(issues(add.input.safeParse({ upstream, auth: { username: 'tool', password: 'short' } }))).toEqual([
      'auth.password',
    ]);
  });

  it('takes a subscription with the proxy string builder’s targeting, and never credentials', () => {
    const subscription = {
      kind: 'subscription',
      subscriptionId: 'sub_1',
      subUserId: 'su_1',
      targeting: { country: 'US', state: 'california', session: 's1' },
    };
    expect(add.input.safeParse({ upstream: subscription }).success).toBe(true);
    expect(add.input.safeParse({ upstream: { ...subscription, password: 'x' } }).success).toBe(false);
    expect(add.input.safeParse({ upstream: { ...upstream, username: 'u' } }).success).toBe(false);
  });

  it('needs something to change in an update', () => {
    expect(update.input.safeParse({ id: 'lp-1' }).success).toBe(false);
    expect(update.input.safeParse({ id: 'lp-1', auth: null }).success).toBe(true);
  });

  it('knows which addresses are loopback', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1'].every(isLoopbackAddress)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.0.1', '10.0.0.1', 'localhost'].some(isLoopbackAddress)).toBe(false);
  });
});
