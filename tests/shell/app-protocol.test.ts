import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_RENDERER_URL,
  APP_SCHEME_PRIVILEGES,
  createAppProtocolHandler,
} from '../../src-main/shell/app-protocol';

const CSP = "default-src 'self'; script-src 'self'";
let base: string;
let root: string;
let handle: (request: Request) => Promise<Response>;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'pm-app-protocol-'));
  root = join(base, 'out', 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Proxy Manager</title>');
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'blob.bin'), Buffer.from([1, 2, 3]));
  writeFileSync(join(base, 'out', 'secret.txt'), 'do not serve');
  writeFileSync(join(base, 'secret.txt'), 'do not serve');
  symlinkSync(join(base, 'secret.txt'), join(root, 'assets', 'link.txt'));
  handle = createAppProtocolHandler({ rootDir: root, contentSecurityPolicy: CSP });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => handle(new Request(url, { method }));

describe('app:// protocol handler', () => {
  it('serves the page with the CSP as a response header, nosniff and its content type', async () => {
    for (const url of [APP_RENDERER_URL, 'app://renderer/', 'app://renderer/index.html#/catalog']) {
      const response = await get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-security-policy')).toBe(CSP);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain('<title>Proxy Manager</title>');
    }
  });

  it('serves built assets with their types, unknown extensions as octet-stream, HEAD without a body', async () => {
    const script = await get('app://renderer/assets/index-abc.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-security-policy')).toBe(CSP);
    expect(await script.text()).toBe('console.log(1)');
    const blob = await get('app://renderer/assets/blob.bin');
    expect(blob.headers.get('content-type')).toBe('application/octet-stream');
    const head = await get('app://renderer/assets/index-abc.js', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('14');
    expect(await head.text()).toBe('');
  });

  it.each([
    ['encoded ../', 'app://renderer/..%2fsecret.txt'],
    ['encoded ../../', 'app://renderer/assets/..%2f..%2f..%2fsecret.txt'],
    ['encoded dots and slash', 'app://renderer/%2e%2e%2f%2e%2e%2fsecret.txt'],
    ['a backslash', 'app://renderer/..%5csecret.txt'],
    ['a NUL byte', 'app://renderer/index.html%00.js'],
    ['a symlink pointing outside', 'app://renderer/assets/link.txt'],
  ])('refuses traversal through %s (403, with the CSP)', async (_name, url) => {
    const response = await get(url);
    expect(response.status).toBe(403);
    expect(response.headers.get('content-security-policy')).toBe(CSP);
    expect(await response.text()).not.toContain('do not serve');
  });

  it('resolves plain dot segments inside the root (the URL parser already does) and finds nothing there', async () => {
    const response = await get('app://renderer/assets/../../secret.txt');
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('do not serve');
  });

  it('answers 404 for a missing file, a folder and another host; 405 for other methods; 400 for bad escapes', async () => {
    expect((await get('app://renderer/missing.js')).status).toBe(404);
    expect((await get('app://renderer/assets')).status).toBe(404);
    expect((await get('app://evil/index.html')).status).toBe(404);
    const post = await get(APP_RENDERER_URL, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await get('app://renderer/%E0%A4%A')).status).toBe(400);
  });

  it('registers the scheme as a standard, secure origin that does not bypass the CSP', () => {
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({ standard: true, secure: true });
    expect(APP_SCHEME_PRIVILEGES).not.toHaveProperty('bypassCSP');
    expect(new URL(APP_RENDERER_URL).host).toBe('renderer');
  });
});
