import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveControlWhileOwner } from '../control/control-while-owner';
import { defaultDataDir } from '../core/app-paths';
import { createNodeAppCore } from '../core/node-app-core';
import { createGuardedDispatcher } from '../dispatch/guarded-dispatcher';
import { createIpcHandlers } from '../dispatch/handler-table';
import { serveRestWhileOwner } from '../rest/rest-while-owner';
import { ensureRendererBuilt } from './renderer-build';
import { startWebServer, type WebSender } from './web-server';

const USAGE = `Usage: npm run web -- [--port N] [--profile NAME] [--demo] [--demo-latency fast|realistic]
  --port N          port on 127.0.0.1 (default 4020; 0 takes a free one)
  --profile NAME    start with this saved profile active
  --demo            start connected to the in-process sandbox (demo mode)
Environment: PROXY_MANAGER_API_KEY with PROXY_MANAGER_BASE_URL use that key for this run only (never
saved); PROXY_MANAGER_DATA_DIR overrides the data folder.`;

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '4020' },
        profile: { type: 'string' },
        demo: { type: 'boolean', default: false },
        'demo-latency': { type: 'string', default: 'realistic' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = Number(values.port);
  const latency = values['demo-latency'];
  if (
    !Number.isInteger(port) ||
    port < 0 ||
    port > 65535 ||
    (latency !== 'fast' && latency !== 'realistic')
  ) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const root = resolve(__dirname, '..', '..');
  const staticDir = ensureRendererBuilt(root, log);
  const dataDir = defaultDataDir();
  const core = await createNodeAppCore({
    mode: 'web',
    dataDir,
    demoLatency: latency,
    // Nobody sees the app until a page connects to the event socket (then: visible while one is).
    windowVisible: false,
    log,
  });
  const dispatch = createGuardedDispatcher<WebSender>({
    handlers: createIpcHandlers(core),
    isTrustedSender: (sender) => sender.tokenValid,
    uiCalls: core.uiCalls,
    log,
  });
  const server = await startWebServer({
    staticDir,
    port,
    dispatch,
    subscribe: (listener) => core.subscribe(listener),
    onEventClients: (count) => core.windowVisibility(count > 0),
    log,
  }).catch(async (error: unknown) => {
    await core.dispose();
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    // The fix, not the errno: another web mode (or anything else) holds the port.
    throw new Error(
      `port ${port} is in use on 127.0.0.1 (is web mode running already?): choose another with --port N, or --port 0 for a free one`,
    );
  });
  await core.start({
    environment: { apiKey: process.env.PROXY_MANAGER_API_KEY, baseUrl: process.env.PROXY_MANAGER_BASE_URL },
    ...(values.profile !== undefined ? { profileName: values.profile } : {}),
    demo: values.demo,
  });
  // The CLI's way in while this process owns the background jobs (`docs/automation.md`).
  const control = serveControlWhileOwner({ core, dataDir, log });
  // The local REST API, when Settings → Automation turns it on.
  const rest = serveRestWhileOwner({ core, version: process.env.npm_package_version ?? 'dev', log });
  await Promise.all([control.settled(), rest.settled()]);
  process.stdout.write(`WEB_READY ${JSON.stringify({ url: server.url })}\n`);

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    void Promise.allSettled([control.close(), rest.close(), server.close()])
      .then(() => core.dispose())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`web: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
