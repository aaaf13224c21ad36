import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findCarrier } from '../../src/catalog/catalog-queries';
import { isPoolAddress } from '../../src/mobile/ip-pool';
import { findPlan } from '../../src/orders/plan-catalog';
import { TestSandbox } from '../../src/testing';
import { fullHistory, listPorts, ms } from './mobile-test-support';

let sandbox: TestSandbox;

beforeEach(async () => {
  sandbox = await TestSandbox.start();
});

afterEach(async () => {
  await sandbox.close();
});

describe('seeded mobile ports', () => {
  it('are 3 to 5 believable ports in several countries and carriers, one rotating on a timer', async () => {
    const ports = await listPorts(sandbox);
    expect(ports.length).toBeGreaterThanOrEqual(3);
    expect(ports.length).toBeLessThanOrEqual(5);
    expect(new Set(ports.map((p) => p.country)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(ports.map((p) => p.carrier)).size).toBeGreaterThanOrEqual(2);
    expect(ports.filter((p) => p.rotation.mode === 'interval')).toHaveLength(1);
    const now = ms(await sandbox.now());
    for (const port of ports) {
      expect(findPlan(port.planId)?.productId).toBe('mobile');
      const carrier = findCarrier(port.country, port.carrier);
      expect(carrier?.available).toBe(true);
      expect(carrier?.name).toBe(port.carrierName);
      expect(carrier?.networkTypes).toContain(port.networkType);
      if (port.city !== null) expect(carrier?.cities).toContain(port.city);
      expect(ms(port.createdAt)).toBeLessThan(now);
      expect(ms(port.expiresAt)).toBeGreaterThan(now);
      expect(port.endpoint).toEqual(sandbox.sandbox.gateway);
    }
    expect(new Set(ports.map((p) => p.password)).size).toBe(ports.length);
    expect(new Set(ports.map((p) => p.username)).size).toBe(ports.length);
  });

  it('have IP histories with past entries from their carrier, consistent from creation to now', async () => {
    for (const port of await listPorts(sandbox)) {
      const history = await fullHistory(sandbox, port.id);
      expect(history.length).toBeGreaterThan(3);
      expect(history.at(-1)).toMatchObject({ trigger: 'initial', assignedAt: port.createdAt });
      for (const entry of history) expect(isPoolAddress(port.country, port.carrier, entry.ip)).toBe(true);
      const gaps = history.slice(1).map((e, i) => ms(history[i].assignedAt) - ms(e.assignedAt));
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(30_000);
    }
  });

  it('are the same for the same seed and differ for another', async () => {
    const same = await TestSandbox.start();
    const other = await TestSandbox.start({ seed: 8 });
    try {
      const strip = (ports: any[]) =>
        ports.map(({ rotationLink: _link, endpoint: _endpoint, ...rest }) => rest);
      expect(strip(await listPorts(same))).toEqual(strip(await listPorts(sandbox)));
      const passwords = (ports: any[]) => ports.map((p) => p.password);
      expect(passwords(await listPorts(other))).not.toEqual(passwords(await listPorts(sandbox)));
    } finally {
      await same.close();
      await other.close();
    }
  });
});
