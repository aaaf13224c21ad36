import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The window's one visual language: every colour, radius and font size is a token of
 * styles/tokens.css, each theme defines the same colours, and the pairs the sheet puts text on read
 * at 4.5:1 or more in both themes.
 */

const read = (path: string) => readFileSync(join(process.cwd(), 'src-renderer/src', path), 'utf8');
const tokens = read('styles/tokens.css');
const styles = read('styles.css');
const withoutComments = (css: string) => css.replace(/\/\*[\s\S]*?\*\//g, '');

/** The custom properties a block declares: `--name: value`. */
function declarations(block: string): Map<string, string> {
  return new Map([...block.matchAll(/(--[a-z0-9-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
}

function blockOf(css: string, selector: string): string {
  const start = css.indexOf(selector);
  expect(start, selector).toBeGreaterThanOrEqual(0);
  return css.slice(start, css.indexOf('}', start));
}

const light = declarations(blockOf(tokens, ":root[data-theme='light'] {"));
const dark = declarations(blockOf(tokens, ":root[data-theme='dark'] {"));
const scales = declarations(blockOf(tokens, ':root {'));

function luminance(hex: string): number {
  const value = hex.replace('#', '');
  const channels = [0, 2, 4].map((i) => parseInt(value.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

describe('design tokens', () => {
  it('has spacing, type and radius scales, and the same colour names in the light and dark themes', () => {
    for (const name of ['--space-1', '--space-4', '--font-size-sm', '--font-size-2xl', '--radius-md'])
      expect(scales.has(name), name).toBe(true);
    expect([...dark.keys()].sort()).toEqual([...light.keys()].sort());
    expect(light.size).toBeGreaterThan(20);
  });

  it('is what styles.css is written in: no colour, radius or font size as a literal, no undefined token', () => {
    const sheet = withoutComments(styles);
    expect(styles).toContain("@import './styles/tokens.css';");
    expect(sheet.match(/#[0-9a-f]{3,8}\b|rgba?\(/gi) ?? []).toEqual([]);
    const radii = [...sheet.matchAll(/border-radius:\s*([^;]+);/g)].map((m) => m[1]!);
    expect(radii.filter((value) => !value.startsWith('var(--radius-'))).toEqual([]);
    const sizes = [...sheet.matchAll(/font-size:\s*([^;]+);/g)].map((m) => m[1]!);
    expect(sizes.filter((value) => !/^var\(--font-size-|^inherit$/.test(value))).toEqual([]);
    // Every token used is defined (a misspelt or missing one falls back silently, or to nothing).
    const defined = new Set([...scales.keys(), ...light.keys()]);
    const used = new Set([...sheet.matchAll(/var\((--[a-z0-9-]+)/g)].map((m) => m[1]!));
    expect([...used].filter((name) => !defined.has(name))).toEqual([]);
  });

  it('keeps text at 4.5:1 or more on every surface, in both themes', () => {
    const failures: string[] = [];
    for (const [theme, palette] of [
      ['light', light],
      ['dark', dark],
    ] as const) {
      const pairs: [string, string][] = [
        ...['--text', '--muted', '--accent', '--ok', '--warn', '--bad', '--info'].flatMap(
          (fg): [string, string][] =>
            ['--bg', '--surface', '--surface-2'].map((bg): [string, string] => [fg, bg]),
        ),
        ['--ok', '--ok-soft'],
        ['--warn', '--warn-soft'],
        ['--bad', '--bad-soft'],
        ['--info', '--info-soft'],
        ['--text', '--accent-soft'],
        ['--accent-text', '--accent'],
        ['--on-bad', '--bad'],
        ['--demo-text', '--demo-bg'],
      ];
      for (const [fg, bg] of pairs) {
        const ratio = contrast(palette.get(fg)!, palette.get(bg)!);
        if (ratio < 4.5) failures.push(`${theme}: ${fg} on ${bg} is ${ratio.toFixed(2)}:1`);
      }
    }
    expect(failures).toEqual([]);
  });
});
