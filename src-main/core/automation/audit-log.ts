import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../lib/atomic-file';
import { withFileLock } from '../storage/file-lock';
import { readTextOrNull } from '../storage/json-file';
import { AUDIT_LOG_MAX, type AuditEntry } from '../../../src-shared/contract/automation';

const AUDIT_FILE_NAME = 'automation-audit.jsonl';

const entrySchema = z.object({
  at: z.iso.datetime(),
  surface: z.enum(['mcp', 'rest']),
  caller: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('token'), tokenId: z.string().max(40), name: z.string().max(200) }),
    z.object({ kind: z.literal('mcp') }),
    z.object({ kind: z.literal('anonymous'), name: z.string().max(200) }),
  ]),
  channel: z.string().max(100),
  outcome: z.string().max(100),
  durationMs: z.number().min(0),
  remoteAddress: z.string().max(100).optional(),
});

export interface AuditLogOptions {
  dataDir: string;
  /** Keep this many entries (default `AUDIT_LOG_MAX`). */
  max?: number;
  log?: (line: string) => void;
}

/**
 * The audit log of MCP and REST calls: one JSON line per call in `<dataDir>/automation-audit.jsonl`
 * (mode 0600), appended by whichever process served the call (the app, `proxy-manager serve`, an
 * MCP server), under an inter-process lock. Bounded: once it holds twice `max` lines it is cut back
 * to the newest `max`. An entry names the channel and its outcome, never an input or an answer.
 */
export class AuditLog {
  private readonly file: string;
  private readonly lockFile: string;
  private readonly max: number;
  private lines: number | null = null;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: AuditLogOptions) {
    this.file = join(options.dataDir, AUDIT_FILE_NAME);
    this.lockFile = `${this.file}.lock`;
    this.max = options.max ?? AUDIT_LOG_MAX;
  }

  /** Appends one entry; a failure is logged, never thrown (the call it records already happened). */
  record(entry: AuditEntry): Promise<void> {
    const line = `${JSON.stringify(entrySchema.parse(entry))}\n`;
    this.queue = this.queue
      .then(() => withFileLock(this.lockFile, () => this.append(line)))
      .catch((error: unknown) =>
        this.options.log?.(
          `[automation] audit entry not written: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    return this.queue;
  }

  /** The newest entries first, at most `limit`. */
  async list(limit = this.max): Promise<AuditEntry[]> {
    await this.queue;
    return (await this.readAll()).slice(-Math.min(limit, this.max)).reverse();
  }

  private async append(line: string): Promise<void> {
    if (this.lines === null) this.lines = (await this.readAll()).length;
    await fs.appendFile(this.file, line, { mode: 0o600 });
    this.lines += 1;
    if (this.lines < this.max * 2) return;
    const kept = (await this.readAll()).slice(-this.max);
    await writeFileAtomic(this.file, kept.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    this.lines = kept.length;
  }

  private async readAll(): Promise<AuditEntry[]> {
    const text = await readTextOrNull(this.file);
    if (text === null) return [];
    const entries: AuditEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const parsed = entrySchema.safeParse(JSON.parse(line));
        if (parsed.success) entries.push(parsed.data);
      } catch {
        // A torn or foreign line is skipped.
      }
    }
    return entries;
  }
}
