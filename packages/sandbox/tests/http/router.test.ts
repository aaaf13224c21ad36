import { describe, expect, it } from 'vitest';
import { type RouteDefinition, Router } from '../../src/http/router';
import { SandboxError } from '../../src/http/sandbox-error';

const route = (method: RouteDefinition['method'], path: string): RouteDefinition => ({
  method,
  path,
  auth: 'public',
  handler: () => ({ status: 200 }),
});

function thrown(fn: () => unknown): SandboxError {
  try {
    fn();
  } catch (error) {
    if (error instanceof SandboxError) return error;
    throw error;
  }
  throw new Error('nothing thrown');
}

describe('Router', () => {
  const router = new Router().add([
    route('GET', '/v1/mobile'),
    route('GET', '/v1/mobile/:portId'),
    route('PATCH', '/v1/mobile/:portId'),
    route('POST', '/v1/mobile/:portId/rotate'),
    route('GET', '/v1/mobile/:portId/rotate'),
  ]);

  it('matches literal paths and captures parameters', () => {
    expect(router.match('GET', '/v1/mobile').params).toEqual({});
    const match = router.match('POST', '/v1/mobile/port_1/rotate');
    expect(match.definition.method).toBe('POST');
    expect(match.params).toEqual({ portId: 'port_1' });
  });

  it('decodes percent-encoded parameters', () => {
    expect(router.match('GET', '/v1/mobile/a%20b%2Fc').params).toEqual({ portId: 'a b/c' });
  });

  it('answers 404 not_found for a parameter that is not valid percent-encoding', () => {
    expect(thrown(() => router.match('GET', '/v1/mobile/%E0%A4%A')).status).toBe(404);
  });

  it('answers 404 not_found when no pattern has the path', () => {
    const error = thrown(() => router.match('GET', '/v1/mobile/port_1/nothing'));
    expect([error.status, error.code]).toEqual([404, 'not_found']);
  });

  it('answers 405 method_not_allowed with every method the path has in Allow', () => {
    const error = thrown(() => router.match('DELETE', '/v1/mobile/port_1'));
    expect([error.status, error.code]).toEqual([405, 'method_not_allowed']);
    expect(error.headers).toEqual({ Allow: 'GET, PATCH' });
  });

  it('is case-sensitive in literal segments', () => {
    expect(thrown(() => router.match('GET', '/v1/Mobile')).status).toBe(404);
  });

  it('refuses the same method and pattern twice', () => {
    expect(() => new Router().add([route('GET', '/a/:x'), route('GET', '/a/:x')])).toThrow(/duplicate route/);
  });
});
