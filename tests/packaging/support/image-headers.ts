import { inflateSync } from 'node:zlib';

/**
 * What the icon checks read from image files without an image library: the sizes a PNG, .ico or
 * .icns declares in its headers, and a PNG's pixels.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG');
  if (png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('PNG without IHDR first');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Each entry of an .ico's directory (0 in the header means 256). */
export function icoSizes(ico: Buffer): { width: number; height: number; bitsPerPixel: number }[] {
  if (ico.readUInt16LE(0) !== 0 || ico.readUInt16LE(2) !== 1) throw new Error('not an .ico');
  const count = ico.readUInt16LE(4);
  return Array.from({ length: count }, (_, i) => {
    const entry = 6 + i * 16;
    return {
      width: ico[entry] || 256,
      height: ico[entry + 1] || 256,
      bitsPerPixel: ico.readUInt16LE(entry + 6),
    };
  });
}

/** The chunks of an .icns: type and payload, after checking the container's lengths add up. */
export function icnsChunks(icns: Buffer): { type: string; data: Buffer }[] {
  if (icns.toString('latin1', 0, 4) !== 'icns') throw new Error('not an .icns');
  if (icns.readUInt32BE(4) !== icns.length) throw new Error('.icns length does not match the file');
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < icns.length;) {
    const length = icns.readUInt32BE(at + 4);
    if (length < 8 || at + length > icns.length) throw new Error(`bad .icns chunk at ${at}`);
    chunks.push({ type: icns.toString('latin1', at, at + 4), data: icns.subarray(at + 8, at + length) });
    at += length;
  }
  return chunks;
}

/**
 * The RGBA pixels of an 8-bit RGBA, non-interlaced PNG (what resvg writes): enough to check what an
 * icon shows (a template image is black and alpha only) without an image library.
 */
export function pngRgba(png: Buffer): { width: number; height: number; data: Buffer } {
  const { width, height } = pngSize(png);
  if (png[24] !== 8 || png[25] !== 6 || png[28] !== 0) throw new Error('only 8-bit RGBA, non-interlaced');
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const data = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x += 1) {
      const value = raw[y * (stride + 1) + 1 + x]!;
      const left = x >= 4 ? data[y * stride + x - 4]! : 0;
      const up = y > 0 ? data[(y - 1) * stride + x]! : 0;
      const upLeft = x >= 4 && y > 0 ? data[(y - 1) * stride + x - 4]! : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter!];
      if (predictor === undefined) throw new Error(`unknown PNG filter ${filter}`);
      data[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  return { width, height, data };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
