import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BodyReader, FieldErrors } from '../../src/http/input-reader';
import { isPoolAddress } from '../../src/mobile/ip-pool';
import { provisionPortPlan, validatePortPurchaseOptions } from '../../src/mobile/port-provisioning';
import { findPlan, type PlanData } from '../../src/orders/plan-catalog';
import { TestSandbox } from '../../src/testing';
import { fullHistory, getPort, listPorts, ms } from './mobile-test-support';

let sandbox: TestSandbox;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
});

afterEach(async () => {
  await sandbox.close();
});

const plan = (id: string): PlanData => {
  const found = findPlan(id);
  if (!found) throw new Error(`plan ${id} missing`);
  return found;
};

/** The options reader exactly as a top-up body yields it: prefix `purchase.options.`. */
function optionsReader(options: unknown): { reader: BodyReader | null | undefined; errors: FieldErrors } {
  const errors = new FieldErrors();
  const body = BodyReader.of(
    { purchase: options === undefined ? {} : { options } },
    { emptyAllowed: false },
    errors,
  );
  const purchase = body.object('purchase');
  return { reader: purchase?.object('options', { nullable: true }), errors };
}

const validate = (planId: string, options: unknown) => {
  const { reader, errors } = optionsReader(options);
  validatePortPurchaseOptions(sandbox.sandbox.world, plan(planId), reader, errors);
  return errors.errors;
};

describe('validatePortPurchaseOptions', () => {
  it('accepts a country, carrier and city of the catalog, or no city', () => {
    expect(validate('mobile-port-30d', { country: 'US', carrier: 'verizon', city: 'new_york' })).toEqual([]);
    expect(validate('mobile-port-7d', { country: 'DE', carrier: 'telekom_de' })).toEqual([]);
    expect(validate('mobile-port-7d', { country: 'DE', carrier: 'telekom_de', city: null })).toEqual([]);
  });

  it('leaves availability to the order: an unavailable carrier validates', () => {
    expect(validate('mobile-port-7d', { country: 'US', carrier: 'att' })).toEqual([]);
  });

  it('requires the options of a port plan (purchase.options required)', () => {
    expect(validate('mobile-port-7d', undefined)).toEqual([
      { field: 'purchase.options', code: 'required', message: expect.any(String) },
    ]);
    expect(validate('mobile-port-7d', null)).toEqual([
      { field: 'purchase.options', code: 'required', message: expect.any(String) },
    ]);
  });

  it('reports each bad option with the purchase.options. prefix, all at once', () => {
    expect(validate('mobile-port-7d', {})).toEqual([
      { field: 'purchase.options.country', code: 'required', message: expect.any(String) },
      { field: 'purchase.options.carrier', code: 'required', message: expect.any(String) },
    ]);
    expect(validate('mobile-port-7d', { country: 'ZZ', carrier: 'verizon' })).toEqual([
      { field: 'purchase.options.country', code: 'not_found', message: expect.any(String) },
    ]);
    expect(validate('mobile-port-7d', { country: 'de', carrier: 'telekom_de' })).toEqual([
      { field: 'purchase.options.country', code: 'invalid_format', message: expect.any(String) },
    ]);
    expect(validate('mobile-port-7d', { country: 'US', carrier: 'telekom_de', city: 'atlantis' })).toEqual([
      { field: 'purchase.options.carrier', code: 'not_found', message: expect.any(String) },
      { field: 'purchase.options.city', code: 'not_found', message: expect.any(String) },
    ]);
  });

  it('checks nothing for plans that are not ports', () => {
    expect(validate('res-starter', undefined)).toEqual([]);
    expect(validate('res-starter', { anything: true })).toEqual([]);
  });
});

