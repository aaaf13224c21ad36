import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLACE_IDS, placeNamesOf } from '../../src-main/cli/place-names';
import { DEMO_KEY, TestSandbox } from '@proxy-manager/sandbox/testing';
import { runCapture, tempDataDir } from './support/cli-harness';

// The CLI's text names places as the catalog does (`US` → United States, `los_angeles` → Los
// Angeles), against a real sandbox; `--json` keeps the ids.

let sandbox: TestSandbox;
let env: Record<string, string>;
let ports: { id: string; country: string; city: string | null; carrier: string; carrierName: string }[];
let countryNames: Map<string, string>;

beforeAll(async () => {
  sandbox = await TestSandbox.start();
  ports = (await sandbox.request('GET', '/v1/mobile')).json.data;
  countryNames = new Map(
    (await sandbox.request('GET', '/v1/catalog/countries')).json.data.map(
      (country: { code: string; name: string }) => [country.code, country.name],
    ),
  );
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(() => {
  env = {
    PROXY_MANAGER_DATA_DIR: tempDataDir(),
    PROXY_MANAGER_API_KEY: DEMO_KEY,
    PROXY_MANAGER_BASE_URL: sandbox.baseUrl,
  };
});

async function cityName(country: string, id: string): Promise<string> {
  const cities = (await sandbox.request('GET', `/v1/catalog/countries/${country}/cities`)).json.data as {
    id: string;
    name: string;
  }[];
  const city = cities.find((candidate) => candidate.id === id);
  if (!city) throw new Error(`The sandbox's catalog has no city ${id} in ${country}`);
  return city.name;
}

describe('catalog names in the CLI’s text', () => {
  it('ports list names each port’s country and city; --json keeps the ids', async () => {
    const text = await runCapture(['ports', 'list'], env);
    expect(text.code).toBe(0);
    for (const port of ports) {
      const line = text.stdout.split('\n').find((row) => row.startsWith(`${port.id} `)) ?? '';
      const country = countryNames.get(port.country) ?? '';
      expect(country).not.toBe(port.country);
      const place = port.city ? `${country} / ${await cityName(port.country, port.city)}` : country;
      expect(line).toContain(place);
    }
    expect(text.stdout).not.toMatch(/ US \/ /);
    expect(text.stdout).not.toMatch(/\b[a-z]+_[a-z_]+\b/);

    const json = await runCapture(['ports', 'list', '--json', 'id,country,city'], env);
    expect(json.json()).toEqual(
      ports.map((port) => ({ id: port.id, country: port.country, city: port.city })),
    );
  });

  it('ports show names the country, city and carrier; --json keeps the ids', async () => {
    const port = ports.find((candidate) => candidate.city !== null) ?? ports[0]!;
    const shown = await runCapture(['ports', 'show', port.id], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^country +${countryNames.get(port.country)}$`, 'm'));
    expect(shown.stdout).toMatch(new RegExp(`^city +${await cityName(port.country, port.city ?? '')}$`, 'm'));
    expect(shown.stdout).toMatch(new RegExp(`^carrier +${port.carrierName}$`, 'm'));
    const json = await runCapture(['ports', 'show', port.id, '--json', 'country,city,carrier'], env);
    expect(json.json()).toEqual({ country: port.country, city: port.city, carrier: port.carrier });
  });

  it('ports usage names the countries of its split', async () => {
    const usage = await runCapture(['ports', 'usage', ports[0]!.id], env);
    expect(usage.code).toBe(0);
    const split = usage.stdout.split(/^COUNTRY +TRAFFIC$/m)[1] ?? '';
    expect(split.trim().length).toBeGreaterThan(0);
    for (const line of split.trim().split('\n')) expect(line).not.toMatch(/^[A-Z]{2} /);
  });

  it('shows the ids when the catalog cannot be read, and asks nothing when there is no place', async () => {
    const calls: string[] = [];
    const refused = await placeNamesOf(
      {
        callResult: (channel) => {
          calls.push(channel);
          return Promise.resolve({ ok: false, error: { code: 'network_error', message: 'offline' } });
        },
      },
      ['US'],
    );
    expect(calls.sort()).toEqual(['catalog:citiesOf', 'catalog:countries']);
    expect(refused.country('US')).toBe('US');
    expect(refused.city('US', 'los_angeles')).toBe('los_angeles');
    calls.length = 0;
    const none = await placeNamesOf(
      { callResult: (channel) => (calls.push(channel), Promise.reject(new Error('no'))) },
      [],
    );
    expect(none).toBe(PLACE_IDS);
    expect(calls).toEqual([]);
  });
});
