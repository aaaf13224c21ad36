import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src';

async function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

async function freePort(): Promise<number> {
  const { server, port } = await listening();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('sandbox gateway start-up', () => {
  it('listens on the gateway ports it is given and reports them', async () => {
    const [httpPort, socksPort] = [await freePort(), await freePort()];
    const sandbox = await startSandbox({
      port: 0,
      clock: 'manual',
      latency: 'fast',
      gatewayHttpPort: httpPort,
      gatewaySocksPort: socksPort,
    });
    try {
      expect(sandbox.gateway).toEqual({ host: '127.0.0.1', httpPort, socksPort });
      expect(sandbox.world.gateway).toEqual(sandbox.gateway);
    } finally {
      await sandbox.close();
    }
  });

  it('fails to start with a message naming the flag when a gateway port is in use', async () => {
    const blocker = await listening();
    try {
      await expect(
        startSandbox({ port: 0, clock: 'manual', gatewayHttpPort: 0, gatewaySocksPort: blocker.port }),
      ).rejects.toThrow(
        `port ${blocker.port} on 127.0.0.1 is already in use; choose another with --gateway-socks-port`,
      );
    } finally {
      blocker.server.close();
    }
  });
});
