/**
 * Packs the Linux app with electron-builder from electron-builder.yml, offline, and checks what
 * would ship: app.asar's contents, the fuses in the executable, the icons, the desktop entry, the
 * deb (scripts/build-deb.mjs) and the command-line launcher. Electron's binary cannot be
 * downloaded here, so electron-builder gets a stand-in distribution (`electronDist`): a shell
 * script named `electron` that carries Electron's fuse wire, as @electron/fuses reads and flips it.
 * Relies on `out/` from `electron-vite build` (npm test builds it first); builds it when missing.
 */
import { listPackage, extractFile } from '@electron/asar';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUSES } from '../../scripts/apply-fuses.mjs';
import { readBuilderConfig } from '../../scripts/build-deb.mjs';
import { APP_ICO_SIZES, APP_PNG_SIZES } from '../../scripts/generate-icons.mjs';
import { trayIconFiles, windowIconFile } from '../../src-main/shell/app-resources';
import { icnsChunks, icoSizes, pngSize } from './support/image-headers';

const ROOT = join(import.meta.dirname, '..', '..');
const REQUIRE_ALL = process.env.PROXY_MANAGER_REQUIRE_ALL === '1';
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const electronVersion: string = JSON.parse(
  readFileSync(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8'),
).version;
const config = readBuilderConfig(ROOT);

function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Debian packages the deb checks need (.ci/run installs them); in CI their absence is a failure. */
const TOOLS = { 'dpkg-deb': 'dpkg', 'desktop-file-validate': 'desktop-file-utils' } as const;
const missing = Object.entries(TOOLS)
  .filter(([command]) => !hasCommand(command))
  .map(([command, debianPackage]) => `${command} (apt-get install ${debianPackage})`);
const debReason = missing.length > 0 ? `missing ${missing.join(', ')}` : null;

function run(command: string, args: string[], options: { cwd?: string; path?: string } = {}) {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', CI: '1', ...(options.path ? { PATH: options.path } : {}) },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/**
 * An Electron distribution as electron-builder copies it: `electron`, `version`, `LICENSE`. The
 * executable is a shell script (so the launcher can be run) holding the fuse sentinel and
 * Electron 45's default V1 wire right after it, which is all @electron/fuses looks for.
 */
function makeStandInElectron(dir: string): void {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  const ascii = (on: boolean) => (on ? 0x31 : 0x30);
  const defaults = [true, false, true, true, false, false, false, true, true].map(ascii);
  writeFileSync(
    join(dir, 'electron'),
    Buffer.concat([
      Buffer.from(`#!/bin/sh\n# ${SENTINEL}`),
      Buffer.from([1, defaults.length, ...defaults]),
      Buffer.from(`\nprintf 'stand-in electron:'\nprintf ' [%s]' "$@"\necho\n`),
    ]),
  );
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'version'), electronVersion);
  writeFileSync(join(dir, 'LICENSE'), 'stand-in for the Electron license\n');
}

/** The few globs electron-builder.yml's `filter`s use (`*` only). */
function globMatches(pattern: string, name: string): boolean {
  const source = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`^${source}$`).test(name);
}

/** The files an `extraResources` list copies, as paths relative to the packaged resources folder. */
function extraResourceFiles(entries: { from: string; to: string; filter?: string[] }[]): string[] {
  return entries.flatMap(({ from, to, filter }) => {
    const source = join(ROOT, from);
    if (statSync(source).isFile()) return [to];
    return readdirSync(source)
      .filter((name) => !filter || filter.some((pattern) => globMatches(pattern, name)))
      .map((name) => join(to, name));
  });
}

