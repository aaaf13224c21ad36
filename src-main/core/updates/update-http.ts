/**
 * The feed and the installers travel by the same HTTP rules as the service's calls: the feed
 * through the API client's `HttpTransport` (budgets, per-attempt deadlines, retries with jittered
 * backoff, a size cap), the installer through one streaming request per attempt on the same kind
 * of agent (connect and silence limits, an overall deadline, the same backoff), both through the
 * user's proxy when one is set. Redirects are followed here (release files sit behind one on
 * most hosts) because nothing fetched is believed before its signature or hash is checked.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { Agent, type Dispatcher, interceptors, ProxyAgent, request } from 'undici';
import { ProtocolError } from '../../api/api-errors';
import { HttpTransport, type Sleep } from '../../api/http-transport';
import { backoffDelayMs, DEFAULT_RETRY_OPTIONS, isRetryableStatus } from '../../api/retry-policy';
import { FEED_MAX_BYTES, UpdateRefusedError } from './update-feed';

const CONNECT_MS = 10_000;
/** Longest silence while headers or body come in. */
const SILENCE_MS = 30_000;
/** An installer may take this long at the least, however small... */
const DOWNLOAD_MIN_MS = 10 * 60_000;
/** ...and is given this pace (50 kB/s) at the least beyond that. */
const DOWNLOAD_MIN_BYTES_PER_MS = 50;
const MAX_REDIRECTS = 5;
const USER_AGENT = 'ProxyManager-Updater';

export interface UpdateHttpOptions {
  /** `http://host:port` of the user's proxy, or null for a direct connection. */
  proxyUrl: string | null;
  /** Waits between attempts: the core's clock (tests pass one that returns at once). */
  sleep: Sleep;
  random?: () => number;
  /** Attempts per download; default 3, as interactive calls. */
  maxAttempts?: number;
  /** Injected for tests; default an agent (or a proxy agent) made from `proxyUrl`. */
  dispatcher?: Dispatcher;
}

export interface DownloadProgress {
  receivedBytes: number;
  totalBytes: number;
  /** Whole percent, 0-100. */
  percent: number;
}

export interface DownloadRequest {
  url: string;
  /** From the signed feed: the file must have exactly this size and sha256. */
  size: number;
  sha256: string;
  /** Written (truncated first on each attempt), flushed to disk, left in place when verified. */
  file: string;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
}

/** A fault worth another attempt; `short` when the body ended before the feed's size. */
class RetryableDownloadError extends Error {
  constructor(
    message: string,
    readonly short = false,
  ) {
    super(message);
  }
}

/** The dispatcher every update request uses: direct or through the proxy, redirects followed. */
function updateDispatcher(proxyUrl: string | null): Dispatcher {
  const base = proxyUrl
    ? new ProxyAgent({ uri: proxyUrl, connect: { timeout: CONNECT_MS } })
    : new Agent({ connect: { timeout: CONNECT_MS } });
  return base.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
}

export class UpdateHttp {
  readonly #dispatcher: Dispatcher;
  readonly #transport: HttpTransport;
  readonly #sleep: Sleep;
  readonly #random: () => number;
  readonly #maxAttempts: number;

