/**
 * Finds how a provider's base URL and the spec's paths fit together, by asking the public catalog
 * (`GET /v1/catalog/countries`, no key) under each reading of the spec. The connection test shows the
 * result, so the user sees which reading was adopted and why the others were not.
 */
import { Agent } from 'undici';
import { isProxyServiceError, type SerializedProxyServiceError } from './api-errors';
import { joinUrl, normalizeBaseUrl, PATH_STYLES, type PathStyle } from './base-url';
import { DEFAULT_TIMEOUTS, type HttpTransportOptions } from './http-transport';
import { ProxyServiceClient } from './proxy-service-client';

export const PATH_STYLE_DESCRIPTIONS: Readonly<Record<PathStyle, string>> = {
  literal: 'base URL + path as the spec writes it',
  'strip-v1': 'base URL + path without its leading /v1',
  origin: "the server's origin + path",
};

export interface BaseUrlReading {
  style: PathStyle;
  /** The URL that was probed (the public catalog; it carries no key). */
  url: string;
  ok: boolean;
  /** Countries in the answer when it was a valid list. */
  countries: number | null;
  error: SerializedProxyServiceError | null;
  /** One sentence for the UI, e.g. `answered 404: No endpoint at /v1/catalog/countries`. */
  summary: string;
}

export interface BaseUrlProbeResult {
  baseUrl: string;
  /** The first reading that answered with a valid countries list, preferring `literal`, then `strip-v1`. */
  adopted: PathStyle | null;
  readings: BaseUrlReading[];
  /** What to tell the user. */
  summary: string;
}

/** Transport options for the probe; each reading is asked once (no retries), all three at the same time. */
export type ProbeOptions = Omit<HttpTransportOptions, 'retry' | 'redactor'>;

function describeFailure(error: unknown): {
  summary: string;
  serialized: SerializedProxyServiceError | null;
} {
  if (!isProxyServiceError(error)) return { summary: 'failed unexpectedly', serialized: null };
  const serialized = error.toJSON();
  if (serialized.status !== null && serialized.kind !== 'protocol') {
    return { summary: `answered ${serialized.status}: ${serialized.message}`, serialized };
  }
  return { summary: serialized.message, serialized };
}

/**
 * Probes the three readings of `baseUrl` (`InvalidBaseUrlError` when it is not a usable URL) and
 * adopts the first that answers with a valid countries list.
 */
export async function probeBaseUrl(baseUrl: string, options: ProbeOptions = {}): Promise<BaseUrlProbeResult> {
  const base = normalizeBaseUrl(baseUrl);
  const connectMs = options.timeouts?.connectMs ?? DEFAULT_TIMEOUTS.connectMs;
  const ownDispatcher = options.dispatcher ? null : new Agent({ connect: { timeout: connectMs } });
  const dispatcher = options.dispatcher ?? (ownDispatcher as Agent);
  try {
    const readings = await Promise.all(
      PATH_STYLES.map(async (style): Promise<BaseUrlReading> => {
        const client = new ProxyServiceClient({
          ...options,
          dispatcher,
          baseUrl: base,
          pathStyle: style,
          apiKey: null,
          retry: { maxAttempts: 1 },
        });
        const url = joinUrl(base, '/v1/catalog/countries', style);
        try {
          const countries = await client.listCountries();
          return {
            style,
            url,
            ok: true,
            countries: countries.length,
            error: null,
            summary: `answered with ${countries.length} countries`,
          };
        } catch (error) {
          const failure = describeFailure(error);
          return {
            style,
            url,
            ok: false,
            countries: null,
            error: failure.serialized,
            summary: failure.summary,
          };
        }
      }),
    );
    const adopted = readings.find((reading) => reading.ok)?.style ?? null;
    return { baseUrl: base, adopted, readings, summary: summarise(adopted, readings) };
  } finally {
    await ownDispatcher?.close();
  }
}

function summarise(adopted: PathStyle | null, readings: readonly BaseUrlReading[]): string {
  if (adopted === null) {
    const failures = readings.map((r) => `${r.style} (${r.url}): ${r.summary}`).join('; ');
    return `No reading of the base URL reached the catalog. ${failures}`;
  }
  const chosen = readings.find((r) => r.style === adopted) as BaseUrlReading;
  const head = `Using ${PATH_STYLE_DESCRIPTIONS[adopted]} (${chosen.url}).`;
  if (adopted === 'literal') return head;
  const literal = readings.find((r) => r.style === 'literal');
  return literal ? `${head} The literal reading failed: ${literal.summary}` : head;
}
