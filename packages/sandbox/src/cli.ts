import { parseSandboxArgs, SANDBOX_USAGE, UsageError, wantsHelp } from './sandbox-cli-args';
import { DEFAULT_API_KEYS, startSandbox } from './sandbox-server';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (wantsHelp(argv)) {
    process.stdout.write(`${SANDBOX_USAGE}\n`);
    return;
  }
  const options = parseSandboxArgs(argv);
  const sandbox = await startSandbox(options);
  if (sandbox.restored) {
    const ignored = [
      options.seed !== undefined ? '--seed' : null,
      options.clock !== undefined ? '--clock' : null,
      options.startTime !== undefined ? '--start-time' : null,
    ].filter((flag) => flag !== null);
    const info = `seed ${sandbox.world.state.seed}, clock ${sandbox.world.clock.mode}`;
    process.stderr.write(
      `sandbox: continuing from ${options.dataFile ?? ''} (${info})${ignored.length > 0 ? `; ${ignored.join(', ')} ignored` : ''}\n`,
    );
  }
  if (options.host !== undefined && !LOOPBACK_HOSTS.has(options.host)) {
    process.stderr.write(
      `sandbox: listening on ${options.host}: the API (with its demo keys) and the proxy gateway are reachable from other machines; the control API still answers only on loopback\n`,
    );
  }
  // The one stdout line scripts wait for; everything else goes to stderr. It names the first API key
  // (a demo key, not a secret), so a script needs nothing else to start calling.
  const apiKey = (options.keys ?? DEFAULT_API_KEYS)[0]?.key ?? null;
  process.stdout.write(
    `SANDBOX_READY ${JSON.stringify({ baseUrl: sandbox.baseUrl, controlUrl: sandbox.controlUrl, gateway: sandbox.gateway, apiKey })}\n`,
  );
  let closing = false;
  const shutdown = () => {
    if (closing) {
      // A second Ctrl-C means "now": the last save may be lost, the previous file is intact (atomic writes).
      process.stderr.write('sandbox: interrupted again, exiting without waiting\n');
      process.exit(1);
    }
    closing = true;
    sandbox.close().then(
      () => {
        // Let the process end by itself so that pending output (and tsx's signal report to its
        // parent, which otherwise exits 128+signal) is flushed; force it only if a handle lingers.
        process.exitCode = 0;
        setTimeout(() => process.exit(0), 2_000).unref();
      },
      (error: unknown) => {
        process.stderr.write(`sandbox: failed to close cleanly: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`sandbox: ${error.message}\n\n${SANDBOX_USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
