import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleDeb, controlFile, parseFpmArgs, readBuilderConfig } from '../../scripts/build-deb.mjs';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** fpm's arguments as electron-builder 26 hands them over (captured from a real run, paths shortened). */
function fpmArgs(root: string): string[] {
  return [
    '--architecture',
    'amd64',
    '--after-install',
    join(root, 'after-install'),
    '--after-remove',
    join(root, 'after-remove'),
    '--description',
    'Mobile proxy ports\n Desktop app for power users.',
    '--version',
    '0.1.0',
    '--package',
    join(root, 'dist', 'proxy-manager_0.1.0_amd64.deb'),
    '--name',
    'proxy-manager',
    '--maintainer',
    'PM <pm@example.invalid>',
    '--vendor',
    'PM <pm@example.invalid>',
    '--url',
    'https://example.invalid/',
    '--deb-priority',
    'optional',
    `${join(root, 'linux-unpacked')}/=/opt/Proxy Manager`,
    `${join(root, '16.png')}=/usr/share/icons/hicolor/16x16/apps/proxy-manager.png`,
    `${join(root, 'entry.desktop')}=/usr/share/applications/proxy-manager.desktop`,
  ];
}

describe('the deb without fpm', () => {
  it("reads fpm's command line: flags with values, then source=destination mappings", () => {
    const { flags, mappings } = parseFpmArgs(fpmArgs('/t'));
    expect(flags).toMatchObject({ name: 'proxy-manager', version: '0.1.0', architecture: 'amd64' });
    expect(flags.description).toBe('Mobile proxy ports\n Desktop app for power users.');
    expect(mappings[0]).toEqual({ source: '/t/linux-unpacked/', destination: '/opt/Proxy Manager' });
    expect(mappings).toHaveLength(3);
    expect(() => parseFpmArgs(['stray'])).toThrow(/unexpected fpm argument/);
  });

  it('writes a control file dpkg accepts: fields, the synopsis, the long text indented', () => {
    const control = controlFile({
      name: 'proxy-manager',
      version: '0.1.0',
      architecture: 'amd64',
      maintainer: 'PM <pm@example.invalid>',
      installedSizeKiB: 42,
      depends: ['libgtk-3-0', 'libnss3'],
      recommends: ['a | b'],
      section: 'net',
      priority: 'optional',
      homepage: 'https://example.invalid/',
      description: 'Synopsis\n Long text.\n\n After a blank line.',
    });
    expect(control).toBe(
      [
        'Package: proxy-manager',
        'Version: 0.1.0',
        'Architecture: amd64',
        'Maintainer: PM <pm@example.invalid>',
        'Installed-Size: 42',
        'Depends: libgtk-3-0, libnss3',
        'Recommends: a | b',
        'Section: net',
        'Priority: optional',
        'Homepage: https://example.invalid/',
        'Description: Synopsis',
        ' Long text.',
        ' .',
        ' After a blank line.',
        '',
      ].join('\n'),
    );
  });

  it('lays out the files, DEBIAN/control, md5sums and the maintainer scripts, then calls dpkg-deb', () => {
    dir = mkdtempSync(join(tmpdir(), 'pm-deb-test-'));
    const root = dir;
    mkdirSync(join(root, 'linux-unpacked', 'resources'), { recursive: true });
    writeFileSync(join(root, 'linux-unpacked', 'proxy-manager'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(root, 'linux-unpacked', 'resources', 'app.asar'), 'asar');
    writeFileSync(join(root, '16.png'), 'png');
    writeFileSync(join(root, 'entry.desktop'), '[Desktop Entry]\n');
    writeFileSync(join(root, 'after-install'), '#!/bin/bash\nln -sf x /usr/bin/proxy-manager\n');
    writeFileSync(join(root, 'after-remove'), '#!/bin/bash\n');

    const seen: Record<string, string | number> = {};
    const output = assembleDeb({
      fpmArgs: fpmArgs(root),
      depends: ['libgtk-3-0'],
      recommends: [],
      section: 'net',
      run: ((command: string, args: string[]) => {
        const staging = args.at(-2)!;
        const at = (path: string) => join(staging, path);
        seen.staging = staging;
        seen.command = [command, ...args.slice(0, -2)].join(' ');
        seen.output = args.at(-1)!;
        seen.control = readFileSync(at('DEBIAN/control'), 'utf8');
        seen.md5sums = readFileSync(at('DEBIAN/md5sums'), 'utf8');
        seen.postinst = readFileSync(at('DEBIAN/postinst'), 'utf8');
        seen.postinstMode = statSync(at('DEBIAN/postinst')).mode & 0o777;
        seen.postrmMode = statSync(at('DEBIAN/postrm')).mode & 0o777;
        seen.rootMode = statSync(staging).mode & 0o777;
        seen.executableMode = statSync(at('opt/Proxy Manager/proxy-manager')).mode & 0o777;
        seen.iconMode = statSync(at('usr/share/icons/hicolor/16x16/apps/proxy-manager.png')).mode & 0o777;
        seen.asar = readFileSync(at('opt/Proxy Manager/resources/app.asar'), 'utf8');
        seen.desktop = readFileSync(at('usr/share/applications/proxy-manager.desktop'), 'utf8');
        return { status: 0, stderr: '' };
      }) as never,
    });

    expect(output).toBe(join(root, 'dist', 'proxy-manager_0.1.0_amd64.deb'));
    expect(seen.command).toBe('dpkg-deb --root-owner-group -Zxz --build');
    expect(seen.output).toBe(output);
    expect(seen.control).toContain('Package: proxy-manager\nVersion: 0.1.0\nArchitecture: amd64\n');
    expect(seen.control).toContain('Depends: libgtk-3-0\n');
    expect(seen.control).toContain('Section: net\n');
    expect(seen.control).toContain('Homepage: https://example.invalid/\n');
    expect(seen.md5sums).toContain('  opt/Proxy Manager/resources/app.asar\n');
    expect(seen.postinst).toContain('/usr/bin/proxy-manager');
    expect([seen.postinstMode, seen.postrmMode, seen.rootMode, seen.executableMode]).toEqual([
      0o755, 0o755, 0o755, 0o755,
    ]);
    expect(seen.iconMode).toBe(0o644);
    expect(seen.asar).toBe('asar');
    expect(seen.desktop).toBe('[Desktop Entry]\n');
    // The staging folder is gone afterwards.
    expect(existsSync(String(seen.staging))).toBe(false);
  });

  it('reports a dpkg-deb failure with its message', () => {
    dir = mkdtempSync(join(tmpdir(), 'pm-deb-test-'));
    const args = [
      '--package',
      join(dir, 'x.deb'),
      '--name',
      'x',
      '--version',
      '1',
      '--architecture',
      'amd64',
    ];
    expect(() =>
      assembleDeb({
        fpmArgs: args,
        depends: [],
        recommends: [],
        run: (() => ({ status: 2, stderr: 'dpkg-deb: error: bad control' })) as never,
      }),
    ).toThrow(/dpkg-deb failed:\ndpkg-deb: error: bad control/);
  });

  it('takes Depends and Recommends from electron-builder.yml, the list fpm gets in the release build', () => {
    const config = readBuilderConfig();
    expect(config.deb.depends).toEqual(expect.arrayContaining(['libgtk-3-0', 'libnss3', 'libsecret-1-0']));
    expect(config.linux.executableName).toBe('proxy-manager');
  });
});
