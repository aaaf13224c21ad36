import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Runs a TypeScript entry point as `npm run sandbox` / `npm run web` do: one Node process with tsx's
 * loader (`node --import tsx`). The `tsx` binary would put a second process in between that relays
 * signals, and under load it can kill the child before the child's own SIGTERM handler runs.
 */
export function spawnTs(file: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', file, ...args], { cwd: ROOT, ...options });
}
