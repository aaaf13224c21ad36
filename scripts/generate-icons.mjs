#!/usr/bin/env node
// `npm run icons`: every icon file in resources/ from its SVG, for each size the platforms ask for.
//
//   resources/icon.svg        the app icon (macOS' grid: an 824 px tile on a 1024 px canvas)
//   resources/icon-small.svg  the same mark redrawn for 16-32 px (Windows and Linux small sizes, their trays)
//   resources/tray.svg        the tray glyph alone, black on transparent (macOS template images)
//
// Outputs (committed, so that packaging needs no renderer): icons/<N>x<N>.png (Linux hicolor and
// electron-builder's `linux.icon`), icon.ico (Windows), icon.icns (macOS), tray/* (per platform,
// each with a badged variant for pending payments). Pure npm: @resvg/resvg-js renders, png-to-ico
// writes the .ico, and the .icns container is written here (a header and typed PNG chunks).
// The output is deterministic; tests/scripts/generate-icons.test.ts fails when a committed file
// no longer matches its SVG.
import { Resvg } from '@resvg/resvg-js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pngToIco from 'png-to-ico';

export const RESOURCES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources');

/** PNG sizes of the app icon (Linux installs them into hicolor; 1024 is the largest any platform asks). */
export const APP_PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
/** Sizes in icon.ico: Explorer, taskbar, Start and the installer at 100-200 % scaling. */
export const APP_ICO_SIZES = [16, 20, 24, 32, 40, 48, 64, 256];
/**
 * The .icns chunks: `icp4`-`icp6` and `ic07`-`ic10` are 16-1024 px at 1x, `ic11`-`ic14` the
 * @2x variants of 16-256 pt (what `iconutil` writes for a full iconset).
 */
export const ICNS_CHUNKS = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
  ['ic11', 32],
  ['ic12', 64],
  ['ic13', 256],
  ['ic14', 512],
];
/** Below this size the small drawing is used (Windows and Linux; macOS keeps its grid at every size). */
export const SMALL_DRAWING_BELOW = 40;
/** Windows tray: 16 px at 100 % up to 32 px at 200 %; Windows picks the entry for the DPI. */
export const TRAY_ICO_SIZES = [16, 20, 24, 32];
/** Linux tray (StatusNotifier) sizes: 22 and 24 px panels, 32 px for scaled ones. */
export const TRAY_LINUX_SIZES = [22, 24, 32];
/** Pending payments: an orange dot top right, cut out of the drawing so it reads at 16 px. */
export const BADGE_COLOUR = '#EA580C';

/** One SVG rendered to a PNG `size` px wide (and tall: every source is square). */
export function renderPng(svg, size) {
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: size },
    // No text in the icons: never depend on the machine's fonts.
    font: { loadSystemFonts: false },
  });
  return Buffer.from(resvg.render().asPng());
}

/**
 * The same SVG with the badge: a gap around the dot is masked out of the drawing, then the dot is
 * drawn in `colour`. Works on any of the three sources (each has a square viewBox). The tray glyph
 * takes it top left, where it has nothing: top right, over its exit node, the dot would read as
 * a larger node rather than a badge.
 * @param {string} svg
 * @param {string} colour
 * @param {'top-right' | 'top-left'} [corner]
 */
export function withBadge(svg, colour, corner = 'top-right') {
  const viewBox = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg);
  if (!viewBox) throw new Error('the SVG needs a viewBox="0 0 W H"');
  const side = Number(viewBox[1]);
  const r = side * 0.17;
  const inset = r + side * 0.02;
  const cx = corner === 'top-right' ? side - inset : inset;
  const cy = inset;
  const gap = r + side * 0.06;
  const open = /<svg[^>]*>/.exec(svg);
  const close = svg.lastIndexOf('</svg>');
  if (!open || close < 0) throw new Error('not an SVG document');
  const start = open.index + open[0].length;
  const f = (n) => Number(n.toFixed(3));
  return (
    svg.slice(0, start) +
    `\n<mask id="badge-gap"><rect width="${side}" height="${side}" fill="#FFFFFF"/>` +
    `<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(gap)}" fill="#000000"/></mask>` +
    `\n<g mask="url(#badge-gap)">${svg.slice(start, close)}</g>` +
    `\n<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(r)}" fill="${colour}"/>\n` +
    svg.slice(close)
  );
}

/** An .icns file: the 'icns' header and one typed chunk per PNG (big-endian lengths, headers included). */
export function icnsFile(chunks) {
  const parts = chunks.map(([type, png]) => {
    const header = Buffer.alloc(8);
    header.write(type, 0, 'latin1');
    header.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([header, png]);
  });
  const header = Buffer.alloc(8);
  header.write('icns', 0, 'latin1');
  header.writeUInt32BE(8 + parts.reduce((sum, part) => sum + part.length, 0), 4);
  return Buffer.concat([header, ...parts]);
}

/** An .ico file with one entry per PNG (given several, png-to-ico stores each at its own size). */
export function icoFile(pngs) {
  return pngToIco(pngs);
}

/**
 * Every generated file, relative to resources/, from the three sources. Nothing is written.
 * @param {{ icon: string, small: string, tray: string }} sources
 * @returns {Promise<Map<string, Buffer>>}
 */
export async function buildIcons(sources) {
  const files = new Map();
  const appPng = (size) => renderPng(size < SMALL_DRAWING_BELOW ? sources.small : sources.icon, size);

  for (const size of APP_PNG_SIZES) files.set(`icons/${size}x${size}.png`, appPng(size));
  files.set('icon.ico', await icoFile(APP_ICO_SIZES.map(appPng)));
  files.set('icon.icns', icnsFile(ICNS_CHUNKS.map(([type, size]) => [type, renderPng(sources.icon, size)])));

  for (const badged of [false, true]) {
    const template = badged ? withBadge(sources.tray, '#000000', 'top-left') : sources.tray;
    const colour = badged ? withBadge(sources.small, BADGE_COLOUR) : sources.small;
    // macOS loads name@2x.png beside name.png itself, and treats a name ending in Template as a template image.
    const mac = badged ? 'trayBadgeTemplate' : 'trayTemplate';
    files.set(`tray/${mac}.png`, renderPng(template, 16));
    files.set(`tray/${mac}@2x.png`, renderPng(template, 32));
    const base = badged ? 'tray-badge' : 'tray';
    files.set(`tray/${base}.ico`, await icoFile(TRAY_ICO_SIZES.map((size) => renderPng(colour, size))));
    for (const size of TRAY_LINUX_SIZES) files.set(`tray/${base}-${size}.png`, renderPng(colour, size));
  }
  return files;
}

/** The three SVG sources as they are in `dir`. */
export function readSources(dir = RESOURCES_DIR) {
  const read = (name) => readFileSync(join(dir, name), 'utf8');
  return { icon: read('icon.svg'), small: read('icon-small.svg'), tray: read('tray.svg') };
}

/** Renders everything and writes it under `dir`; returns the relative paths written. */
export async function generateIcons(dir = RESOURCES_DIR) {
  const files = await buildIcons(readSources(dir));
  for (const [relative, content] of files) {
    const target = join(dir, relative);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return [...files.keys()];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const written = await generateIcons();
  console.log(`Wrote ${written.length} icon files under resources/.`);
}
