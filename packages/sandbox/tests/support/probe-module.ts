// Through the testing entry, as any extra module outside the package would be written.
import {
  BodyReader,
  paginate,
  QueryReader,
  readPageRequest,
  type SandboxModule,
  type SandboxWorld,
} from '../../src/testing';

/**
 * Routes that exist only in framework tests (mounted with `extraModules: [probeModule]`), so that
 * auth, scopes, validation, faults and persistence can be tested without depending on a domain.
 * Its state is the id counter `probe` (persisted with everything else).
 */
export function probeModule(world: SandboxWorld): SandboxModule {
  const items = Array.from({ length: 45 }, (_, i) => ({ n: i + 1 }));
  return {
    name: 'probe',
    routes: [
      {
        method: 'GET',
        path: '/v1/__probe/public',
        auth: 'public',
        handler: () => ({ status: 200, body: {} }),
      },
      {
        method: 'GET',
        path: '/v1/__probe/private',
        auth: 'bearer',
        handler: ({ auth }) => ({ status: 200, body: { scopes: [...(auth?.scopes ?? [])] } }),
      },
      {
        method: 'GET',
        path: '/v1/__probe/scoped',
        auth: 'bearer',
        scope: 'proxies',
        handler: () => ({ status: 200, body: { ok: true } }),
      },
      {
        method: 'GET',
        path: '/v1/__probe/link/:name',
        auth: 'query-key',
        scope: 'proxies',
        handler: ({ params }) => ({ status: 200, text: `hello ${params.name ?? ''}` }),
      },
      {
        method: 'GET',
        path: '/v1/__probe/counter',
        auth: 'bearer',
        handler: () => ({ status: 200, body: { count: world.state.ids.probe ?? 0 } }),
      },
      {
        method: 'POST',
        path: '/v1/__probe/counter',
        auth: 'bearer',
        mutates: true,
        handler: () => ({ status: 201, body: { id: world.newId('probe'), count: world.state.ids.probe } }),
      },
      {
        method: 'POST',
        path: '/v1/__probe/echo',
        auth: 'bearer',
        handler: ({ body, headers }) => ({
          status: 200,
          body: { body: body ?? null, idempotencyKey: headers['idempotency-key'] ?? null },
        }),
      },
      {
        method: 'POST',
        path: '/v1/__probe/validate',
        auth: 'bearer',
        handler: ({ body }) => {
          const reader = BodyReader.of(body, { emptyAllowed: false });
          const label = reader.string('label', { required: true, max: 60 });
          const count = reader.integer('count', { min: 0 });
          const purchase = reader.object('purchase');
          const planId = purchase?.string('planId', { required: true, min: 1 });
          const quantity = purchase?.integer('quantity', { required: true, min: 1 });
          reader.throwIfAny();
          return { status: 200, body: { label, count, planId, quantity } };
        },
      },
      {
        method: 'GET',
        path: '/v1/__probe/items',
        auth: 'public',
        handler: ({ query }) => {
          const reader = new QueryReader(query);
          const request = readPageRequest(reader);
          reader.throwIfAny();
          return { status: 200, body: paginate(items, request) };
        },
      },
      {
        method: 'POST',
        path: '/v1/__probe/slow',
        auth: 'bearer',
        handler: async () => {
          await world.simulateDelay(5_000, 15_000);
          return { status: 200, body: { done: true } };
        },
      },
      {
        method: 'GET',
        path: '/v1/__probe/boom',
        auth: 'public',
        handler: () => {
          throw new Error('probe exploded');
        },
      },
    ],
  };
}