let work: string;
let unpacked: string;
let deb: string | null = null;
const timings: Record<string, number> = {};

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'pm-package-'));
  const built = ['out/main/main.js', 'out/preload/index.js', 'out/renderer/index.html'];
  if (!built.every((file) => existsSync(join(ROOT, file)))) {
    run(join(ROOT, 'node_modules', '.bin', 'electron-vite'), ['build', '--logLevel', 'warn']);
  }
  makeStandInElectron(join(work, 'electron-dist'));
  let started = Date.now();
  run(join(ROOT, 'node_modules', '.bin', 'electron-builder'), [
    '--linux',
    '--dir',
    '--x64',
    '--publish',
    'never',
    `-c.electronDist=${join(work, 'electron-dist')}`,
    `-c.electronVersion=${electronVersion}`,
    `-c.directories.output=${join(work, 'dist')}`,
  ]);
  timings.electronBuilderDir = Date.now() - started;
  unpacked = join(work, 'dist', 'linux-unpacked');
  if (debReason) return;
  started = Date.now();
  run(process.execPath, [
    join(ROOT, 'scripts', 'build-deb.mjs'),
    '--unpacked',
    unpacked,
    '--out',
    join(work, 'dist'),
    // deb requires a homepage; the release build takes the GitHub repository's.
    '--homepage',
    'https://proxy-manager.invalid/',
  ]);
  timings.deb = Date.now() - started;
  deb = join(work, 'dist', `proxy-manager_${pkg.version}_amd64.deb`);
}, 300_000);

