import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualPort, TestSandbox } from '@proxy-manager/sandbox/testing';
import { createHarness, type Harness } from '../support/core-harness';
import {
  type ApiRewriter,
  echoOf,
  freePort,
  type Relay,
  startApiRewriter,
  startRelay,
  viaConnect,
  viaHttp,
  viaSocks,
} from './support/proxy-clients';

/*
 * A relocation may give a port a new host, ports and credentials (the spec). The sandbox keeps one
 * gateway for everything, so here the app reads the API through a pass-through that puts a relay's
 * port in every endpoint: moving the port to relay B and closing relay A is a move to a new endpoint
 * that the old one no longer answers at.
 */

describe('a local proxy through a relocation to a new endpoint', () => {
  let sandbox: TestSandbox;
  let relayA: Relay;
  let relayB: Relay;
  let endpointPort: number;
  let rewriter: ApiRewriter;
  let h: Harness;

  beforeEach(async () => {
    sandbox = await TestSandbox.start();
    await sandbox.advance(60);
    const gateway = sandbox.sandbox.gateway.httpPort;
    relayA = await startRelay(gateway);
    relayB = await startRelay(gateway);
    endpointPort = relayA.port;
    rewriter = await startApiRewriter(sandbox.baseUrl, gateway, () => endpointPort);
    // The harness only reads the base URL from the sandbox it is given.
    h = await createHarness({ baseUrl: rewriter.baseUrl } as TestSandbox);
    await h.call('demo:start');
  });

  afterEach(async () => {
    await h.core.dispose();
    await Promise.all([relayA.close(), relayB.close(), rewriter.close()]);
    await sandbox.close();
  });

  it('follows the app’s own relocation to the new endpoint and exits at the new IP', async () => {
    const port = await manualPort(sandbox);
    const local = await h.call('localProxies:add', {
      upstream: { kind: 'port', portId: port.id },
      listenPort: await freePort(),
    });
    expect(local.upstreamEndpoint).toEqual({ host: '127.0.0.1', port: relayA.port });
    expect(echoOf(await viaHttp(local.listen.port)).exit.ip).toBe(port.currentIp);

    endpointPort = relayB.port;
    await relayA.close();
    const moving = await h.call('ports:relocate', { portId: port.id, country: 'US', carrier: 'verizon' });
    expect(moving.endpoint.httpPort).toBe(relayB.port);
    const { proxies } = await h.call('localProxies:list');
    expect(proxies[0]?.upstreamEndpoint).toEqual({ host: '127.0.0.1', port: relayB.port });

    // Back online on the sandbox clock (80-100 s), with a new IP.
    await sandbox.advance(100);
    const moved = (await sandbox.request('GET', `/v1/mobile/${port.id}`)).json;
    expect(moved.status).toBe('active');
    expect(moved.currentIp).not.toBe(port.currentIp);
    for (const via of [viaHttp, viaConnect, viaSocks]) {
      const answer = await via(local.listen.port);
      expect(answer.status).toBe(200);
      expect(echoOf(answer).exit.ip).toBe(moved.currentIp);
    }
    expect((await h.call('localProxies:list')).proxies[0]?.lastError).toBeNull();
  });

  it('finds a new endpoint by itself when the old one refuses connections (a move made outside the app)', async () => {
    const port = await manualPort(sandbox);
    const local = await h.call('localProxies:add', {
      upstream: { kind: 'port', portId: port.id },
      listenPort: await freePort(),
    });
    expect((await viaSocks(local.listen.port)).status).toBe(200);

    endpointPort = relayB.port;
    await relayA.close();
    for (const via of [viaSocks, viaHttp]) {
      const answer = await via(local.listen.port);
      expect(answer.status).toBe(200);
      expect(echoOf(answer).exit.ip).toBe(port.currentIp);
    }
    const view = (await h.call('localProxies:list')).proxies[0];
    expect(view).toMatchObject({ upstreamEndpoint: { port: relayB.port }, lastError: null });
  });
});
