import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo, CliStream } from '../../../src-main/cli';
import { runCli } from '../../../src-main/cli';

/** A stream that keeps what was written (a pipe, not a terminal, unless `isTTY`). */
export class MemoryStream implements CliStream {
  text = '';
  isTTY = false;
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout as the one JSON document it must be. */
  json<T = any>(): T;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'pm-cli-'));
}

/** `proxy-manager …argv` in this process, with the given environment (nothing from the real one). */
export async function runCapture(
  argv: string[],
  env: Record<string, string | undefined>,
  extra: Omit<CliIo, 'stdout' | 'stderr' | 'env'> = {},
): Promise<CliRun> {
  const stdout = new MemoryStream();
  const stderr = new MemoryStream();
  const code = await runCli(argv, { stdout, stderr, env, ...extra });
  return {
    code,
    stdout: stdout.text,
    stderr: stderr.text,
    json: () => JSON.parse(stdout.text),
  };
}