describe('provisionPortPlan', () => {
  it('creates quantity active ports in that place, with the plan and its duration', async () => {
    const before = await listPorts(sandbox);
    const now = sandbox.sandbox.world.clock.now();
    const result = provisionPortPlan(sandbox.sandbox.world, {
      plan: plan('mobile-port-30d'),
      quantity: 2,
      country: 'US',
      carrier: 'verizon',
      city: 'houston',
      now,
    });
    if (!result.ok) throw new Error(result.reason);
    expect(result.portIds).toHaveLength(2);
    const after = await listPorts(sandbox);
    expect(after.map((p) => p.id)).toEqual([...before.map((p) => p.id), ...result.portIds]);
    const created = await Promise.all(result.portIds.map((id) => getPort(sandbox, id)));
    for (const port of created) {
      expect(port).toMatchObject({
        status: 'active',
        country: 'US',
        carrier: 'verizon',
        carrierName: 'Verizon Wireless',
        city: 'houston',
        planId: 'mobile-port-30d',
        autoRenew: false,
        rotation: { mode: 'manual', intervalMinutes: null },
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + 30 * 86_400_000).toISOString(),
        endpoint: sandbox.sandbox.gateway,
      });
      expect(isPoolAddress('US', 'verizon', port.currentIp)).toBe(true);
      expect(await fullHistory(sandbox, port.id)).toEqual([
        { ip: port.currentIp, assignedAt: port.createdAt, releasedAt: null, trigger: 'initial' },
      ]);
    }
    // Ports share the gateway; the username tells them apart.
    expect(new Set(after.map((p) => p.username)).size).toBe(after.length);
    expect(created[0].password).not.toBe(created[1].password);
    expect(created[0].username).not.toBe(created[1].username);
  });

  it('puts a port without a city in one the carrier serves', () => {
    const result = provisionPortPlan(sandbox.sandbox.world, {
      plan: plan('mobile-port-7d'),
      quantity: 1,
      country: 'DE',
      carrier: 'telekom_de',
      now: sandbox.sandbox.world.clock.now(),
    });
    if (!result.ok) throw new Error(result.reason);
    const port = sandbox.sandbox.world.state.mobile.ports.find((p) => p.id === result.portIds[0]);
    expect(['berlin', 'munich']).toContain(port?.city);
  });

  it('is location_unavailable, creating nothing, for a carrier without free modems or a city it does not serve', async () => {
    const before = await listPorts(sandbox);
    const now = sandbox.sandbox.world.clock.now();
    for (const place of [
      { country: 'US', carrier: 'att' },
      { country: 'DE', carrier: 'o2_de', city: 'berlin' },
      { country: 'US', carrier: 'verizon', city: 'los_angeles' },
      { country: 'ZZ', carrier: 'verizon' },
    ]) {
      const result = provisionPortPlan(sandbox.sandbox.world, {
        plan: plan('mobile-port-7d'),
        quantity: 3,
        now,
        ...place,
      });
      expect(result).toEqual({ ok: false, reason: 'location_unavailable' });
    }
    expect(await listPorts(sandbox)).toEqual(before);
  });

  it('refuses plans that are not ports and quantities below 1', () => {
    const world = sandbox.sandbox.world;
    const now = world.clock.now();
    const place = { country: 'US', carrier: 'verizon', now };
    expect(provisionPortPlan(world, { plan: plan('res-starter'), quantity: 1, ...place })).toEqual({
      ok: false,
      reason: 'not_a_port_plan',
    });
    expect(provisionPortPlan(world, { plan: plan('mobile-port-7d'), quantity: 0, ...place })).toEqual({
      ok: false,
      reason: 'invalid_quantity',
    });
  });

  it('gives a port bought in the past (a late credit) the right expiry once time is settled', async () => {
    const world = sandbox.sandbox.world;
    const boughtAt = world.clock.now() - 8 * 86_400_000;
    const result = provisionPortPlan(world, {
      plan: plan('mobile-port-7d'),
      quantity: 1,
      country: 'US',
      carrier: 'tmobile_us',
      now: boughtAt,
    });
    if (!result.ok) throw new Error(result.reason);
    const port = await getPort(sandbox, result.portIds[0] as string);
    expect(port.status).toBe('expired');
    expect(ms(port.expiresAt)).toBe(boughtAt + 7 * 86_400_000);
  });
});
