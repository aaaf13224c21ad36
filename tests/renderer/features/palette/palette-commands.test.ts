import { describe, expect, it } from 'vitest';
import {
  matchCommands,
  type PaletteCommand,
} from '../../../../src-renderer/src/features/palette/palette-commands';

const command = (
  id: string,
  group: PaletteCommand['group'],
  label: string,
  hint?: string,
): PaletteCommand => ({
  id,
  group,
  label,
  ...(hint ? { hint } : {}),
  run: () => undefined,
});

const ports = Array.from({ length: 1000 }, (_, index) => [
  command(`port:${index}`, 'Go to', `Port ${index + 1}`, `port_${index}`),
  command(`rotate:${index}`, 'Actions', `Rotate Port ${index + 1}`, `port_${index}`),
]).flat();

describe('matchCommands', () => {
  it('finds a port by its label, the exact one first, and its actions', () => {
    const found = matchCommands(ports, 'port 42');
    expect(found[0]?.label).toBe('Port 42');
    expect(found.slice(0, 4).map((entry) => entry.label)).toContain('Rotate Port 42');
    // "Port 420" matches too, but after the port named exactly so.
    expect(found.findIndex((entry) => entry.label === 'Port 420')).toBeGreaterThan(0);
  });

  it('finds by id and by every word in any order, and draws at most 40', () => {
    expect(matchCommands(ports, 'port_7').map((entry) => entry.id)).toContain('rotate:7');
    expect(matchCommands(ports, '42 rotate')[0]?.label).toBe('Rotate Port 42');
    expect(matchCommands(ports, 'port')).toHaveLength(40);
    expect(matchCommands(ports, '   ')).toEqual([]);
    expect(matchCommands(ports, 'nothing like it')).toEqual([]);
  });
});
