import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ProtocolError } from '../../src-main/api/api-errors';
import { ProxyServiceClient } from '../../src-main/api/proxy-service-client';
import { captureLog, type LocalServer, sendJson, startLocalServer } from './support/api-test-kit';

// Answers the sandbox never gives (extra members, new statuses, broken shapes, odd error bodies),
// served by a tiny local server so that the client's tolerance and strictness are both exercised.

const KEY = 'local-test-key-9f8e7d';

const port = (overrides: Record<string, unknown> = {}) => ({
  id: 'port_1',
  label: 'Berlin',
  status: 'active',
  country: 'DE',
  city: null,
  carrier: 'telekom_de',
  carrierName: 'Telekom',
  networkType: '5G',
  currentIp: '10.1.2.3',
  ipChangedAt: '2026-03-10T11:00:00.000Z',
  endpoint: { host: 'de.example', httpPort: 8000, socksPort: 9000 },
  username: 'user-1',
  password: 'port-password-secret',
  rotation: { mode: 'manual', intervalMinutes: null },
  minRotationIntervalSeconds: 30,
  rotationLink: `http://127.0.0.1/api/v1/v1/mobile/port_1/rotate?key=${KEY}`,
  planId: 'mobile-port-30d',
  autoRenew: true,
  createdAt: '2026-03-01T00:00:00Z',
  expiresAt: '2026-04-01T00:00:00Z',
  ...overrides,
});

let server: LocalServer | null = null;
let client: ProxyServiceClient | null = null;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = null;
  server = null;
});

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
  options: Partial<ConstructorParameters<typeof ProxyServiceClient>[0]> = {},
): Promise<{ server: LocalServer; client: ProxyServiceClient }> {
  server = await startLocalServer(handler);
  client = new ProxyServiceClient({
    baseUrl: `${server.origin}/api/v1`,
    apiKey: KEY,
    sleep: () => Promise.resolve(),
    random: () => 0,
    ...options,
  });
  return { server, client };
}

describe('tolerance', () => {
  it('keeps extra members and passes unknown statuses through the client', async () => {
    const { client } = await serve((_req, res) =>
      sendJson(res, 200, { data: [port({ status: 'maintenance', extra: { nested: 1 } })], cursor: 'abc' }),
    );
    const [first] = await client.listMobilePorts();
    expect(first).toMatchObject({ status: 'maintenance', extra: { nested: 1 } });
  });

  it('accepts any 2xx status for a success', async () => {
    const { client } = await serve((_req, res) => sendJson(res, 200, port({ status: 'provisioning' })));
    await expect(
      client.relocateMobilePort('port_1', { country: 'DE', carrier: 'telekom_de' }),
    ).resolves.toMatchObject({
      status: 'provisioning',
    });
  });
});

describe('ProtocolError', () => {
  it('names the field path and the endpoint, without any value from the answer', async () => {
    const { client } = await serve((_req, res) =>
      sendJson(res, 200, { data: [port(), port(), port({ currentIp: 42 })] }),
    );
    const error = (await client.listMobilePorts().catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.field).toBe('data[2].currentIp');
    expect(error.endpoint).toBe('GET /v1/mobile');
    expect(error.message).toContain('data[2].currentIp');
    expect(error.message).toContain('GET /v1/mobile');
    expect(error.message).not.toContain('port-password-secret');
    expect(error.message).not.toContain(KEY);
    expect(error.toJSON()).toMatchObject({ kind: 'protocol', fields: [{ field: 'data[2].currentIp' }] });
  });

  it('is not retried on a read (the next answer would be as broken)', async () => {
    const { client, server } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data": [');
    });
    const error = (await client.listCoins().catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.field).toBe('(body)');
    expect(error.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('after a write, flags the outcome as unknown: the write most likely happened', async () => {
    const { client } = await serve((_req, res) => sendJson(res, 200, { ip: '1.2.3.4' }));
    const error = (await client.rotateMobilePort('port_1').catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ outcomeUnknown: true, affects: { kind: 'mobilePort', portId: 'port_1' } });
    expect(error.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['previousIp', 'rotatedAt']));
  });

  it('a redirect is reported with the target origin only', async () => {
    const { client } = await serve((_req, res) => {
      res.writeHead(301, { location: `https://moved.example/api/v1/v1/mobile?key=${KEY}` });
      res.end();
    });
    const error = (await client.listMobilePorts().catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toContain('https://moved.example');
    expect(error.message).not.toContain(KEY);
  });

  it('an answer above maxResponseBytes is refused', async () => {
    const { client } = await serve(
      (_req, res) => sendJson(res, 200, { data: [], padding: 'x'.repeat(5000) }),
      {
        maxResponseBytes: 1000,
      },
    );
    const error = (await client.listCountries().catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toContain('larger than 1000 bytes');
  });

  it('a text rotation answer must be one IP', async () => {
    const { client } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('<html>oops</html> page');
    });
    await expect(client.rotateMobilePortViaLink('port_1', { format: 'text' })).rejects.toBeInstanceOf(
      ProtocolError,
    );
  });
});

