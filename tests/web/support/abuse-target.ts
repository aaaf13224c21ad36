/**
 * Web mode's server alone in its own process, for the abuse run: a crash here ends this process,
 * which the test sees, where an in-process crash would only be an unhandled error of the test runner.
 * Prints `ABUSE_READY {"origin", "token"}` once it listens; `argv[2]` is JSON of limit overrides.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebServer, type WebServerLimits } from '../../../src-main/web/web-server';

async function main(): Promise<void> {
  const staticDir = mkdtempSync(join(tmpdir(), 'pm-web-abuse-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
  const limits = JSON.parse(process.argv[2] ?? '{}') as Partial<WebServerLimits>;
  const server = await startWebServer({
    staticDir,
    port: 0,
    limits,
    dispatch: (_sender, channel) => Promise.resolve({ ok: true, value: { channel } }),
    subscribe: () => () => undefined,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`ABUSE_READY ${JSON.stringify({ origin: server.origin, token: server.token })}\n`);
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
}

void main();
