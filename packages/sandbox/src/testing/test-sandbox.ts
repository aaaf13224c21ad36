import { startSandbox, type RunningSandbox, type SandboxOptions } from '../sandbox-server';

/** Fixed start so that dates in tests never depend on the day they run. */
export const TEST_START_TIME = '2026-03-10T12:00:00.000Z';
export const DEMO_KEY = 'sandbox-demo-key';

export interface HttpAnswer<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON body, or null when the body is empty or not JSON. */
  json: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body text (for malformed JSON tests); wins over `body`. */
  rawBody?: string;
  /** Bearer key; default the demo key; `null` sends no Authorization header. */
  key?: string | null;
  headers?: Record<string, string>;
}

/**
 * A sandbox on a free loopback port with a manual clock, no added latency and fixed demo data,
 * plus helpers that speak to it over real HTTP.
 */
export class TestSandbox {
  private constructor(readonly sandbox: RunningSandbox) {}

  static async start(options: SandboxOptions = {}): Promise<TestSandbox> {
    const sandbox = await startSandbox({
      port: 0,
      clock: 'manual',
      latency: 'fast',
      seed: 7,
      startTime: TEST_START_TIME,
      keys: [
        { key: DEMO_KEY, scopes: ['proxies'] },
        { key: 'readonly-key', scopes: [] },
      ],
      ...options,
    });
    return new TestSandbox(sandbox);
  }

  get baseUrl(): string {
    return this.sandbox.baseUrl;
  }

  get controlUrl(): string {
    return this.sandbox.controlUrl;
  }

  /** `path` is the spec's path, e.g. `/v1/mobile`; it is appended to the base URL literally. */
  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<HttpAnswer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? DEMO_KEY : options.key;
    if (key !== null) headers.Authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    return readAnswer<T>(response);
  }

  async control<T = any>(method: string, path: string, body?: unknown): Promise<HttpAnswer<T>> {
    const response = await fetch(`${this.controlUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return readAnswer<T>(response);
  }

  /** Moves the sandbox clock forward (through the control API). */
  async advance(seconds: number): Promise<string> {
    const answer = await this.control<{ now: string }>('POST', '/clock', { advanceSeconds: seconds });
    if (answer.status !== 200) throw new Error(`advance failed: ${answer.text}`);
    return answer.json.now;
  }

  async now(): Promise<string> {
    return (await this.control<{ now: string }>('GET', '/clock')).json.now;
  }

  /** Arms a fault through the control API (`POST /faults`); throws if the sandbox refuses it. */
  async fault(spec: Record<string, unknown>): Promise<void> {
    const answer = await this.control('POST', '/faults', spec);
    if (answer.status !== 201) throw new Error(`fault refused: ${answer.text}`);
  }

  /** The control API's request log (`GET /requests`), oldest first. */
  async requests(): Promise<
    { at: string; method: string; path: string; idempotencyKey: string | null; status: number }[]
  > {
    return (await this.control('GET', '/requests')).json.data;
  }

  close(): Promise<void> {
    return this.sandbox.close();
  }
}

async function readAnswer<T>(response: Response): Promise<HttpAnswer<T>> {
  const text = await response.text();
  let json: unknown;
  try {
    json = text.length > 0 ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, json: json as T, text };
}
