import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ICO_SIZES,
  APP_PNG_SIZES,
  buildIcons,
  icnsFile,
  readSources,
  RESOURCES_DIR,
  TRAY_ICO_SIZES,
  TRAY_LINUX_SIZES,
  withBadge,
} from '../../scripts/generate-icons.mjs';
import { icnsChunks, icoSizes, pngRgba, pngSize } from '../packaging/support/image-headers';

let generated: Map<string, Buffer>;
beforeAll(async () => {
  generated = await buildIcons(readSources());
});

const committed = (relative: string) => readFileSync(join(RESOURCES_DIR, relative));

/** Pixels whose alpha is not 0, and whether any of them is not black. */
function inkOf(png: Buffer) {
  const { data } = pngRgba(png);
  let ink = 0;
  let coloured = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] === 0) continue;
    ink += 1;
    if (data[i] !== 0 || data[i + 1] !== 0 || data[i + 2] !== 0) coloured += 1;
  }
  return { ink, coloured };
}

describe('npm run icons', () => {
  it('has every committed icon file up to date with the SVGs (run `npm run icons` after editing one)', () => {
    const stale = [...generated].filter(
      ([relative, content]) =>
        !existsSync(join(RESOURCES_DIR, relative)) || !committed(relative).equals(content),
    );
    expect(stale.map(([relative]) => relative)).toEqual([]);
  });

  it('renders the app icon as PNGs at every size from 16 to 1024', () => {
    for (const size of APP_PNG_SIZES) {
      expect(pngSize(committed(`icons/${size}x${size}.png`))).toEqual({ width: size, height: size });
    }
    expect(APP_PNG_SIZES).toEqual([16, 24, 32, 48, 64, 128, 256, 512, 1024]);
  });

  it('writes a Windows .ico with 16, 20, 24, 32, 40, 48, 64 and 256 px, 32-bit', () => {
    const entries = icoSizes(committed('icon.ico'));
    expect(entries.map((entry) => entry.width)).toEqual(APP_ICO_SIZES);
    expect(APP_ICO_SIZES).toEqual([16, 20, 24, 32, 40, 48, 64, 256]);
    expect(entries.every((entry) => entry.width === entry.height && entry.bitsPerPixel === 32)).toBe(true);
  });

  it('writes a macOS .icns of PNG chunks, 16 px to 1024 px, each chunk the size its type means', () => {
    const chunks = icnsChunks(committed('icon.icns'));
    const sizeOf: Record<string, number> = {
      icp4: 16,
      icp5: 32,
      icp6: 64,
      ic07: 128,
      ic08: 256,
      ic09: 512,
      ic10: 1024,
      ic11: 32,
      ic12: 64,
      ic13: 256,
      ic14: 512,
    };
    expect(chunks.map((chunk) => chunk.type)).toEqual(Object.keys(sizeOf));
    for (const { type, data } of chunks) {
      expect(pngSize(data), type).toEqual({ width: sizeOf[type], height: sizeOf[type] });
    }
  });

  it('writes the .icns container itself: header, then length-prefixed typed chunks', () => {
    const a = Buffer.from('first');
    const b = Buffer.from('second!');
    const file = icnsFile([
      ['ic07', a],
      ['ic10', b],
    ]);
    expect(file.toString('latin1', 0, 4)).toBe('icns');
    expect(file.readUInt32BE(4)).toBe(8 + 8 + a.length + 8 + b.length);
    expect(icnsChunks(file)).toEqual([
      { type: 'ic07', data: a },
      { type: 'ic10', data: b },
    ]);
  });

  it('draws macOS tray template images: black and alpha only, 16 px and @2x 32 px, with a badged pair', () => {
    for (const name of ['trayTemplate', 'trayBadgeTemplate']) {
      const one = committed(`tray/${name}.png`);
      const two = committed(`tray/${name}@2x.png`);
      expect(pngSize(one)).toEqual({ width: 16, height: 16 });
      expect(pngSize(two)).toEqual({ width: 32, height: 32 });
      for (const png of [one, two]) {
        const { ink, coloured } = inkOf(png);
        expect(ink).toBeGreaterThan(0);
        expect(coloured).toBe(0);
      }
    }
    expect(committed('tray/trayBadgeTemplate@2x.png').equals(committed('tray/trayTemplate@2x.png'))).toBe(
      false,
    );
  });

  it('writes the Windows tray .ico (16-32 px) and the Linux tray PNGs (22, 24, 32 px), each with a badged twin', () => {
    for (const base of ['tray', 'tray-badge']) {
      expect(icoSizes(committed(`tray/${base}.ico`)).map((entry) => entry.width)).toEqual(TRAY_ICO_SIZES);
      for (const size of TRAY_LINUX_SIZES) {
        expect(pngSize(committed(`tray/${base}-${size}.png`))).toEqual({ width: size, height: size });
      }
    }
    expect(TRAY_LINUX_SIZES).toEqual([22, 24, 32]);
  });

  it('badges in orange on the coloured icons: the dot is there and nowhere on the plain one', () => {
    const size = 32;
    const plain = pngRgba(committed(`tray/tray-${size}.png`)).data;
    const badged = pngRgba(committed(`tray/tray-badge-${size}.png`)).data;
    // The dot's centre, top right (withBadge: radius 0.17, inset 0.02 of the side).
    const at = (data: Buffer, x: number, y: number) => [
      ...data.subarray((y * size + x) * 4, (y * size + x) * 4 + 4),
    ];
    const centre = Math.round(size - size * 0.19);
    const top = Math.round(size * 0.19);
    expect(at(badged, centre, top)).toEqual([0xea, 0x58, 0x0c, 255]);
    expect(at(plain, centre, top)).not.toEqual([0xea, 0x58, 0x0c, 255]);
    // Far from the dot, nothing changed.
    expect(at(badged, 6, 26)).toEqual(at(plain, 6, 26));
  });

  it('adds the badge to any source SVG, in the corner asked for', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100"/></svg>';
    const right = withBadge(svg, '#EA580C');
    expect(right).toContain('<g mask="url(#badge-gap)"><rect width="100" height="100"/></g>');
    expect(right).toMatch(/<circle cx="81" cy="19" r="17" fill="#EA580C"\/>\s*<\/svg>$/);
    expect(withBadge(svg, '#000000', 'top-left')).toMatch(/<circle cx="19" cy="19" r="17" fill="#000000"\/>/);
    expect(() => withBadge('<svg/>', '#000')).toThrow(/viewBox/);
  });
});
