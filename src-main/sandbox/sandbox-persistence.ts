import { promises as fs } from 'node:fs';
import { SANDBOX_STATE_VERSION, type SandboxState } from './sandbox-state';

/** Reads a `--data` file; null when it does not exist yet. A corrupt file is an error, never silently reset. */
export async function loadSandboxState(file: string): Promise<SandboxState | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON; move it away to start with fresh demo data`);
  }
  const version = (parsed as { version?: unknown } | null)?.version;
  if (version !== SANDBOX_STATE_VERSION) {
    throw new Error(
      `${file} has state version ${String(version)}, this sandbox reads ${SANDBOX_STATE_VERSION}`,
    );
  }
  return parsed as SandboxState;
}

/**
 * Writes state atomically (temp file in the same folder, then rename) and serialises saves so
 * that a slow write never interleaves with the next one.
 */
export class SandboxStateWriter {
  private pending: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => SandboxState,
  ) {}

  schedule(): void {
    if (this.dirty) return;
    this.dirty = true;
    this.pending = this.pending.then(async () => {
      this.dirty = false;
      await this.write();
    });
  }

  async flush(): Promise<void> {
    this.schedule();
    await this.pending;
  }

  private async write(): Promise<void> {
    const temp = `${this.file}.tmp-${process.pid}`;
    const handle = await fs.open(temp, 'w');
    try {
      await handle.writeFile(JSON.stringify(this.snapshot()));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, this.file);
  }
}
