#!/usr/bin/env node
// `npm test`: typecheck, lint, format check and every vitest project, then one summary line
// `N passed, M failed` that totals all of them. Each check step counts as one test.
// When D-Bus and gnome-keyring are installed, vitest runs inside a private session bus with an
// unlocked keyring so that the keychain suite talks to a real Secret Service.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, mkdirSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const requireAll = process.env.PROXY_MANAGER_REQUIRE_ALL === '1';
let passed = 0;
let failed = 0;
let skipped = 0;

function run(label, command, args, env = process.env) {
  console.log(`\n=== ${label}: ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  const ok = result.status === 0;
  console.log(`=== ${label}: ${ok ? 'ok' : `failed (exit ${result.status ?? result.signal})`}`);
  return ok;
}

function check(label, command, args) {
  if (run(label, command, args)) passed += 1;
  else failed += 1;
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

check('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json']);
check('typecheck renderer', 'npx', ['tsc', '-p', 'src-renderer/tsconfig.json']);
check('typecheck sandbox', 'npx', ['tsc', '-p', 'packages/sandbox/tsconfig.json']);
check('lint', 'npx', ['eslint', '--max-warnings=0', '.']);
check('format', 'npx', ['prettier', '--check', '--log-level=warn', '.']);
// Dead code: an unused file, export, type or dependency fails the run (knip.json says what is used).
check('dead code', 'npx', ['knip', '--no-progress']);
// Built once here, so that tests which need the renderer (web mode, e2e) never build it concurrently.
check('build', 'npx', ['electron-vite', 'build', '--logLevel', 'warn']);
// The command line's bundle (out/cli/): the tests that spawn `proxy-manager` run it as users do.
check('build cli', 'node', ['scripts/build-cli.mjs']);

const resultsDir = join(root, 'out', 'test-results');
mkdirSync(resultsDir, { recursive: true });
const jsonFile = join(resultsDir, 'vitest.json');
rmSync(jsonFile, { force: true });
const vitestArgs = [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${jsonFile}`,
];
const extraArgs = process.argv.slice(2);

const keyringAvailable = hasCommand('dbus-run-session') && hasCommand('gnome-keyring-daemon');
if (!keyringAvailable && requireAll) {
  console.error(
    'dbus-run-session and gnome-keyring-daemon are required (apt-get install dbus gnome-keyring)',
  );
  failed += 1;
}
if (keyringAvailable) {
  const runtimeDir = mkdtempSync(join(tmpdir(), 'pm-xdg-runtime-'));
  chmodSync(runtimeDir, 0o700);
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-xdg-data-'));
  const inner = [
    'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null',
    `exec npx ${[...vitestArgs, ...extraArgs].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')}`,
  ].join(' && ');
  run('tests (with a private Secret Service)', 'dbus-run-session', ['--', 'sh', '-c', inner], {
    ...process.env,
    XDG_RUNTIME_DIR: runtimeDir,
    XDG_DATA_HOME: dataDir,
    PROXY_MANAGER_TEST_KEYCHAIN: '1',
  });
  rmSync(runtimeDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
} else {
  run('tests', 'npx', [...vitestArgs, ...extraArgs]);
}

if (existsSync(jsonFile)) {
  const report = JSON.parse(readFileSync(jsonFile, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  // A suite that fails to load has no tests to count; it still fails the run.
  const brokenFiles = report.testResults.filter(
    (f) => f.status === 'failed' && f.assertionResults.length === 0,
  );
  failed += brokenFiles.length;
} else {
  console.error('vitest wrote no report');
  failed += 1;
}

if (skipped > 0) console.log(`${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
