import { AuditLog } from '../../core/automation/audit-log';
import { TokenStore } from '../../core/automation/token-store';
import { systemClock } from '../../core/runtime/clock';
import { startRestServer } from '../../rest/rest-server';
import { sessionBackend } from '../cli-backend';
import { EXIT, type ExitCode } from '../command-spec';
import { nextSignal } from './local-proxy-run';
import type { SessionRunOptions } from './mcp-run';

/**
 * `proxy-manager serve --port N`: the local REST API in the foreground, on 127.0.0.1, until Ctrl-C or
 * SIGTERM; for a machine where the desktop app or web mode does not serve it. Once it listens it
 * prints one line on stdout: `REST_READY {"url":"http://127.0.0.1:24080"}`. Each call goes to the
 * running app when it owns the jobs, else to a core of this process, with the token's scopes.
 */
export async function runServe(options: SessionRunOptions & { port: number }): Promise<ExitCode> {
  const log = options.verbose ? (line: string) => options.out.note(line) : () => undefined;
  const now = () => systemClock.now();
  const backend = sessionBackend({
    origin: 'rest',
    dataDir: options.dataDir,
    selection: options.selection,
    demoLatency: options.demoLatency,
    log,
  });
  const audit = new AuditLog({ dataDir: options.dataDir, log });
  let server;
  try {
    server = await startRestServer({
      port: options.port,
      tokens: new TokenStore({ dataDir: options.dataDir, now, log }),
      audit: (entry) => audit.record(entry),
      call: (grant, channel, input) => backend.call(channel, input, grant),
      now,
      version: options.version,
      log,
    });
  } catch (error) {
    await backend.close();
    const code = (error as NodeJS.ErrnoException).code;
    options.out.error(
      code === 'EADDRINUSE'
        ? `Port ${options.port} is in use on 127.0.0.1 (does the app serve the REST API already?): choose another with --port N, or --port 0 for a free one.`
        : `Could not listen: ${error instanceof Error ? error.message : String(error)}`,
    );
    return EXIT.failed;
  }
  options.out.out(`REST_READY ${JSON.stringify({ url: server.url })}`);
  await nextSignal();
  await server.close();
  await backend.close();
  return EXIT.done;
}
