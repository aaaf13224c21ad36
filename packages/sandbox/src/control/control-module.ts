import { BodyReader } from '../http/input-reader';
import { SandboxError } from '../http/sandbox-error';
import type { SandboxModule, SandboxWorld } from '../sandbox-world';
import { isDecimalAmount, normalize } from '../lib/decimal';
import { FaultInjector } from './fault-injector';
import type { RequestLog } from './request-log';

/** Control routes owned by the framework: info, clock, faults, account balance and the request log. */
export function createControlModule(
  world: SandboxWorld,
  faults: FaultInjector,
  log: RequestLog,
): SandboxModule {
  const clockBody = () => ({ now: new Date(world.clock.now()).toISOString(), mode: world.clock.mode });
  return {
    name: 'control',
    routes: [],
    controlRoutes: [
      {
        method: 'GET',
        path: '/info',
        auth: 'public',
        handler: () => ({
          status: 200,
          body: { seed: world.state.seed, latency: world.latency, clockMode: world.clock.mode },
        }),
      },
      { method: 'GET', path: '/clock', auth: 'public', handler: () => ({ status: 200, body: clockBody() }) },
      {
        method: 'POST',
        path: '/clock',
        auth: 'public',
        mutates: true,
        handler: ({ body }) => {
          const reader = BodyReader.of(body, { emptyAllowed: false });
          const seconds = reader.integer('advanceSeconds', { required: true, min: 0, max: 10 * 365 * 86400 });
          reader.throwIfAny();
          world.clock.advance(seconds as number);
          world.settle();
          return { status: 200, body: clockBody() };
        },
      },
      {
        method: 'GET',
        path: '/account',
        auth: 'public',
        handler: () => ({ status: 200, body: { balanceUsd: world.state.account.balanceUsd } }),
      },
      {
        method: 'POST',
        path: '/account',
        auth: 'public',
        mutates: true,
        handler: ({ body }) => {
          const reader = BodyReader.of(body, { emptyAllowed: false });
          const balance = reader.string('balanceUsd', { required: true });
          if (balance !== undefined && !isDecimalAmount(balance, 2)) {
            reader.errors.add(
              'balanceUsd',
              'invalid_format',
              'must be a USD amount with 2 decimals, e.g. "12.50"',
            );
          }
          reader.throwIfAny();
          world.state.account.balanceUsd = normalize(balance as string, 2);
          return { status: 200, body: { balanceUsd: world.state.account.balanceUsd } };
        },
      },
      {
        method: 'POST',
        path: '/faults',
        auth: 'public',
        handler: ({ body }) => {
          const fault = FaultInjector.parse(body);
          faults.add(fault);
          return { status: 201, body: { faults: faults.list() } };
        },
      },
      {
        method: 'GET',
        path: '/faults',
        auth: 'public',
        handler: () => ({ status: 200, body: { faults: faults.list() } }),
      },
      {
        method: 'DELETE',
        path: '/faults',
        auth: 'public',
        handler: () => {
          faults.clear();
          return { status: 204 };
        },
      },
      {
        method: 'GET',
        path: '/requests',
        auth: 'public',
        handler: () => ({ status: 200, body: { data: log.list() } }),
      },
      {
        method: 'DELETE',
        path: '/requests',
        auth: 'public',
        handler: () => {
          log.clear();
          return { status: 204 };
        },
      },
    ],
  };
}

const isLoopbackAddress = (address: string): boolean => {
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
};

/** The control API has no key: it answers only to a client on this machine. */
export const loopbackOnly = (remoteAddress: string | undefined): void => {
  if (remoteAddress === undefined || !isLoopbackAddress(remoteAddress)) {
    throw new SandboxError(403, 'forbidden', 'The control API answers only on loopback');
  }
};

/**
 * Refuses a `Host` that is not a loopback name or address, so that a web page whose domain was
 * re-pointed at 127.0.0.1 (DNS rebinding) cannot drive the control API from a browser.
 */
export const loopbackHostOnly = (host: string | undefined): void => {
  const match = /^(?:\[([^\]]+)\]|([^:]+))(?::\d+)?$/.exec(host ?? '');
  const name = (match?.[1] ?? match?.[2] ?? '').toLowerCase();
  if (name !== 'localhost' && !isLoopbackAddress(name)) {
    throw new SandboxError(403, 'forbidden', 'The control API answers only to a loopback Host');
  }
};
