import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findCarrier } from '../../src/catalog/catalog-queries';
import { CATALOG_COUNTRIES } from '../../src/catalog/catalog-data';
import { isPoolAddress } from '../../src/mobile/ip-pool';
import { TestSandbox } from '../../src/testing';
import { fullHistory, getPort, manualPort, ms, portByLabel, SEEDED_PORT_LABELS } from './mobile-test-support';

let sandbox: TestSandbox;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
});

afterEach(async () => {
  await sandbox.close();
});

const relocate = (id: string, body: unknown, key?: string) =>
  sandbox.request('POST', `/v1/mobile/${id}/relocate`, key === undefined ? { body } : { body, key });

describe('POST /v1/mobile/{portId}/relocate', () => {
  it('answers 202 with the port provisioning in its new place, time, credentials and old IP kept', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.relocated);
    const answer = await relocate(port.id, { country: 'DE', carrier: 'telekom_de', city: 'munich' });
    expect(answer.status).toBe(202);
    expect(answer.json).toMatchObject({
      id: port.id,
      status: 'provisioning',
      country: 'DE',
      carrier: 'telekom_de',
      carrierName: 'Telekom Deutschland',
      city: 'munich',
      // Every port shares the sandbox gateway: a relocation keeps host and ports.
      endpoint: sandbox.sandbox.gateway,
      username: port.username,
      password: port.password,
      expiresAt: port.expiresAt,
      createdAt: port.createdAt,
      planId: port.planId,
      currentIp: port.currentIp,
      ipChangedAt: port.ipChangedAt,
    });
    expect(['4G', '5G']).toContain(answer.json.networkType);
    expect(await getPort(sandbox, port.id)).toEqual(answer.json);
  });

  it('comes back active about 90 s later on the sandbox clock, with a new IP of the new carrier (trigger relocation)', async () => {
    const port = await manualPort(sandbox);
    const requestedAt = ms(await sandbox.now());
    await relocate(port.id, { country: 'US', carrier: 'tmobile_us', city: 'new_york' });
    await sandbox.advance(79);
    expect((await getPort(sandbox, port.id)).status).toBe('provisioning');
    await sandbox.advance(21);
    const after = await getPort(sandbox, port.id);
    expect(after.status).toBe('active');
    expect(isPoolAddress('US', 'tmobile_us', after.currentIp)).toBe(true);
    const readyAt = ms(after.ipChangedAt);
    expect(readyAt - requestedAt).toBeGreaterThanOrEqual(80_000);
    expect(readyAt - requestedAt).toBeLessThanOrEqual(100_000);
    const [current, previous] = await fullHistory(sandbox, port.id);
    expect(current).toEqual({
      ip: after.currentIp,
      assignedAt: after.ipChangedAt,
      releasedAt: null,
      trigger: 'relocation',
    });
    expect(previous).toMatchObject({ ip: port.currentIp, releasedAt: after.ipChangedAt });
  });

  it('rotates again once active (30 s after the new modem came online)', async () => {
    const port = await manualPort(sandbox);
    await relocate(port.id, { country: 'US', carrier: 'verizon' });
    await sandbox.advance(100);
    const active = await getPort(sandbox, port.id);
    const secondsSinceOnline = (ms(await sandbox.now()) - ms(active.ipChangedAt)) / 1000;
    if (secondsSinceOnline < 30) await sandbox.advance(30 - secondsSinceOnline);
    const rotated = await sandbox.request('POST', `/v1/mobile/${port.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(isPoolAddress('US', 'verizon', rotated.json.ip)).toBe(true);
  });

  it('picks a city the carrier serves when none is asked', async () => {
    const port = await manualPort(sandbox);
    for (const body of [
      { country: 'US', carrier: 'verizon' },
      { country: 'US', carrier: 'verizon', city: null },
    ]) {
      await sandbox.advance(120);
      const answer = await relocate(port.id, body);
      expect(answer.status).toBe(202);
      expect(findCarrier('US', 'verizon')?.cities).toContain(answer.json.city);
    }
  });

  it('pauses interval rotation while provisioning and resumes it from the new modem', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.interval);
    const relocatedAt = ms(await sandbox.now());
    await relocate(port.id, { country: 'US', carrier: 'verizon', city: 'houston' });
    const before = await fullHistory(sandbox, port.id);
    await sandbox.advance(100);
    const online = await getPort(sandbox, port.id);
    await sandbox.advance(30 * 60);
    const history = await fullHistory(sandbox, port.id);
    expect(history.length).toBe(before.length + 2);
    expect(history[1]).toMatchObject({ trigger: 'relocation', assignedAt: online.ipChangedAt });
    expect(history[0].trigger).toBe('interval');
    expect(ms(history[0].assignedAt)).toBe(ms(online.ipChangedAt) + 30 * 60_000);
    expect(ms(online.ipChangedAt)).toBeGreaterThan(relocatedAt);
  });

  it('is 409 location_unavailable for a carrier without free modems', async () => {
    const port = await manualPort(sandbox);
    for (const body of [
      { country: 'US', carrier: 'att' },
      { country: 'DE', carrier: 'o2_de', city: 'berlin' },
    ]) {
      const answer = await relocate(port.id, body);
      expect(answer.status).toBe(409);
      expect(answer.json.error.code).toBe('location_unavailable');
    }
    expect(await getPort(sandbox, port.id)).toEqual(port);
  });

  it('is 409 location_unavailable for a city the carrier does not serve', async () => {
    const port = await manualPort(sandbox);
    const answer = await relocate(port.id, { country: 'US', carrier: 'verizon', city: 'los_angeles' });
    expect(answer.status).toBe(409);
    expect(answer.json.error.code).toBe('location_unavailable');
  });

  it('is 409 location_unavailable in a country of the catalog without mobile ports', async () => {
    const country = CATALOG_COUNTRIES.find((c) => !c.products.includes('mobile') && c.carriers.length > 0);
    expect(country).toBeDefined();
    if (!country) return;
    const port = await manualPort(sandbox);
    const answer = await relocate(port.id, { country: country.code, carrier: country.carriers[0]?.id });
    expect(answer.status).toBe(409);
    expect(answer.json.error.code).toBe('location_unavailable');
  });

  it('is 422 on country and carrier when they are missing, every field at once', async () => {
    const port = await manualPort(sandbox);
    const answer = await relocate(port.id, {});
    expect(answer.status).toBe(422);
    expect(answer.json.error.fields).toEqual([
      { field: 'country', code: 'required', message: expect.any(String) },
      { field: 'carrier', code: 'required', message: expect.any(String) },
    ]);
    const noBody = await sandbox.request('POST', `/v1/mobile/${port.id}/relocate`);
    expect(noBody.status).toBe(422);
    expect(noBody.json.error.fields[0].field).toBe('body');
  });

  it('is 422 invalid_format on a country that is not two upper-case letters', async () => {
    const port = await manualPort(sandbox);
    for (const country of ['us', 'USA', 'U1']) {
      const answer = await relocate(port.id, { country, carrier: 'verizon' });
      expect(answer.status).toBe(422);
      expect(answer.json.error.fields).toEqual([
        { field: 'country', code: 'invalid_format', message: expect.any(String) },
      ]);
    }
  });

  it('is 422 not_found on a country, carrier or city the catalog does not have', async () => {
    const port = await manualPort(sandbox);
    const country = await relocate(port.id, { country: 'ZZ', carrier: 'verizon' });
    expect(country.json.error.fields).toEqual([
      { field: 'country', code: 'not_found', message: expect.any(String) },
    ]);
    const carrierAndCity = await relocate(port.id, {
      country: 'US',
      carrier: 'telekom_de',
      city: 'atlantis',
    });
    expect(carrierAndCity.status).toBe(422);
    expect(carrierAndCity.json.error.fields).toEqual([
      { field: 'carrier', code: 'not_found', message: expect.any(String) },
      { field: 'city', code: 'not_found', message: expect.any(String) },
    ]);
    const types = await relocate(port.id, { country: 49, carrier: ['x'], city: 5 });
    expect(types.json.error.fields.map((f: any) => [f.field, f.code])).toEqual([
      ['country', 'invalid_type'],
      ['carrier', 'invalid_type'],
      ['city', 'invalid_type'],
    ]);
    expect(await getPort(sandbox, port.id)).toEqual(port);
  });

  it('is 409 port_provisioning while the port is already moving', async () => {
    const port = await manualPort(sandbox);
    expect((await relocate(port.id, { country: 'US', carrier: 'verizon' })).status).toBe(202);
    const again = await relocate(port.id, { country: 'DE', carrier: 'telekom_de' });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('port_provisioning');
    expect((await getPort(sandbox, port.id)).country).toBe('US');
  });

  it('is 409 port_expired on an expired port', async () => {
    const port = await portByLabel(sandbox, SEEDED_PORT_LABELS.expiringSoon);
    await sandbox.advance(2 * 86_400);
    const answer = await relocate(port.id, { country: 'US', carrier: 'verizon' });
    expect(answer.status).toBe(409);
    expect(answer.json.error.code).toBe('port_expired');
  });

  it('needs the proxies scope (403) and a known port (404)', async () => {
    const port = await manualPort(sandbox);
    const readonly = await relocate(port.id, { country: 'US', carrier: 'verizon' }, 'readonly-key');
    expect(readonly.status).toBe(403);
    expect(readonly.json.error.code).toBe('insufficient_scope');
    expect((await relocate('port_nope', { country: 'US', carrier: 'verizon' })).status).toBe(404);
    expect(await getPort(sandbox, port.id)).toEqual(port);
  });
});
