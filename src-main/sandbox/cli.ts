import { parseSandboxArgs, SANDBOX_USAGE, UsageError } from './sandbox-cli-args';
import { startSandbox } from './sandbox-server';

async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    process.stdout.write(`${SANDBOX_USAGE}\n`);
    return;
  }
  const options = parseSandboxArgs(process.argv.slice(2));
  const sandbox = await startSandbox(options);
  process.stdout.write(
    `SANDBOX_READY ${JSON.stringify({ baseUrl: sandbox.baseUrl, controlUrl: sandbox.controlUrl })}\n`,
  );
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    sandbox.close().then(
      () => process.exit(0),
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
    process.stderr.write(`${error.message}\n\n${SANDBOX_USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
