import { promises as fs } from 'node:fs';
import { basename } from 'node:path';
import { removeStaleTempFiles, writeFileAtomic } from './lib/atomic-file';
import { SANDBOX_STATE_VERSION, type SandboxState } from './sandbox-state';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `state.json.tmp-<pid>-<n>`: the temp files of this writer before it used `writeFileAtomic`. */
const legacyTempPattern = (file: string) => new RegExp(`^${escapeRegExp(basename(file))}\\.tmp-(\\d+)-\\d+$`);

/** A `--data` file that cannot be used; the sandbox refuses to start rather than lose it. */
export class SandboxStateFileError extends Error {
  constructor(file: string, problem: string) {
    super(`${file} ${problem}; move it away to start with fresh demo data`);
    this.name = 'SandboxStateFileError';
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The members every state file must have; domain slices are only checked to be objects. */
function checkShape(file: string, parsed: unknown): SandboxState {
  if (!isObject(parsed)) throw new SandboxStateFileError(file, 'does not hold a JSON object');
  if (parsed.version !== SANDBOX_STATE_VERSION) {
    throw new SandboxStateFileError(
      file,
      `has state version ${JSON.stringify(parsed.version) ?? 'undefined'}, this sandbox reads ${SANDBOX_STATE_VERSION}`,
    );
  }
  const problems: string[] = [];
  if (!Number.isSafeInteger(parsed.seed)) problems.push('seed');
  if (!Number.isSafeInteger(parsed.randomState)) problems.push('randomState');
  const clock = parsed.clock;
  if (
    !isObject(clock) ||
    (clock.mode !== 'real' && clock.mode !== 'manual') ||
    typeof clock.valueMs !== 'number' ||
    !Number.isFinite(clock.valueMs) ||
    (clock.notBeforeMs !== undefined &&
      (typeof clock.notBeforeMs !== 'number' || !Number.isFinite(clock.notBeforeMs)))
  ) {
    problems.push('clock');
  }
  if (!isObject(parsed.ids) || !Object.values(parsed.ids).every((n) => Number.isSafeInteger(n))) {
    problems.push('ids');
  }
  if (!isObject(parsed.account) || typeof parsed.account.balanceUsd !== 'string') problems.push('account');
  for (const slice of ['subscriptions', 'mobile', 'topUps'] as const) {
    if (!isObject(parsed[slice])) problems.push(slice);
  }
  if (problems.length > 0) {
    throw new SandboxStateFileError(
      file,
      `is not a sandbox state file (bad or missing: ${problems.join(', ')})`,
    );
  }
  return parsed as unknown as SandboxState;
}

/** Reads a `--data` file; null when it does not exist yet. A corrupt file is an error, never silently reset. */
export async function loadSandboxState(file: string): Promise<SandboxState | null> {
  // Temp files of saves a crash interrupted: the demo state they hold (proxy passwords) must not linger.
  await removeStaleTempFiles(file, { extraPatterns: [legacyTempPattern(file)] });
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new SandboxStateFileError(file, `cannot be read (${code ?? String(error)})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SandboxStateFileError(file, 'is not valid JSON (corrupt or not a sandbox state file)');
  }
  return checkShape(file, parsed);
}

/**
 * Writes state atomically (`writeFileAtomic`: owner-only file, temp file in the same folder, fsync,
 * then rename) and serialises saves:
 * a save asked for while a write runs is coalesced into one write that starts after it, so that
 * the file never goes back in time and a burst of changes costs at most two writes.
 */
export class SandboxStateWriter {
  private chain: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => SandboxState,
  ) {}

  /**
   * Resolves once a write that started after this call has reached the disk; rejects when it
   * failed. After `close()`, nothing is written any more (a late handler must not overwrite the
   * file of a sandbox started after this one).
   */
  save(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.queued) return this.queued;
    const run = this.chain.then(() => {
      this.queued = null;
      return this.write();
    });
    this.queued = run;
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Writes the final state and stops accepting saves. */
  async close(): Promise<void> {
    const last = this.save();
    this.closed = true;
    await last;
  }

  private async write(): Promise<void> {
    try {
      await writeFileAtomic(this.file, JSON.stringify(this.snapshot()));
    } catch (error) {
      throw new Error(`cannot save sandbox state to ${this.file}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}