afterAll(() => {
  if (Object.keys(timings).length > 0) console.log(`packaging timings (ms): ${JSON.stringify(timings)}`);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packaged Linux app (electron-builder --dir)', () => {
  it('names the app: id, product name, executable, version from package.json', () => {
    expect(config.appId).toBe('com.proxymanager.desktop');
    expect(config.productName).toBe('Proxy Manager');
    expect(config.linux.executableName).toBe('proxy-manager');
    expect(config.afterPack).toBe('scripts/apply-fuses.mjs');
    expect(config.fileAssociations ?? []).toEqual([]);
    expect(config.protocols ?? []).toEqual([]);
    expect(existsSync(join(unpacked, 'proxy-manager'))).toBe(true);
    const packaged = JSON.parse(
      extractFile(join(unpacked, 'resources', 'app.asar'), 'package.json').toString(),
    );
    expect(packaged).toMatchObject({ name: 'proxy-manager', version: pkg.version, main: 'out/main/main.js' });
    expect(packaged.desktopName).toBe('proxy-manager.desktop');
  });

  it('puts only the build and the production dependencies in app.asar', () => {
    const asar = join(unpacked, 'resources', 'app.asar');
    const entries = listPackage(asar, { isPack: false }).map((entry) => entry.replaceAll('\\', '/'));
    const top = new Set(entries.map((entry) => entry.split('/')[1]));
    expect([...top].sort()).toEqual(['node_modules', 'out', 'package.json']);
    for (const file of [
      '/package.json',
      '/out/main/main.js',
      '/out/preload/index.js',
      '/out/renderer/index.html',
    ])
      expect(entries).toContain(file);
    expect(new Set(entries.filter((e) => e.startsWith('/out/')).map((e) => e.split('/')[2]))).toEqual(
      new Set(['main', 'preload', 'renderer']),
    );
    const forbidden =
      /^\/(src-main|src-renderer|src-shared|tests|bench|packages|scripts|resources|docs|\.ci|\.github)(\/|$)/;
    expect(entries.filter((entry) => forbidden.test(entry))).toEqual([]);
    // The ASN data the health checks read, with its licences; not the data set's other copies.
    expect(entries.filter((entry) => entry.startsWith('/node_modules/@ip-location-db/asn/')).sort()).toEqual(
      [
        'DBIP-LICENSE',
        'MODIFICATIONS',
        'NRO_LICENSE',
        'ROUTEVIEWS-LICENSE',
        'asn-ipv4-num.csv',
        'package.json',
      ].map((file) => `/node_modules/@ip-location-db/asn/${file}`),
    );
    // No source maps, and no TypeScript (ours is built; dependencies' sources are left out).
    expect(entries.filter((entry) => /\.(map|ts|mts|cts)$/.test(entry))).toEqual([]);
    const modules = new Set(
      entries.flatMap((entry) => /^\/node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(entry)?.slice(1) ?? []),
    );
    for (const dependency of Object.keys(pkg.dependencies)) expect(modules, dependency).toContain(dependency);
    for (const devDependency of [
      'electron',
      'electron-builder',
      'vitest',
      'typescript',
      'electron-vite',
      'eslint',
    ])
      expect(modules, devDependency).not.toContain(devDependency);
    // The keyring's native module is unpacked beside the asar (a .node cannot load from inside it).
    expect(
      readdirSync(join(unpacked, 'resources', 'app.asar.unpacked', 'node_modules', '@napi-rs'), {
        recursive: true,
      })
        .map(String)
        .some((file) => file.endsWith('.node')),
    ).toBe(true);
  });

  it('has the fuses flipped in the executable by the afterPack hook (RunAsNode off, asar only and integrity on)', async () => {
    const wire = await getCurrentFuseWire(join(unpacked, 'proxy-manager'));
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    for (const fuse of Object.values(FuseV1Options).filter(
      (v): v is FuseV1Options => typeof v === 'number',
    )) {
      expect(wire[fuse], FuseV1Options[fuse]).toBe(FUSES[fuse] ? FuseState.ENABLE : FuseState.DISABLE);
    }
  });

  it('ships the icon files the config names, at the sizes each platform asks for', () => {
    const iconDir = join(ROOT, config.linux.icon);
    for (const size of APP_PNG_SIZES) {
      expect(pngSize(readFileSync(join(iconDir, `${size}x${size}.png`)))).toEqual({
        width: size,
        height: size,
      });
    }
    expect(icoSizes(readFileSync(join(ROOT, config.win.icon))).map((entry) => entry.width)).toEqual(
      APP_ICO_SIZES,
    );
    const types = icnsChunks(readFileSync(join(ROOT, config.mac.icon))).map((chunk) => chunk.type);
    expect(types).toEqual(
      expect.arrayContaining(['ic07', 'ic08', 'ic09', 'ic10', 'ic11', 'ic12', 'ic13', 'ic14']),
    );
  });

  it('copies the tray and window icons where the app looks for them once packaged', () => {
    const resources = join(unpacked, 'resources');
    const wanted = [1, 1.1, 2].flatMap((scale) => {
      const { plain, badged } = trayIconFiles('linux', resources, scale);
      return [plain, badged];
    });
    wanted.push(windowIconFile('linux', resources)!);
    expect(wanted.filter((file) => !existsSync(file))).toEqual([]);
    expect(pngSize(readFileSync(join(resources, 'tray', 'tray-22.png')))).toEqual({ width: 22, height: 22 });
    expect(pngSize(readFileSync(windowIconFile('linux', resources)!))).toEqual({ width: 256, height: 256 });
  });

  it.each([
    ['darwin', 'mac'],
    ['win32', 'win'],
  ] as const)(
    'copies on %s every tray and window icon the app looks for (from the config’s filters)',
    (platform, key) => {
      // These platforms cannot be packed here; their extraResources are checked against the files.
      const copied = new Set(extraResourceFiles(config[key].extraResources));
      const wanted = [1, 2].flatMap((scale) => {
        const { plain, badged } = trayIconFiles(platform, '.', scale);
        return [plain, badged];
      });
      if (platform === 'darwin') wanted.push('tray/trayTemplate@2x.png', 'tray/trayBadgeTemplate@2x.png');
      const window = windowIconFile(platform, '.');
      if (window) wanted.push(window);
      expect(wanted.map((file) => join(file)).filter((file) => !copied.has(file))).toEqual([]);
      expect(copied.has(join('bin', platform === 'win32' ? 'proxy-manager.cmd' : 'proxy-manager'))).toBe(
        true,
      );
    },
  );
});

