/**
 * Finds how a provider's base URL and the spec's paths fit together, by asking the public catalog
 * (`GET /v1/catalog/countries`, no key) under each reading of the spec. The connection test shows the
 * result, so the user sees which reading was adopted and why the others were not. A base URL typed
 * without its `/api/v1` is tried with it too.
 */
import { Agent } from 'undici';
import { isProxyServiceError, type SerializedProxyServiceError } from './api-errors';
import { PATH_STYLES, type PathStyle } from '../../src-shared/base-url-rule';
import { joinUrl, normalizeBaseUrl } from './base-url';
import { DEFAULT_TIMEOUTS, type HttpTransportOptions } from './http-transport';
import { ProxyServiceClient } from './proxy-service-client';

const PATH_STYLE_DESCRIPTIONS: Readonly<Record<PathStyle, string>> = {
  literal: 'base URL + path as the spec writes it',
  'strip-v1': 'base URL + path without its leading /v1',
  origin: "the server's origin + path",
};

/** Tried on its own when no reading of the base URL as typed answers: providers print it after the host. */
const COMMON_BASE_SUFFIX = '/api/v1';

interface BaseUrlReading {
  /** The first reading that leads to `url`. */
  style: PathStyle;
  /** Every reading that leads to `url` (`literal` and `origin` coincide on a base without a path). */
  styles: PathStyle[];
  /** The base URL this reading was of: the one typed, or it with `COMMON_BASE_SUFFIX`. */
  baseUrl: string;
  /** The URL that was probed (the public catalog; it carries no key). Unique among the readings. */
  url: string;
  ok: boolean;
  /** Countries in the answer when it was a valid list. */
  countries: number | null;
  error: SerializedProxyServiceError | null;
  /** One sentence for the UI, e.g. `answered 404: No endpoint at /v1/catalog/countries`. */
  summary: string;
}

export interface BaseUrlProbeResult {
  /** The base URL to use: the one typed, normalised, or it with `suffixAdded` when only that answered. */
  baseUrl: string;
  /** The base URL as typed, normalised. */
  requestedBaseUrl: string;
  /** `COMMON_BASE_SUFFIX` when the probe adopted the base URL with it added, else null. */
  suffixAdded: string | null;
  /** The first reading that answered with a valid countries list, preferring `literal`, then `strip-v1`. */
  adopted: PathStyle | null;
  /** One reading per distinct URL probed, in the order they were tried. */
  readings: BaseUrlReading[];
  /** What to tell the user. */
  summary: string;
}

/** Transport options for the probe; each URL is asked once (no retries), the readings of a base at the same time. */
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

/** Whether a base URL's path already ends in the common suffix (then adding it again makes no sense). */
function hasCommonSuffix(base: string): boolean {
  return new URL(base).pathname.replace(/\/+$/, '').endsWith(COMMON_BASE_SUFFIX);
}

/**
 * Probes the readings of `baseUrl` (`InvalidBaseUrlError` when it is not a usable URL) and adopts the
 * first that answers with a valid countries list. When none does and the base URL does not end in
 * `/api/v1`, the readings of `baseUrl + /api/v1` are tried too, and adopted (with the longer base URL)
 * when one answers. Each distinct URL is asked once: readings that coincide share one line.
 */
export async function probeBaseUrl(baseUrl: string, options: ProbeOptions = {}): Promise<BaseUrlProbeResult> {
  const base = normalizeBaseUrl(baseUrl);
  const connectMs = options.timeouts?.connectMs ?? DEFAULT_TIMEOUTS.connectMs;
  const ownDispatcher = options.dispatcher ? null : new Agent({ connect: { timeout: connectMs } });
  const dispatcher = options.dispatcher ?? (ownDispatcher as Agent);
  const readings: BaseUrlReading[] = [];

  const probeBase = async (candidate: string): Promise<PathStyle | null> => {
    const fresh: Array<{ url: string; styles: PathStyle[] }> = [];
    for (const style of PATH_STYLES) {
      const url = joinUrl(candidate, '/v1/catalog/countries', style);
      const earlier = readings.find((reading) => reading.url === url);
      // Already asked under the base as typed: its answer stands, and nothing is adopted from it here.
      if (earlier) continue;
      const same = fresh.find((entry) => entry.url === url);
      if (same) same.styles.push(style);
      else fresh.push({ url, styles: [style] });
    }
    const answered = await Promise.all(
      fresh.map(async ({ url, styles }): Promise<BaseUrlReading> => {
        const style = styles[0] as PathStyle;
        const client = new ProxyServiceClient({
          ...options,
          dispatcher,
          baseUrl: candidate,
          pathStyle: style,
          apiKey: null,
          retry: { maxAttempts: 1 },
        });
        const reading = { style, styles, baseUrl: candidate, url };
        try {
          const countries = await client.listCountries();
          return {
            ...reading,
            ok: true,
            countries: countries.length,
            error: null,
            summary: `answered with ${countries.length} countries`,
          };
        } catch (error) {
          const failure = describeFailure(error);
          return {
            ...reading,
            ok: false,
            countries: null,
            error: failure.serialized,
            summary: failure.summary,
          };
        }
      }),
    );
    readings.push(...answered);
    return answered.find((reading) => reading.ok)?.style ?? null;
  };

  try {
    let adopted = await probeBase(base);
    let used = base;
    if (adopted === null && !hasCommonSuffix(base)) {
      const withSuffix = `${base}${COMMON_BASE_SUFFIX}`;
      const answer = await probeBase(withSuffix);
      if (answer !== null) {
        adopted = answer;
        used = withSuffix;
      }
    }
    const suffixAdded = used === base ? null : COMMON_BASE_SUFFIX;
    return {
      baseUrl: used,
      requestedBaseUrl: base,
      suffixAdded,
      adopted,
      readings,
      summary: summarise(base, used, adopted, readings),
    };
  } finally {
    await ownDispatcher?.close();
  }
}

function summarise(
  requested: string,
  used: string,
  adopted: PathStyle | null,
  readings: readonly BaseUrlReading[],
): string {
  if (adopted === null) return 'No address tried from this base URL answered as a proxy service.';
  const chosen = readings.find((r) => r.baseUrl === used && r.styles.includes(adopted)) as BaseUrlReading;
  const via = `Using ${PATH_STYLE_DESCRIPTIONS[adopted]} (${chosen.url}).`;
  if (used !== requested) {
    return `The service answered at ${used}, not at ${requested}: that is the base URL now. ${via}`;
  }
  if (adopted === 'literal') return via;
  const literal = readings.find((r) => r.baseUrl === used && r.styles.includes('literal'));
  return literal ? `${via} The literal reading failed: ${literal.summary}` : via;
}
