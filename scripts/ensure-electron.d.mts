// Types for scripts/ensure-electron.mjs (a plain Node script, so that `npm start` needs no compiler).
import type * as nodeFs from 'node:fs';

export type FsForElectron = Pick<typeof nodeFs, 'existsSync' | 'readFileSync'>;
export interface InstallerResult {
  ok: boolean;
  detail: string;
}
export interface EnsureElectronOptions {
  electronDir: string;
  env?: NodeJS.ProcessEnv;
  fs?: FsForElectron;
  download?: (electronDir: string) => Promise<InstallerResult>;
  log?: (line: string) => void;
}
export type EnsureElectronResult = { ok: true; downloaded: boolean } | { ok: false; message: string };

export function defaultElectronDir(): string;
export function electronInstallState(
  electronDir: string,
  fs?: FsForElectron,
): { version: string; installed: boolean };
export function runElectronInstaller(electronDir: string): Promise<InstallerResult>;
export function runElectronVite(args: string[]): Promise<number>;
export function failureCause(detail: string): string;
export function retryCommand(env: NodeJS.ProcessEnv): string;
export function downloadFailedMessage(version: string, cause: string, retry: string): string;
export function ensureElectron(options: EnsureElectronOptions): Promise<EnsureElectronResult>;
export function main(
  args: string[],
  options: EnsureElectronOptions & {
    startElectronVite?: (args: string[]) => Promise<number>;
    error?: (line: string) => void;
  },
): Promise<number>;
