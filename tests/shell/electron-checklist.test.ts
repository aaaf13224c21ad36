import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mjs)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Settings from Electron's checklist that must never appear anywhere in the app's code. */
const FORBIDDEN: [string, RegExp][] = [
  ['enableBlinkFeatures (checklist 10)', /\benableBlinkFeatures\b/],
  ['nodeIntegration: true (checklist 2)', /nodeIntegration(InWorker|InSubFrames)?\s*:\s*true/],
  ['contextIsolation: false (checklist 3)', /contextIsolation\s*:\s*false/],
  ['sandbox: false (checklist 4)', /\bsandbox\s*:\s*false/],
  ['webSecurity: false (checklist 6)', /webSecurity\s*:\s*false/],
  ['allowRunningInsecureContent: true (checklist 8)', /allowRunningInsecureContent\s*:\s*true/],
  ['experimentalFeatures: true (checklist 9)', /experimentalFeatures\s*:\s*true/],
  [
    'webviewTag: true or <webview> (checklist 11, 12)',
    /webviewTag\s*:\s*true|<webview\s|createElement\(\s*['"]webview/,
  ],
  ['bypassCSP (checklist 7)', /\bbypassCSP\s*:\s*true/],
  ['loadFile / file:// pages (checklist 18)', /\.loadFile\(|loadURL\(\s*['"`]file:/],
];

describe("Electron's checklist, across the code", () => {
  const files = [...sources('src-main'), ...sources('src-renderer')];

  it('scans the app code', () => {
    expect(files.some((file) => file.endsWith(join('shell', 'main.ts')))).toBe(true);
    expect(files.length).toBeGreaterThan(20);
  });

  it("hands links to the OS only in shell/open-external.ts (checklist 15), behind the core's link check", () => {
    const opener = join('src-main', 'shell', 'open-external.ts');
    // `shell.openExternal`/`openPath`, or Electron's `shell` imported (it could be called by another name).
    const pattern =
      /\bshell\.open(External|Path)\b|import\s*\{[^}]*\bshell\b[^}]*\}\s*from\s*['"]electron['"]/;
    const offenders = files
      .filter((file) => relative(ROOT, file) !== opener && pattern.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
    expect(readFileSync(join(ROOT, opener), 'utf8')).toMatch(pattern);
  });

  it.each(FORBIDDEN)('uses no %s', (_name, pattern) => {
    const offenders = files
      .filter((file) => pattern.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });
});
