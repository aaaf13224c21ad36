import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Vitest's global setup: builds the command line's bundle once per run, so that a test spawning
 * `bin/proxy-manager.mjs` runs the code being tested, never a bundle left from older sources.
 */
export default function setup(): void {
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-cli.mjs')], {
    stdio: 'inherit',
  });
}
