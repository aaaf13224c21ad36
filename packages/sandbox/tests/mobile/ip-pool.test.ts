import { describe, expect, it } from 'vitest';
import { freshModemIp, isPoolAddress, poolAddress, rotationDraw } from '../../src/mobile/ip-pool';

const inSharedSpace = (ip: string): boolean => {
  const [a, b] = ip.split('.').map(Number);
  return a === 100 && (b as number) >= 64 && (b as number) <= 127;
};

describe('carrier IP pools', () => {
  it('lie in 100.64.0.0/10 and never use .0 or .255', () => {
    for (let index = 0; index < 1016; index += 97) {
      const ip = poolAddress('US', 'verizon', index);
      expect(inSharedSpace(ip)).toBe(true);
      expect(ip).not.toMatch(/\.(0|255)$/);
      expect(isPoolAddress('US', 'verizon', ip)).toBe(true);
    }
  });

  it('differ between carriers', () => {
    const verizon = poolAddress('US', 'verizon', 0);
    expect(isPoolAddress('US', 'tmobile_us', verizon)).toBe(false);
    expect(isPoolAddress('DE', 'telekom_de', verizon)).toBe(false);
    expect(isPoolAddress('US', 'verizon', 'not-an-ip')).toBe(false);
  });

  it('draw the same IP for the same port and time, and sometimes "same as before"', () => {
    expect(rotationDraw('port_1', 1_000, 'US', 'verizon')).toBe(
      rotationDraw('port_1', 1_000, 'US', 'verizon'),
    );
    expect(freshModemIp('port_1', 1_000, 'US', 'verizon')).toBe(
      freshModemIp('port_1', 1_000, 'US', 'verizon'),
    );
    const draws = Array.from({ length: 800 }, (_, i) => rotationDraw('port_1', i * 30_000, 'US', 'verizon'));
    const same = draws.filter((d) => d === null).length;
    expect(same).toBeGreaterThan(50);
    expect(same).toBeLessThan(150);
    expect(new Set(draws.filter((d) => d !== null)).size).toBeGreaterThan(300);
  });
});