  constructor(options: UpdateHttpOptions) {
    this.#dispatcher = options.dispatcher ?? updateDispatcher(options.proxyUrl);
    this.#sleep = options.sleep;
    this.#random = options.random ?? Math.random;
    this.#maxAttempts = options.maxAttempts ?? DEFAULT_RETRY_OPTIONS.maxAttempts;
    this.#transport = new HttpTransport({
      dispatcher: this.#dispatcher,
      maxResponseBytes: FEED_MAX_BYTES,
      userAgent: USER_AGENT,
      sleep: this.#sleep,
      random: this.#random,
      timeouts: { connectMs: CONNECT_MS, headersMs: SILENCE_MS, bodyMs: SILENCE_MS },
    });
  }

  /** The feed's text, within the budget of a call someone waits for (or a background one). */
  async fetchFeed(url: string, options: { background: boolean; signal?: AbortSignal }): Promise<string> {
    try {
      return await this.#fetchFeed(url, options);
    } catch (error) {
      // The transport stops reading at the cap; say it in the feed's own terms.
      if (error instanceof ProtocolError && /larger than/.test(error.issues[0]?.message ?? '')) {
        throw new UpdateRefusedError(
          'too_large',
          `The update feed is larger than ${FEED_MAX_BYTES} bytes; it was not read.`,
        );
      }
      throw error;
    }
  }

  #fetchFeed(url: string, options: { background: boolean; signal?: AbortSignal }): Promise<string> {
    return this.#transport.send({
      method: 'GET',
      endpoint: 'GET update feed',
      url,
      bearer: null,
      retry: 'safe',
      budget: options.background ? 'background' : 'interactive',
      lane: options.background ? 'background' : 'interactive',
      signal: options.signal,
      parse: (answer) => answer.text,
    });
  }

  /**
   * Downloads to `request.file`, hashing as it goes; refuses (`UpdateRefusedError`) a file longer
   * or shorter than the feed says or with another sha256. Network faults, silences and 5xx are
   * retried from the start; a refusal is not (the same bytes would come again).
   */
  async download(job: DownloadRequest): Promise<void> {
    let last: RetryableDownloadError | null = null;
    for (let attempt = 1; attempt <= this.#maxAttempts; attempt += 1) {
      try {
        await this.#downloadOnce(job);
        return;
      } catch (error) {
        if (job.signal?.aborted) throw error;
        if (!(error instanceof RetryableDownloadError)) throw error;
        last = error;
      }
      if (attempt < this.#maxAttempts) {
        await this.#sleep(backoffDelayMs(attempt, DEFAULT_RETRY_OPTIONS, this.#random), job.signal);
      }
    }
    if (last?.short) throw new UpdateRefusedError('size_mismatch', last.message);
    throw new Error(
      `The download failed after ${this.#maxAttempts} attempts: ${last?.message ?? 'no attempt'}.`,
    );
  }

  async close(): Promise<void> {
    await this.#dispatcher.close();
  }

  async #downloadOnce(job: DownloadRequest): Promise<void> {
    const deadlineMs = Math.max(DOWNLOAD_MIN_MS, job.size / DOWNLOAD_MIN_BYTES_PER_MS);
    const deadline = AbortSignal.timeout(deadlineMs);
    const signal = job.signal ? AbortSignal.any([job.signal, deadline]) : deadline;
    const handle = await fs.open(job.file, 'w', 0o600);
    try {
      let response: Dispatcher.ResponseData;
      try {
        response = await request(job.url, {
          dispatcher: this.#dispatcher,
          method: 'GET',
          headers: { 'user-agent': USER_AGENT, accept: 'application/octet-stream' },
          headersTimeout: SILENCE_MS,
          bodyTimeout: SILENCE_MS,
          signal,
        });
      } catch (error) {
        if (job.signal?.aborted) throw error;
        throw new RetryableDownloadError(describe(error, deadline.aborted, deadlineMs));
      }
      if (response.statusCode < 200 || response.statusCode >= 300) {
        await response.body.dump().catch(() => undefined);
        const text = `the server answered HTTP ${response.statusCode}`;
        if (isRetryableStatus(response.statusCode)) throw new RetryableDownloadError(text);
        throw new Error(`The download was refused: ${text}.`);
      }
      const hash = createHash('sha256');
      let received = 0;
      let lastPercent = -1;
      try {
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          received += chunk.length;
          if (received > job.size) {
            response.body.destroy();
            throw new UpdateRefusedError(
              'size_mismatch',
              `The download is larger than the ${job.size} bytes the signed feed names; it was stopped and deleted.`,
            );
          }
          hash.update(chunk);
          await handle.write(chunk);
          const percent = Math.floor((received / job.size) * 100);
          if (percent !== lastPercent) {
            lastPercent = percent;
            job.onProgress?.({ receivedBytes: received, totalBytes: job.size, percent });
          }
        }
      } catch (error) {
        if (error instanceof UpdateRefusedError || job.signal?.aborted) throw error;
        const cause = describe(error, deadline.aborted, deadlineMs);
        if (received >= job.size) throw new RetryableDownloadError(cause);
        throw new RetryableDownloadError(
          `The download ended after ${received} of ${job.size} bytes (${cause}); nothing was installed.`,
          true,
        );
      }
      if (received < job.size) {
        throw new RetryableDownloadError(
          `The download ended after ${received} of ${job.size} bytes: it was cut short, and nothing was installed.`,
          true,
        );
      }
      const digest = hash.digest('hex');
      if (digest !== job.sha256) {
        throw new UpdateRefusedError(
          'hash_mismatch',
          `The downloaded file’s sha256 (${digest}) is not the one the signed feed names (${job.sha256}); it was deleted.`,
        );
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

function describe(error: unknown, deadlinePassed: boolean, deadlineMs: number): string {
  if (deadlinePassed) return `it took longer than ${Math.round(deadlineMs / 60_000)} minutes`;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}
