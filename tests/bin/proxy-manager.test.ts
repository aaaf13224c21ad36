import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDataDir } from '../cli/support/cli-harness';

// The launcher as a user runs it: a real process running the prebuilt bundle (out/cli/, built by
// the tests' global setup as by `npm install`), nothing compiled at start.

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);
const env = () => ({
  ...process.env,
  PROXY_MANAGER_DATA_DIR: tempDataDir(),
  PROXY_MANAGER_API_KEY: '',
  PROXY_MANAGER_BASE_URL: '',
  // No keychain prompt: the demo needs none.
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
});
const hasNpx = await run('npx', ['--version']).then(
  () => true,
  () => false,
);

describe('bin/proxy-manager.mjs', () => {
  it('runs the bundle; help loads only the command tree and commander (no zod, no core)', () => {
    const launcher = readFileSync(join(ROOT, 'bin', 'proxy-manager.mjs'), 'utf8');
    expect(launcher).not.toMatch(/tsx/);
    const meta = JSON.parse(readFileSync(join(ROOT, 'out', 'cli', 'meta.json'), 'utf8')) as {
      outputs: Record<string, { imports: { path: string; kind: string }[]; inputs: Record<string, unknown> }>;
    };
    const loaded = new Set<string>();
    const visit = (output: string): void => {
      if (loaded.has(output) || !meta.outputs[output]) return;
      loaded.add(output);
      for (const imported of meta.outputs[output]?.imports ?? [])
        if (imported.kind === 'import-statement') visit(imported.path);
    };
    visit('out/cli/proxy-manager.mjs');
    const inputs = [...loaded].flatMap((output) => Object.keys(meta.outputs[output]?.inputs ?? {}));
    expect(inputs.some((input) => input.includes('node_modules/commander/'))).toBe(true);
    for (const heavy of [
      'node_modules/zod/',
      'node_modules/undici/',
      'src-main/core/app-core',
      '@modelcontextprotocol',
    ])
      expect(inputs.filter((input) => input.includes(heavy))).toEqual([]);
  });

  it('says how to build it when the bundle is missing', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'pm-bin-copy-'));
    mkdirSync(join(copy, 'bin'));
    copyFileSync(join(ROOT, 'bin', 'proxy-manager.mjs'), join(copy, 'bin', 'proxy-manager.mjs'));
    writeFileSync(join(copy, 'package.json'), '{"version":"0.0.0"}');
    const failed = await run(process.execPath, [join(copy, 'bin', 'proxy-manager.mjs'), '--help'], {
      env: env(),
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toBe(
      'error: the command line is not built: run `npm run build:cli` (or `npm install`)\n',
    );
  });

  it('--help exits 0 with the command tree', async () => {
    const { stdout, stderr } = await run(process.execPath, ['bin/proxy-manager.mjs', '--help'], {
      cwd: ROOT,
      env: env(),
    });
    expect(stdout).toMatch(/^Usage: proxy-manager \[options\] \[command\]/);
    expect(stdout).toContain('completion <shell>');
    expect(stderr).toBe('');
    const version = await run(process.execPath, ['bin/proxy-manager.mjs', '--version'], {
      cwd: ROOT,
      env: env(),
    });
    expect(version.stdout).toBe(`${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`);
  });

  it.runIf(hasNpx)(
    'npx proxy-manager ports list --demo --json prints the demo ports',
    async () => {
      const { stdout, stderr } = await run(
        'npx',
        ['--no', 'proxy-manager', 'ports', 'list', '--demo', '--demo-latency', 'fast', '--json'],
        {
          cwd: ROOT,
          env: env(),
          timeout: 110_000,
        },
      );
      expect(stderr).toBe('');
      // An array of objects, one per port.
      const ports = JSON.parse(stdout) as { id: string }[];
      expect(ports.length).toBeGreaterThan(0);
      expect(ports.every((port) => port.id.startsWith('port_'))).toBe(true);
    },
    120_000,
  );

  it('exits 2 on a usage error, and ends quietly when its reader went away (EPIPE)', async () => {
    const usage = await run(process.execPath, ['bin/proxy-manager.mjs', 'ports', 'nope'], {
      cwd: ROOT,
      env: env(),
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe("error: unknown command 'nope'\n");

    const child = spawn(process.execPath, ['bin/proxy-manager.mjs', 'completion', 'bash'], {
      cwd: ROOT,
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader is gone before the first byte is written: `| head -c 0`.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 60_000);
});