describe('error bodies', () => {
  it('reads code, message and fields, ignoring other members', async () => {
    const { client } = await serve((_req, res) =>
      sendJson(res, 422, {
        error: {
          code: 'validation_error',
          message: 'label: too long',
          requestId: 'r-1',
          fields: [{ field: 'label', code: 'too_long', message: 'max 60', hint: 'shorten' }, { junk: true }],
        },
      }),
    );
    const error = (await client
      .updateMobilePort('port_1', { label: 'x' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_error',
      message: 'label: too long',
      outcomeUnknown: false,
    });
    expect(error.fields).toEqual([{ field: 'label', code: 'too_long', message: 'max 60' }]);
  });

  it('tolerates a string error, a top-level message, and an HTML page', async () => {
    let answer = 0;
    const { client } = await serve(
      (_req, res) => {
        answer += 1;
        if (answer === 1) sendJson(res, 409, { error: 'Already exists' });
        else if (answer === 2) sendJson(res, 400, { message: 'Bad thing', code: 'bad' });
        else {
          res.writeHead(502, { 'content-type': 'text/html' });
          res.end('<html>Bad gateway</html>');
        }
      },
      { retry: { maxAttempts: 1 } },
    );
    await expect(client.getTopUp('t')).rejects.toMatchObject({
      status: 409,
      code: null,
      message: 'Already exists',
    });
    await expect(client.getTopUp('t')).rejects.toMatchObject({
      status: 400,
      code: 'bad',
      message: 'Bad thing',
    });
    await expect(client.getTopUp('t')).rejects.toMatchObject({
      status: 502,
      code: null,
      message: 'The service had a problem (502 Bad Gateway).',
    });
  });

  it('never repeats a chosen sub-user password when the service echoes it', async () => {
    const { client } = await serve((_req, res) =>
      sendJson(res, 422, {
        error: {
          code: 'validation_error',
          message: 'password: Chosen-Secret-77 is too weak',
          fields: [{ field: 'password', code: 'weak', message: 'Chosen-Secret-77 is too weak' }],
        },
      }),
    );
    const error = (await client
      .createSubUser('sub_1', { label: 'A', password: 'Chosen-Secret-77' })
      .catch((e: unknown) => e)) as ApiError;
    expect(JSON.stringify(error.toJSON())).not.toContain('Chosen-Secret-77');
    expect(error.fieldMessage('password')).toBe('[REDACTED] is too weak');
  });

  it('never repeats the key when the service echoes it', async () => {
    const { client } = await serve((_req, res) =>
      sendJson(res, 401, { error: { code: 'unauthorized', message: `Key ${KEY} is not valid` } }),
    );
    const error = (await client.listMobilePorts().catch((e: unknown) => e)) as ApiError;
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain('[REDACTED]');
  });
});

describe('requests as sent', () => {
  it('a logger that throws does not break the call', async () => {
    const { client } = await serve((_req, res) => sendJson(res, 200, { data: [] }), {
      logger: () => {
        throw new Error('disk full');
      },
    });
    await expect(client.listCoins()).resolves.toEqual([]);
  });

  it('sends the bearer key except to the catalog, JSON bodies, and no body when there is none', async () => {
    const { client, server } = await serve((req, res) => {
      if (req.url?.includes('/catalog/')) sendJson(res, 200, { data: [] });
      else if (req.url?.includes('/topups'))
        sendJson(res, 404, { error: { code: 'not_found', message: 'x' } });
      else sendJson(res, 200, port());
    });
    await client.listCountries({ product: 'mobile' });
    await client.updateMobilePort('port:1@é', { label: 'New' });
    await client.declareTopUpTxid('top_1').catch(() => undefined);

    const [catalog, patch, declare] = server.requests;
    expect(catalog).toMatchObject({ method: 'GET', url: '/api/v1/v1/catalog/countries?product=mobile' });
    expect(catalog!.headers.authorization).toBeUndefined();
    expect(patch).toMatchObject({
      method: 'PATCH',
      url: '/api/v1/v1/mobile/port%3A1%40%C3%A9',
      body: '{"label":"New"}',
    });
    expect(patch!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(patch!.headers['content-type']).toBe('application/json');
    expect(declare).toMatchObject({ method: 'POST', url: '/api/v1/v1/topups/top_1/txid', body: '' });
    expect(declare!.headers['content-type']).toBeUndefined();
    expect(declare!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('upper-cases country codes and asks for text when rotating with format=text', async () => {
    const { client, server } = await serve((req, res) => {
      if (req.url?.includes('/rotate')) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('10.9.8.7\n');
      } else sendJson(res, 200, { data: [] });
    });
    await client.listCities('de', { product: 'mobile' });
    expect(await client.rotateMobilePortViaLink('port_1', { format: 'text' })).toEqual({ ip: '10.9.8.7' });
    expect(server.requests[0]!.url).toBe('/api/v1/v1/catalog/countries/DE/cities?product=mobile');
    expect(server.requests[1]!.url).toBe(`/api/v1/v1/mobile/port_1/rotate?key=${KEY}&format=text`);
    expect(server.requests[1]!.headers.authorization).toBeUndefined();
    expect(server.requests[1]!.headers.accept).toBe('text/plain');
  });

  it('joins paths under each path style', async () => {
    const { server } = await serve((_req, res) => sendJson(res, 200, { data: [] }));
    for (const pathStyle of ['literal', 'strip-v1', 'origin'] as const) {
      const styled = new ProxyServiceClient({ baseUrl: `${server.origin}/api/v1/`, pathStyle, apiKey: KEY });
      await styled.listMobilePorts();
      await styled.close();
    }
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/v1/mobile', '/api/v1/mobile', '/v1/mobile']);
  });

  it('calls a given rotation link as is, without an Authorization header, and checks its shape', async () => {
    const { client, server } = await serve((_req, res) =>
      sendJson(res, 200, {
        ip: '1.1.1.1',
        previousIp: '2.2.2.2',
        rotatedAt: '2026-03-10T12:00:00Z',
        nextRotationAvailableAt: '2026-03-10T12:00:30Z',
      }),
    );
    const link = `${server.origin}/custom/v1/mobile/port_9/rotate?key=other-key-abcdef`;
    const log = captureLog();
    const linked = new ProxyServiceClient({
      baseUrl: `${server.origin}/api/v1`,
      apiKey: null,
      logger: log.logger,
    });
    try {
      await expect(linked.testRotationLink(link)).resolves.toMatchObject({ ip: '1.1.1.1' });
      expect(server.requests[0]!.url).toBe('/custom/v1/mobile/port_9/rotate?key=other-key-abcdef');
      expect(server.requests[0]!.headers.authorization).toBeUndefined();
      expect(log.lines.join('\n')).not.toContain('other-key-abcdef');
      await expect(linked.testRotationLink('ftp://x/rotate')).rejects.toThrow(TypeError);
      await expect(linked.testRotationLink('not a url')).rejects.toThrow(/not a valid URL/);
      await expect(linked.testRotationLink(`${server.origin}/api/v1/v1/mobile`)).rejects.toThrow(TypeError);
    } finally {
      await linked.close();
    }
    expect(client.hasApiKey).toBe(true);
  });

  it('refuses a key with spaces or control characters at construction, without echoing it', () => {
    expect(() => new ProxyServiceClient({ baseUrl: 'http://127.0.0.1/api/v1', apiKey: 'two words' })).toThrow(
      /cannot be sent/,
    );
    let message = '';
    try {
      new ProxyServiceClient({ baseUrl: 'http://127.0.0.1/api/v1', apiKey: 'bad\u0007key' });
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/cannot be sent/);
    expect(message).not.toContain('bad\u0007key');
  });
});

describe('ids that would steer a request', () => {
  it('are refused before anything is sent: no id becomes a path segment of its own', async () => {
    const { client, server } = await serve((_req, res) => sendJson(res, 200, port()));
    for (const id of ['.', '..', '%2e%2e', 'a/b', ' ', 'a b', '\t', '\ud800', 'x?key=1']) {
      await expect(client.updateMobilePort(id, { label: 'New' }), JSON.stringify(id)).rejects.toThrow(
        /portId/,
      );
      await expect(client.deleteSubUser('sub_1', id), JSON.stringify(id)).rejects.toThrow(/subUserId/);
    }
    expect(server.requests).toEqual([]);
  });
});
