import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { BaseUrlProbeResult } from '../api';
import { writeFileAtomic } from '../lib/atomic-file';

const PROBES_FILE = 'base-url-probes.json';
/** A base URL is read again after this long: a provider may move its API. */
const REMEMBER_MS = 7 * 24 * 3_600_000;

interface Remembered {
  at: number;
  result: BaseUrlProbeResult;
}

/**
 * The base-URL probe of a key given in the environment, made once per base URL and remembered in
 * the data folder (`base-url-probes.json`, no key in it), so that a script's every command does not
 * ask the service up to three times before its own call. Only a probe that adopted a reading is
 * remembered: a failed one is tried again next time.
 */
export function rememberedProbe(
  dataDir: string,
  probe: (baseUrl: string) => Promise<BaseUrlProbeResult>,
  now: () => number = Date.now,
): (baseUrl: string) => Promise<BaseUrlProbeResult> {
  const file = join(dataDir, PROBES_FILE);
  const read = async (): Promise<Record<string, Remembered>> => {
    try {
      const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
      return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, Remembered>) : {};
    } catch {
      return {};
    }
  };
  return async (baseUrl) => {
    const known = await read();
    const hit = known[baseUrl];
    if (hit && typeof hit.at === 'number' && now() - hit.at < REMEMBER_MS && hit.result?.adopted) {
      return hit.result;
    }
    const result = await probe(baseUrl);
    if (result.adopted !== null) {
      await writeFileAtomic(file, JSON.stringify({ ...known, [baseUrl]: { at: now(), result } }), {
        mode: 0o600,
      }).catch(() => undefined);
    }
    return result;
  };
}