describe('the deb (scripts/build-deb.mjs, dpkg-deb)', () => {
  const skipUnlessTools = (context: { skip: (note?: string) => void }) => {
    if (!debReason) return;
    if (REQUIRE_ALL) throw new Error(`the deb checks need ${debReason}`);
    context.skip(debReason);
  };

  it('declares the package: name, version from package.json, architecture, dependencies, scripts', (context) => {
    skipUnlessTools(context);
    const field = (name: string) => run('dpkg-deb', ['--field', deb!, name]).trim();
    expect(field('Package')).toBe('proxy-manager');
    expect(field('Version')).toBe(pkg.version);
    expect(field('Architecture')).toBe('amd64');
    expect(field('Depends').split(', ')).toEqual(config.deb.depends);
    expect(field('Section')).toBe('net');
    const info = run('dpkg-deb', ['--info', deb!]);
    expect(info).toMatch(/\bpostinst\b/);
    expect(info).toMatch(/\bpostrm\b/);
  });

  it('installs the app in /opt/Proxy Manager, the desktop entry and the hicolor icons', (context) => {
    skipUnlessTools(context);
    const contents = run('dpkg-deb', ['--contents', deb!]);
    const line = (path: string) => contents.split('\n').find((entry) => entry.endsWith(` ./${path}`)) ?? '';
    expect(line('opt/Proxy Manager/proxy-manager')).toMatch(/^-rwxr-xr-x root\/root /);
    expect(line('opt/Proxy Manager/resources/app.asar')).toMatch(/^-rw-r--r-- root\/root /);
    expect(line('opt/Proxy Manager/resources/bin/proxy-manager')).toMatch(/^-rwxr-xr-x root\/root /);
    expect(line('usr/share/applications/proxy-manager.desktop')).not.toBe('');
    for (const size of APP_PNG_SIZES) {
      expect(line(`usr/share/icons/hicolor/${size}x${size}/apps/proxy-manager.png`), `${size}`).not.toBe('');
    }
  });

  it('links /usr/bin/proxy-manager to the app executable when installed (postinst) and removes it (postrm)', (context) => {
    skipUnlessTools(context);
    const control = join(work, 'control');
    run('dpkg-deb', ['--control', deb!, control]);
    const postinst = readFileSync(join(control, 'postinst'), 'utf8');
    expect(postinst).toContain(
      "update-alternatives --install '/usr/bin/proxy-manager' 'proxy-manager' '/opt/Proxy Manager/proxy-manager'",
    );
    expect(readFileSync(join(control, 'postrm'), 'utf8')).toContain('/usr/bin/proxy-manager');
  });

  it('has a valid desktop entry: Network, the icon, no file associations', (context) => {
    skipUnlessTools(context);
    const root = join(work, 'root');
    run('dpkg-deb', ['-x', deb!, root]);
    const entry = join(root, 'usr', 'share', 'applications', 'proxy-manager.desktop');
    const result = spawnSync('desktop-file-validate', [entry], { encoding: 'utf8' });
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.status).toBe(0);
    const text = readFileSync(entry, 'utf8');
    expect(text).toMatch(/^Name=Proxy Manager$/m);
    expect(text).toMatch(/^Exec="\/opt\/Proxy Manager\/proxy-manager" %U$/m);
    expect(text).toMatch(/^Icon=proxy-manager$/m);
    expect(text).toMatch(/^Categories=Network;$/m);
    expect(text).toMatch(/^StartupWMClass=proxy-manager$/m);
    expect(text).not.toMatch(/^MimeType=/m);
  });

  it('runs the app executable with the arguments from the launcher linked onto PATH', (context) => {
    skipUnlessTools(context);
    const root = join(work, 'root');
    if (!existsSync(root)) run('dpkg-deb', ['-x', deb!, root]);
    const bin = join(work, 'path-bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(
      join(root, 'opt', 'Proxy Manager', 'resources', 'bin', 'proxy-manager'),
      join(bin, 'proxy-manager'),
    );
    const output = run('sh', ['-c', 'proxy-manager ports list --json "two words"'], {
      cwd: work,
      path: `${bin}:${process.env.PATH}`,
    }).trim();
    expect(output).toBe('stand-in electron: [ports] [list] [--json] [two words]');
  });
});
