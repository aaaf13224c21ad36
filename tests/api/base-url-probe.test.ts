import { afterEach, describe, expect, it } from 'vitest';
import { InvalidBaseUrlError } from '../../src-main/api/base-url';
import { probeBaseUrl } from '../../src-main/api/base-url-probe';
import { ProxyServiceClient } from '../../src-main/api/proxy-service-client';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { type LocalServer, startLocalServer, startRewritingProxy } from './support/api-test-kit';

// The probe asks the public catalog under each reading of the base URL. The sandbox answers the
// literal reading; small rewriting proxies serve the same API under the two other layouts.

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(): Promise<TestSandbox> {
  const started = await TestSandbox.start();
  cleanups.push(() => started.close());
  return started;
}

async function proxy(target: TestSandbox, rewrite: (path: string) => string | null): Promise<LocalServer> {
  const server = await startRewritingProxy(target, rewrite);
  cleanups.push(() => server.close());
  return server;
}

describe('probeBaseUrl', () => {
  it('adopts the literal reading on the sandbox and says how the others failed', async () => {
    const target = await sandbox();
    const result = await probeBaseUrl(`${target.baseUrl}/`);

    expect(result.adopted).toBe('literal');
    expect(result.baseUrl).toBe(target.baseUrl);
    const byStyle = Object.fromEntries(result.readings.map((r) => [r.style, r]));
    expect(byStyle.literal).toMatchObject({ ok: true, url: `${target.baseUrl}/v1/catalog/countries` });
    expect(byStyle.literal!.countries).toBeGreaterThanOrEqual(40);
    expect(byStyle['strip-v1']).toMatchObject({ ok: false, error: { status: 404, code: 'not_found' } });
    expect(byStyle['strip-v1']!.summary).toMatch(/^answered 404/);
    expect(byStyle.origin).toMatchObject({ ok: false, error: { status: 404 } });
    expect(result.summary).toContain('base URL + path as the spec writes it');
  });

  it('tries the base URL with /api/v1 when it was typed without, adopts it and says so, one line per URL', async () => {
    const target = await sandbox();
    const origin = new URL(target.baseUrl).origin;
    const result = await probeBaseUrl(origin);

    expect(result.adopted).toBe('literal');
    expect(result.baseUrl).toBe(`${origin}/api/v1`);
    expect(result.requestedBaseUrl).toBe(origin);
    expect(result.suffixAdded).toBe('/api/v1');
    expect(result.summary).toContain(`The service answered at ${origin}/api/v1, not at ${origin}`);
    // literal and origin coincide on a base without a path: one line for both; the suffixed origin
    // reading is that same URL again and is not asked twice.
    const urls = result.readings.map((r) => r.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect(result.readings.map((r) => [r.url, r.styles, r.ok])).toEqual([
      [`${origin}/v1/catalog/countries`, ['literal', 'origin'], false],
      [`${origin}/catalog/countries`, ['strip-v1'], false],
      [`${origin}/api/v1/v1/catalog/countries`, ['literal'], true],
      [`${origin}/api/v1/catalog/countries`, ['strip-v1'], false],
    ]);
  });

  it('does not add /api/v1 to a base URL that already ends in it, nor when the base answers', async () => {
    const server = await startLocalServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"code":"not_found","message":"nothing here"}}');
    });
    cleanups.push(() => server.close());
    const result = await probeBaseUrl(`${server.origin}/api/v1`);
    expect(result.adopted).toBeNull();
    expect(result.suffixAdded).toBeNull();
    expect(result.readings).toHaveLength(3);
    expect(result.readings.every((r) => r.baseUrl === `${server.origin}/api/v1`)).toBe(true);

    const target = await sandbox();
    const exact = await probeBaseUrl(target.baseUrl);
    expect(exact.suffixAdded).toBeNull();
    expect(exact.readings).toHaveLength(3);
  });

  it('adopts strip-v1 when the service serves paths without their /v1 under the base', async () => {
    const target = await sandbox();
    // Serves `/api/v1/catalog/...` from the sandbox's `/api/v1/v1/catalog/...`; anything else is an HTML 404.
    const server = await proxy(target, (path) =>
      path.startsWith('/api/v1/') && !path.startsWith('/api/v1/v1/')
        ? `/api/v1/v1/${path.slice('/api/v1/'.length)}`
        : null,
    );
    const result = await probeBaseUrl(`${server.origin}/api/v1`);

    expect(result.adopted).toBe('strip-v1');
    const literal = result.readings.find((r) => r.style === 'literal')!;
    expect(literal).toMatchObject({ ok: false, error: { status: 404 } });
    expect(result.summary).toContain('without its leading /v1');
    expect(result.summary).toContain('The literal reading failed');

    // A client with the adopted style then works for authenticated calls too.
    const client = new ProxyServiceClient({
      baseUrl: result.baseUrl,
      pathStyle: result.adopted!,
      apiKey: DEMO_KEY,
    });
    cleanups.push(() => client.close());
    expect((await client.listMobilePorts()).length).toBeGreaterThan(0);
  });

  it('adopts origin when the service serves /v1 at the root of the host', async () => {
    const target = await sandbox();
    const server = await proxy(target, (path) => (path.startsWith('/v1/') ? `/api/v1${path}` : null));
    const result = await probeBaseUrl(`${server.origin}/api/v1`);

    expect(result.adopted).toBe('origin');
    expect(result.readings.find((r) => r.style === 'origin')).toMatchObject({
      ok: true,
      url: `${server.origin}/v1/catalog/countries`,
    });
  });

  it('does not adopt an answer that is not a countries list', async () => {
    const server = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>Welcome</html>');
    });
    cleanups.push(() => server.close());
    const result = await probeBaseUrl(`${server.origin}/api/v1`);

    expect(result.adopted).toBeNull();
    expect(result.readings.every((r) => r.error?.kind === 'protocol')).toBe(true);
    expect(result.summary).toMatch(/^No address tried from this base URL answered as a proxy service/);
  });

  it('reports unreachable hosts per reading, and refuses unusable base URLs', async () => {
    const server = await startLocalServer(() => undefined);
    await server.close();
    const result = await probeBaseUrl(`${server.origin}/api/v1`);
    expect(result.adopted).toBeNull();
    expect(result.readings.map((r) => r.error?.kind)).toEqual(['network', 'network', 'network']);
    // One attempt per reading: the probe never retries.
    expect(result.readings.every((r) => r.error?.attempts === 1)).toBe(true);

    await expect(probeBaseUrl('ftp://host/api/v1')).rejects.toBeInstanceOf(InvalidBaseUrlError);
  });
});
