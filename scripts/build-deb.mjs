#!/usr/bin/env node
// The .deb without fpm: electron-builder's deb target computes everything (the file layout under
// /opt/Proxy Manager, the hicolor icons, the desktop entry, the post-install and post-remove scripts
// that link /usr/bin/proxy-manager), then hands it to fpm, which it downloads from GitHub. Here the
// same computed layout goes to `dpkg-deb` instead, so a deb builds with Debian's own tools and no
// download (electron-builder's `effectiveOptionComputed` hook receives fpm's arguments and tells it
// to stop there). The release workflow builds its deb with electron-builder and fpm; both come from
// electron-builder.yml.
//
// Usage: node scripts/build-deb.mjs [--unpacked out/dist/linux-unpacked] [--out out/dist]
//          [--homepage URL]   (deb requires one: package.json `homepage` or a GitHub remote otherwise)
// `npm run dist:deb` packs the app (`dist:dir`) first.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import yaml from 'js-yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * fpm's command line as electron-builder builds it: `--flag value` pairs, then `source=destination`
 * mappings (a source ending in `/` maps the folder's contents).
 * @param {string[]} args
 */
export function parseFpmArgs(args) {
  /** @type {Record<string, string>} */
  const flags = {};
  /** @type {{ source: string, destination: string }[]} */
  const mappings = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg.startsWith('--')) {
      flags[arg.slice(2)] = args[i + 1] ?? '';
      i += 1;
    } else {
      const at = arg.indexOf('=');
      if (at < 0) throw new Error(`unexpected fpm argument: ${arg}`);
      mappings.push({ source: arg.slice(0, at), destination: arg.slice(at + 1) });
    }
  }
  return { flags, mappings };
}

/**
 * DEBIAN/control. `description` is electron-builder's: the synopsis, then the long text on lines
 * that start with a space.
 */
export function controlFile({
  name,
  version,
  architecture,
  maintainer,
  installedSizeKiB,
  depends,
  recommends,
  section,
  priority,
  homepage,
  description,
}) {
  const lines = [
    `Package: ${name}`,
    `Version: ${version}`,
    `Architecture: ${architecture}`,
    `Maintainer: ${maintainer}`,
    `Installed-Size: ${installedSizeKiB}`,
  ];
  if (depends.length > 0) lines.push(`Depends: ${depends.join(', ')}`);
  if (recommends.length > 0) lines.push(`Recommends: ${recommends.join(', ')}`);
  if (section) lines.push(`Section: ${section}`);
  lines.push(`Priority: ${priority || 'optional'}`);
  if (homepage) lines.push(`Homepage: ${homepage}`);
  const [synopsis, ...rest] = description.split('\n');
  lines.push(`Description: ${synopsis}`);
  for (const line of rest) lines.push(line.trim() === '' ? ' .' : ` ${line.trim()}`);
  return `${lines.join('\n')}\n`;
}

function filesUnder(dir) {
  /** @type {string[]} */
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) files.push(join(entry.parentPath, entry.name));
  }
  return files.sort();
}

/**
 * Lays the package out in a staging folder and builds it with `dpkg-deb` (owner root:root without
 * fakeroot; xz, which every dpkg reads).
 */
export function assembleDeb({ fpmArgs, depends, recommends, section, run = spawnSync }) {
  const { flags, mappings } = parseFpmArgs(fpmArgs);
  const output = flags.package;
  if (!output) throw new Error('electron-builder gave no --package');
  const staging = mkdtempSync(join(tmpdir(), 'pm-deb-'));
  try {
    chmodSync(staging, 0o755);
    for (const { source, destination } of mappings) {
      const target = join(staging, destination);
      if (source.endsWith('/')) {
        cpSync(source, target, { recursive: true, verbatimSymlinks: true });
      } else {
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(source, target);
        chmodSync(target, 0o644);
      }
    }
    const payload = filesUnder(staging);
    const installedSizeKiB = Math.ceil(payload.reduce((sum, file) => sum + statSync(file).size, 0) / 1024);
    const debian = join(staging, 'DEBIAN');
    mkdirSync(debian, { mode: 0o755 });
    writeFileSync(
      join(debian, 'md5sums'),
      payload
        .map(
          (file) =>
            `${createHash('md5').update(readFileSync(file)).digest('hex')}  ${relative(staging, file)}\n`,
        )
        .join(''),
    );
    writeFileSync(
      join(debian, 'control'),
      controlFile({
        name: flags.name,
        version: flags.version,
        architecture: flags.architecture,
        maintainer: flags.maintainer,
        installedSizeKiB,
        depends,
        recommends,
        section: flags.category ?? section,
        priority: flags['deb-priority'],
        homepage: flags.url,
        description: flags.description ?? '',
      }),
    );
    for (const [flag, script] of [
      ['after-install', 'postinst'],
      ['after-remove', 'postrm'],
    ]) {
      if (!flags[flag]) continue;
      copyFileSync(flags[flag], join(debian, script));
      chmodSync(join(debian, script), 0o755);
    }
    mkdirSync(dirname(output), { recursive: true });
    const built = run('dpkg-deb', ['--root-owner-group', '-Zxz', '--build', staging, output], {
      encoding: 'utf8',
    });
    if (built.error) throw new Error(`dpkg-deb could not run (apt-get install dpkg): ${built.error.message}`);
    if (built.status !== 0) throw new Error(`dpkg-deb failed:\n${built.stderr}`);
    return output;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** electron-builder.yml as written (the deb's Depends and Recommends are read from it). */
export function readBuilderConfig(projectDir = ROOT) {
  return /** @type {any} */ (yaml.load(readFileSync(join(projectDir, 'electron-builder.yml'), 'utf8')));
}

/**
 * Builds the deb of an unpacked Linux app (`electron-builder --dir`'s linux-unpacked).
 * @param {{ projectDir?: string, unpackedDir: string, outDir: string, homepage?: string, arch?: string }} options
 * @returns {Promise<string>} the .deb's path
 */
export async function buildDeb({ projectDir = ROOT, unpackedDir, outDir, homepage, arch = process.arch }) {
  const { Arch, Platform, build } = await import('electron-builder');
  const builderConfig = readBuilderConfig(projectDir);
  const deb = builderConfig.deb ?? {};
  /** @type {string | null} */
  let debPath = null;
  await build({
    projectDir,
    prepackaged: unpackedDir,
    targets: Platform.LINUX.createTarget('deb', arch === 'arm64' ? Arch.arm64 : Arch.x64),
    publish: 'never',
    config: {
      directories: { output: outDir },
      ...(homepage ? { extraMetadata: { homepage } } : {}),
    },
    // Called with [fpm arguments, desktop file] just before fpm would run; true: fpm does not run.
    effectiveOptionComputed: (options) => {
      if (!Array.isArray(options) || !Array.isArray(options[0])) return Promise.resolve(false);
      debPath = assembleDeb({
        fpmArgs: options[0],
        depends: deb.depends ?? [],
        recommends: deb.recommends ?? [],
        section: deb.packageCategory,
      });
      return Promise.resolve(true);
    },
  });
  if (!debPath) throw new Error('electron-builder did not reach its deb step');
  return debPath;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      unpacked: { type: 'string', default: join(ROOT, 'out', 'dist', 'linux-unpacked') },
      out: { type: 'string', default: join(ROOT, 'out', 'dist') },
      homepage: { type: 'string' },
    },
  });
  const deb = await buildDeb({
    unpackedDir: resolve(values.unpacked),
    outDir: resolve(values.out),
    homepage: values.homepage,
  });
  console.log(`Built ${deb}`);
}
